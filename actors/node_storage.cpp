#include "actors/node_storage.hpp"

#include <algorithm>

#include "config/to_log_config.hpp"
#include "storage/file.hpp"
#include "config/topic_config.hpp"

namespace cafka {

std::string node_storage::registry_path() const {
  return dirs.front()->root() + "/cafka-topics";
}

std::string node_storage::broker_configs_path() const { return dirs.front()->root() + "/cafka-broker-configs"; }

storage::log_config node_storage::log_config_for(const std::string& topic) const {
  auto base = config::to_log_config(config);
  if (auto with_dynamic = config::apply_topic_configs(base, config::dynamic_topic_defaults(dynamic)))
    base = *with_dynamic; // validated when they were set
  auto it = topics.find(topic);
  if (it == topics.end())
    return base;
  auto applied = config::apply_topic_configs(base, it->second.configs);
  return applied ? *applied : base;
}

size_t node_storage::dir_for(const storage::topic_partition& tp) const {
  std::vector<size_t> load(dirs.size(), 0);
  for (auto& [_, p] : partitions)
    ++load[p.dir];
  // New partitions go to the online dir with the fewest (an offline one takes no writes).
  auto better = [&](size_t i, size_t than) {
    bool on_i = !dirs[i]->health().offline(), on_than = !dirs[than]->health().offline();
    return on_i != on_than ? on_i : load[i] < load[than];
  };
  size_t dir = 0;
  for (size_t i = 1; i < dirs.size(); ++i)
    if (better(i, dir))
      dir = i;
  // A partition already on disk stays where it is.
  for (size_t i = 0; i < found_at_start.size(); ++i)
    if (std::binary_search(found_at_start[i].begin(), found_at_start[i].end(), tp))
      dir = i;
  return dir;
}

status node_storage::open_partition_log(const storage::topic_partition& tp, int64_t now_ms) {
  auto dir = dir_for(tp);
  auto log = dirs[dir]->open_log(tp, log_config_for(tp.topic), now_ms);
  if (!log)
    return log.error();
  partitions[tp] = open_partition{std::shared_ptr<storage::partition_log>(std::move(*log)), dir};
  return {};
}

std::vector<storage::offset_checkpoint> node_storage::recovery_points() const {
  std::vector<storage::offset_checkpoint> out(dirs.size());
  for (auto& [tp, p] : partitions)
    out[p.dir][tp] = p.log->recovery_point();
  for (auto& [tp, p] : internal_partitions)
    out[p.dir][tp] = p.log->recovery_point();
  return out;
}

result<std::shared_ptr<node_storage>> open_node_storage(const config::server_config& cfg,
                                                        int64_t now_ms, std::string& error_text) {
  auto ns = std::make_shared<node_storage>();
  ns->config = cfg;
  for (auto& path : cfg.log_dirs) {
    auto dir = storage::log_directory::open(path);
    if (!dir) {
      error_text = "log.dirs '" + path + "': " + dir.error().message();
      return dir.error();
    }
    auto on_disk = (*dir)->partitions_on_disk(); // sorted
    if (!on_disk) {
      error_text = "log.dirs '" + path + "': " + on_disk.error().message();
      return on_disk.error();
    }
    ns->found_at_start.push_back(std::move(*on_disk));
    // A damaged checkpoint costs only a slower start of the high watermark: leaders begin at
    // the log start (or the log end as only replica) and move up as followers fetch.
    if (auto hw = (*dir)->read_high_watermarks())
      ns->high_watermarks.insert(hw->begin(), hw->end());
    ns->dirs.push_back(std::move(*dir));
  }
  auto topics = storage::read_topic_registry(ns->registry_path());
  if (!topics) {
    error_text = "topic registry '" + ns->registry_path() + "': " + topics.error().message();
    return topics.error();
  }
  ns->topics = std::move(*topics);
  if (cfg.zookeeper_connect.empty()) { // a cluster's come with the view
    auto text = storage::read_file_if_present(ns->broker_configs_path());
    auto dynamic = text && *text ? config::parse_broker_configs_file(**text) : std::nullopt;
    if (!text || (*text && !dynamic)) {
      error_text = "broker configs '" + ns->broker_configs_path() + "': "
                   + (text ? std::string("malformed") : text.error().message());
      return text ? std::make_error_code(std::errc::invalid_argument) : text.error();
    }
    if (dynamic)
      ns->dynamic = std::move(*dynamic);
  }
  for (auto& [name, entry] : ns->topics) {
    for (int32_t p = 0; p < entry.partitions; ++p) {
      storage::topic_partition tp{name, p};
      if (auto st = ns->open_partition_log(tp, now_ms); !st) {
        error_text = "partition " + name + "-" + std::to_string(p) + ": " + st.error().message();
        return st.error();
      }
    }
  }
  return ns;
}

status close_node_storage(node_storage& ns) {
  status first;
  for (auto& [tp, p] : ns.partitions)
    if (auto st = p.log->close(); !st && first)
      first = st;
  auto points = ns.recovery_points();
  for (size_t i = 0; i < ns.dirs.size(); ++i)
    if (auto st = ns.dirs[i]->mark_clean_shutdown(points[i]); !st && first)
      first = st;
  return first;
}

} // namespace cafka
