#include "cluster/replication_throttle.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

namespace cafka::cluster {

namespace {

std::optional<int32_t> number(std::string_view text) {
  int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

const std::string* entry(const topic_entry& topic, const char* key) {
  auto it = topic.config.entries.find(key);
  return it == topic.config.entries.end() ? nullptr : &it->second;
}

} // namespace

std::set<int32_t> throttled_partitions(const std::string& value, int32_t broker, int32_t partitions) {
  std::set<int32_t> out;
  std::string_view rest = value;
  if (trimmed(rest) == "*") {
    for (int32_t p = 0; p < partitions; ++p)
      out.insert(p);
    return out;
  }
  while (!rest.empty()) {
    auto comma = rest.find(',');
    auto item = trimmed(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    auto colon = item.find(':');
    if (colon == std::string_view::npos)
      continue;
    auto p = number(item.substr(0, colon));
    auto b = number(item.substr(colon + 1));
    if (p && b && *b == broker && *p >= 0 && *p < partitions)
      out.insert(*p);
  }
  return out;
}

throttle_plan plan_throttles(const cluster_view& view, int32_t me, int64_t leader_rate, int64_t follower_rate) {
  throttle_plan plan;
  plan.leader_rate = leader_rate;
  plan.follower_rate = follower_rate;
  for (auto& [name, topic] : view.topics()) {
    auto n = static_cast<int32_t>(topic.partitions.size());
    auto add = [&](const char* key, std::set<topic_partition>& into) {
      if (auto* value = entry(topic, key))
        for (auto p : throttled_partitions(*value, me, n)) {
          topic_partition tp{name, p};
          into.insert(tp);
          plan.isr[tp] = topic.partitions[static_cast<size_t>(p)].state.isr;
        }
    };
    add("leader.replication.throttled.replicas", plan.leader_throttled);
    add("follower.replication.throttled.replicas", plan.follower_throttled);
  }
  return plan;
}

throttled_replica_lists throttle_lists(const std::vector<replica_move>& moves) {
  throttled_replica_lists out;
  auto add = [](std::string& list, int32_t p, int32_t b) {
    list += (list.empty() ? "" : ",") + std::to_string(p) + ":" + std::to_string(b);
  };
  for (auto& m : moves) {
    if (m.current == m.target)
      continue;
    for (auto b : m.current)
      add(out.leader, m.partition, b);
    for (auto b : m.target)
      if (std::find(m.current.begin(), m.current.end(), b) == m.current.end())
        add(out.follower, m.partition, b);
  }
  return out;
}

replication_throttle::replication_throttle(int samples, int64_t window_ms)
  : leader_sent_(samples, window_ms), follower_received_(samples, window_ms) {}

void replication_throttle::replace(throttle_plan plan) {
  std::lock_guard<std::mutex> guard{mutex_};
  plan_ = std::move(plan);
}

throttle_plan replication_throttle::plan() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return plan_;
}

bool replication_throttle::out_of_sync(const topic_partition& tp, int32_t replica) const {
  auto it = plan_.isr.find(tp);
  return it == plan_.isr.end() || std::find(it->second.begin(), it->second.end(), replica) == it->second.end();
}

bool replication_throttle::leader_holds_back(const topic_partition& tp, int32_t replica, int64_t now_ms) const {
  std::lock_guard<std::mutex> guard{mutex_};
  return plan_.leader_rate != unthrottled && plan_.leader_throttled.count(tp) > 0 && out_of_sync(tp, replica)
         && leader_sent_.rate(now_ms) > static_cast<double>(plan_.leader_rate);
}

bool replication_throttle::follower_holds_back(const topic_partition& tp, int32_t me, int64_t now_ms) const {
  std::lock_guard<std::mutex> guard{mutex_};
  return plan_.follower_rate != unthrottled && plan_.follower_throttled.count(tp) > 0 && out_of_sync(tp, me)
         && follower_received_.rate(now_ms) > static_cast<double>(plan_.follower_rate);
}

void replication_throttle::record_leader(const topic_partition& tp, int32_t replica, size_t bytes, int64_t now_ms) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (plan_.leader_throttled.count(tp) > 0 && out_of_sync(tp, replica))
    leader_sent_.record(static_cast<double>(bytes), now_ms);
}

void replication_throttle::record_follower(const topic_partition& tp, int32_t me, size_t bytes, int64_t now_ms) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (plan_.follower_throttled.count(tp) > 0 && out_of_sync(tp, me))
    follower_received_.record(static_cast<double>(bytes), now_ms);
}

} // namespace cafka::cluster
