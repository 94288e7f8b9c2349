#include "client/routing_view.hpp"

#include <caf/error.hpp>
#include <caf/atom.hpp>
#include <caf/sec.hpp>

#include "actors/errors.hpp"
#include "client/retry.hpp"

namespace cafka::client {

routing_view routing_view::from(const cluster_metadata& md) {
  routing_view out;
  for (auto& b : md.brokers)
    if (b.caf_port > 0 && b.caf_port <= 65535 && !b.host.empty())
      out.brokers[b.id] = endpoint{b.host, static_cast<uint16_t>(b.caf_port)};
  for (auto& t : md.topics) {
    if (t.error != 0)
      continue;
    for (auto& p : t.partitions)
      if (p.error == 0 && p.leader >= 0)
        out.leaders[topic_partition{t.name, p.partition}] = p.leader;
  }
  return out;
}

std::optional<int32_t> routing_view::leader_of(const topic_partition& tp) const {
  if (auto it = leaders.find(tp); it != leaders.end())
    return it->second;
  return std::nullopt;
}

std::optional<endpoint> routing_view::address_of(int32_t id) const {
  if (auto it = brokers.find(id); it != brokers.end())
    return it->second;
  return std::nullopt;
}

std::map<int32_t, std::vector<std::string>> actors_to_fetch(const cluster_metadata& md) {
  auto view = routing_view::from(md);
  std::map<int32_t, std::vector<std::string>> out;
  for (auto& t : md.topics) {
    if (t.error != 0)
      continue;
    for (auto& p : t.partitions) {
      if (p.error != 0 || p.leader < 0 || p.actor || !view.address_of(p.leader))
        continue;
      auto& topics = out[p.leader];
      if (topics.empty() || topics.back() != t.name)
        topics.push_back(t.name);
    }
  }
  return out;
}

size_t fill_actors(cluster_metadata& md, int32_t leader, cluster_metadata& from_leader) {
  std::map<topic_partition, partition_actor*> offered;
  for (auto& t : from_leader.topics)
    for (auto& p : t.partitions)
      if (p.error == 0 && p.actor)
        offered[topic_partition{t.name, p.partition}] = &p.actor;
  size_t filled = 0;
  for (auto& t : md.topics)
    for (auto& p : t.partitions) {
      if (p.error != 0 || p.leader != leader || p.actor)
        continue;
      if (auto it = offered.find(topic_partition{t.name, p.partition}); it != offered.end()) {
        p.actor = *it->second;
        ++filled;
      }
    }
  return filled;
}

size_t mark_unrouted(cluster_metadata& md) {
  size_t marked = 0;
  for (auto& t : md.topics)
    for (auto& p : t.partitions)
      if (p.error == 0 && !p.actor) {
        p.error = static_cast<int16_t>(kafka_error::leader_not_available);
        p.leader = -1;
        ++marked;
      }
  return marked;
}

route_action routing_decision(const caf::error& err, bool auto_create) noexcept {
  if (!err)
    return route_action::fail;
  if (err.category() == caf::atom("exit"))
    return route_action::refresh_and_retry; // the down reason of a lost partition actor
  switch (to_kafka_error(err)) {
    case kafka_error::not_leader_or_follower:
    case kafka_error::leader_not_available:
    case kafka_error::network_exception: // a lost partition actor or connection
    case kafka_error::request_timed_out:
      return route_action::refresh_and_retry;
    case kafka_error::unknown_topic_or_partition:
      return auto_create ? route_action::refresh_and_retry : route_action::fail;
    default:
      return is_retriable(err) ? route_action::refresh_and_retry : route_action::fail;
  }
}

} // namespace cafka::client
