#include "cluster/znode_data.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <limits>
#include <utility>
#include <vector>

#include "cluster/errc.hpp"
#include "cluster/kv_text.hpp"
#include "cluster/percent_encoding.hpp"

namespace cafka::cluster {
namespace {

constexpr int64_t format_version = 1;
constexpr int64_t int32_max = std::numeric_limits<int32_t>::max();
constexpr std::string_view partition_prefix = "partition.";
constexpr std::string_view adding_prefix = "adding.";
constexpr std::string_view removing_prefix = "removing.";
constexpr std::string_view config_prefix = "config.";

std::error_code first_error(std::initializer_list<std::error_code> errors) {
  for (auto& ec : errors)
    if (ec)
      return ec;
  return {};
}

kv_writer versioned() {
  kv_writer w;
  w.add_int("version", format_version);
  return w;
}

// Parses `text` and checks its version.
result<kv_fields> parse_versioned(std::string_view text) {
  auto fields = kv_fields::parse(text);
  if (!fields)
    return fields;
  if (auto st = fields->require_version(format_version); !st)
    return st.error();
  return fields;
}

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

} // namespace

std::string encode(const broker_registration& b) {
  auto w = versioned();
  w.add_int("id", b.id).add("host", b.host).add_int("kafka_port", b.kafka_port);
  w.add_int("caf_port", b.caf_port).add("rack", b.rack);
  return w.text();
}

result<broker_registration> decode_broker_registration(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  auto id = f->integer("id", 0, int32_max);
  auto host = f->text("host");
  auto kafka_port = f->integer("kafka_port", 0, 65535);
  auto caf_port = f->integer("caf_port", 0, 65535);
  auto rack = f->has("rack") ? f->text("rack") : result<std::string>{std::string{}};
  if (auto ec = first_error(
        {id.error(), host.error(), kafka_port.error(), caf_port.error(), rack.error()}))
    return ec;
  return broker_registration{static_cast<int32_t>(*id), std::move(*host),
                             static_cast<uint16_t>(*kafka_port), static_cast<uint16_t>(*caf_port),
                             std::move(*rack)};
}

std::string encode(const controller_info& c) {
  auto w = versioned();
  w.add_int("broker_id", c.broker_id).add_int("epoch", c.epoch);
  return w.text();
}

result<controller_info> decode_controller_info(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  auto broker_id = f->integer("broker_id", 0, int32_max);
  auto epoch = f->integer("epoch", 0, int32_max);
  if (auto ec = first_error({broker_id.error(), epoch.error()}))
    return ec;
  return controller_info{static_cast<int32_t>(*broker_id), static_cast<int32_t>(*epoch)};
}

std::string encode_controller_epoch(int32_t epoch) {
  auto w = versioned();
  w.add_int("epoch", epoch);
  return w.text();
}

result<int32_t> decode_controller_epoch(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  auto epoch = f->integer("epoch", 0, int32_max);
  if (!epoch)
    return epoch.error();
  return static_cast<int32_t>(*epoch);
}

std::string encode(const topic_assignment& t) {
  auto w = versioned();
  for (std::size_t p = 0; p < t.partitions.size(); ++p)
    w.add_ints(std::string(partition_prefix) + std::to_string(p), t.partitions[p]);
  for (auto [prefix, moving] : {std::pair{adding_prefix, &t.adding}, std::pair{removing_prefix, &t.removing}})
    for (auto& [p, replicas] : *moving)
      w.add_ints(std::string(prefix) + std::to_string(p), replicas);
  return w.text();
}

result<topic_assignment> decode_topic_assignment(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  std::vector<std::pair<int64_t, replica_list>> entries;
  std::map<int32_t, replica_list> adding, removing;
  for (auto& [key, value] : f->all()) {
    for (auto [prefix, moving] : {std::pair{adding_prefix, &adding}, std::pair{removing_prefix, &removing}}) {
      if (!starts_with(key, prefix))
        continue;
      auto p = parse_kv_int(std::string_view(key).substr(prefix.size()), 0, int32_max);
      auto replicas = parse_kv_id_list(value);
      if (!p || !replicas || replicas->empty())
        return errc::malformed_data;
      (*moving)[static_cast<int32_t>(*p)] = std::move(*replicas);
    }
    if (!starts_with(key, partition_prefix))
      continue;
    auto p = parse_kv_int(std::string_view(key).substr(partition_prefix.size()), 0, int32_max);
    auto replicas = parse_kv_id_list(value);
    if (!p || !replicas || replicas->empty())
      return errc::malformed_data;
    entries.emplace_back(*p, std::move(*replicas));
  }
  if (entries.empty())
    return errc::malformed_data;
  // Partitions must be exactly 0..n-1: each p < n and none twice.
  topic_assignment t;
  t.partitions.resize(entries.size());
  std::vector<bool> seen(entries.size());
  for (auto& [p, replicas] : entries) {
    auto index = static_cast<std::size_t>(p);
    if (index >= entries.size() || seen[index])
      return errc::malformed_data;
    seen[index] = true;
    t.partitions[index] = std::move(replicas);
  }
  // Each partition being moved exists, and its full replica list holds the ones moving.
  for (auto* moving : {&adding, &removing})
    for (auto& [p, replicas] : *moving) {
      if (static_cast<size_t>(p) >= t.partitions.size())
        return errc::malformed_data;
      auto& all = t.partitions[static_cast<size_t>(p)];
      for (auto id : replicas)
        if (std::find(all.begin(), all.end(), id) == all.end())
          return errc::malformed_data;
    }
  t.adding = std::move(adding);
  t.removing = std::move(removing);
  return t;
}

std::string encode(const partition_state& p) {
  auto w = versioned();
  w.add_int("leader", p.leader).add_int("leader_epoch", p.leader_epoch);
  w.add_int("controller_epoch", p.controller_epoch).add_ints("isr", p.isr);
  return w.text();
}

result<partition_state> decode_partition_state(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  auto leader = f->integer("leader", no_broker, int32_max);
  auto leader_epoch = f->integer("leader_epoch", 0, int32_max);
  auto controller_epoch = f->integer("controller_epoch", 0, int32_max);
  auto isr = f->id_list("isr");
  if (auto ec = first_error(
        {leader.error(), leader_epoch.error(), controller_epoch.error(), isr.error()}))
    return ec;
  return partition_state{static_cast<int32_t>(*leader), static_cast<int32_t>(*leader_epoch),
                         static_cast<int32_t>(*controller_epoch), std::move(*isr)};
}

std::string encode(const topic_config& c) {
  auto w = versioned();
  for (auto& [key, value] : c.entries)
    w.add(std::string(config_prefix) + percent_encode(key), value);
  return w.text();
}

result<topic_config> decode_topic_config(std::string_view text) {
  auto f = parse_versioned(text);
  if (!f)
    return f.error();
  topic_config c;
  for (auto& [key, value] : f->all()) {
    if (!starts_with(key, config_prefix))
      continue;
    auto encoded = std::string_view(key).substr(config_prefix.size());
    auto name = percent_decode(encoded);
    if (!name || percent_encode(*name) != encoded) // only the canonical spelling, so that two
      return errc::malformed_data;                 // keys never decode to the same name
    c.entries.emplace(std::move(*name), value);
  }
  return c;
}

} // namespace cafka::cluster
