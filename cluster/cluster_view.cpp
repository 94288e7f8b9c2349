#include "cluster/cluster_view.hpp"

#include <algorithm>
#include <iterator>

namespace cafka::cluster {

void cluster_view::set_brokers(const std::vector<broker_registration>& brokers) {
  brokers_.clear();
  for (auto& b : brokers)
    if (b.id >= 0) // no_broker must never count as live
      brokers_[b.id] = b;
}

void cluster_view::set_controller(std::optional<controller_info> controller) {
  controller_ = std::move(controller);
}

void cluster_view::set_broker_config(const std::string& entity, topic_config config) {
  broker_configs_[entity] = std::move(config);
}

std::map<std::string, std::string> cluster_view::broker_config(const std::string& entity) const {
  auto it = broker_configs_.find(entity);
  return it == broker_configs_.end() ? std::map<std::string, std::string>{} : it->second.entries;
}

void cluster_view::set_topic(const std::string& name, topic_entry topic) {
  topic.partitions.resize(topic.assignment.partitions.size());
  topics_[name] = std::move(topic);
}

bool cluster_view::remove_topic(const std::string& name) {
  return topics_.erase(name) > 0;
}

bool cluster_view::set_partition_state(const std::string& topic, int32_t partition,
                                       partition_entry entry) {
  auto i = topics_.find(topic);
  if (i == topics_.end() || partition < 0
      || partition >= static_cast<int32_t>(i->second.partitions.size()))
    return false;
  i->second.partitions[static_cast<size_t>(partition)] = std::move(entry);
  return true;
}

std::vector<broker_registration> cluster_view::brokers() const {
  std::vector<broker_registration> out;
  out.reserve(brokers_.size());
  for (auto& [id, b] : brokers_)
    out.push_back(b);
  return out;
}

std::vector<int32_t> cluster_view::broker_ids() const {
  std::vector<int32_t> out;
  out.reserve(brokers_.size());
  for (auto& [id, b] : brokers_)
    out.push_back(id);
  return out;
}

const broker_registration* cluster_view::broker(int32_t id) const {
  auto i = brokers_.find(id);
  return i == brokers_.end() ? nullptr : &i->second;
}

bool cluster_view::is_live(int32_t id) const {
  return brokers_.count(id) > 0;
}

std::vector<std::string> cluster_view::topic_names() const {
  std::vector<std::string> out;
  out.reserve(topics_.size());
  for (auto& [name, t] : topics_)
    out.push_back(name);
  return out;
}

const topic_entry* cluster_view::topic(const std::string& name) const {
  auto i = topics_.find(name);
  return i == topics_.end() ? nullptr : &i->second;
}

int32_t cluster_view::live_leader(const std::string& topic, int32_t partition) const {
  auto t = this->topic(topic);
  if (!t || partition < 0 || partition >= static_cast<int32_t>(t->partitions.size()))
    return no_broker;
  auto leader = t->partitions[static_cast<size_t>(partition)].state.leader;
  return is_live(leader) ? leader : no_broker;
}

std::optional<std::vector<partition_metadata>>
cluster_view::describe_topic(const std::string& name) const {
  auto t = topic(name);
  if (!t)
    return std::nullopt;
  std::vector<partition_metadata> out;
  out.reserve(t->partitions.size());
  for (size_t p = 0; p < t->partitions.size(); ++p) {
    auto& st = t->partitions[p].state;
    auto leader = is_live(st.leader) ? st.leader : no_broker;
    out.push_back({static_cast<int32_t>(p), leader, st.leader_epoch, t->assignment.partitions[p],
                   st.isr});
  }
  return out;
}

std::vector<partition_leadership> cluster_view::partitions_led_by(int32_t broker) const {
  std::vector<partition_leadership> out;
  if (broker == no_broker)
    return out; // offline partitions are led by nobody
  for (auto& [name, t] : topics_)
    for (size_t p = 0; p < t.partitions.size(); ++p)
      if (t.partitions[p].state.leader == broker)
        out.push_back({name, static_cast<int32_t>(p), t.partitions[p].state.leader_epoch});
  return out;
}

leadership_change leadership_changes(const cluster_view& before, const cluster_view& after,
                                     int32_t my_id) {
  auto old_led = before.partitions_led_by(my_id);
  auto new_led = after.partitions_led_by(my_id);
  auto key_less = [](const partition_leadership& a, const partition_leadership& b) {
    return a.topic != b.topic ? a.topic < b.topic : a.partition < b.partition;
  };
  auto full_less = [&](const partition_leadership& a, const partition_leadership& b) {
    return key_less(a, b) || (!key_less(b, a) && a.leader_epoch < b.leader_epoch);
  };
  leadership_change out;
  // start: (partition, epoch) pairs new in `after`; stop: partitions (by key) gone from it.
  std::set_difference(new_led.begin(), new_led.end(), old_led.begin(), old_led.end(),
                      std::back_inserter(out.start), full_less);
  std::set_difference(old_led.begin(), old_led.end(), new_led.begin(), new_led.end(),
                      std::back_inserter(out.stop), key_less);
  return out;
}

} // namespace cafka::cluster
