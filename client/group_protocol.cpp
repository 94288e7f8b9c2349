#include "client/group_protocol.hpp"

#include <algorithm>
#include <set>

#include "cluster/assignor_lookup.hpp"
#include "protocol/wire/consumer_protocol.hpp"

namespace cafka::client {

namespace {

wire::bytes_view view(const std::vector<char>& bytes) {
  return wire::bytes_view{bytes.data(), bytes.size()};
}

std::vector<wire::consumer_topic_partitions> grouped(const std::vector<cluster::topic_partition>& tps) {
  std::map<std::string, std::vector<int32_t>> by_topic;
  for (auto& tp : tps)
    by_topic[tp.topic].push_back(tp.partition);
  std::vector<wire::consumer_topic_partitions> out;
  for (auto& [topic, partitions] : by_topic) {
    std::sort(partitions.begin(), partitions.end());
    out.push_back({topic, partitions});
  }
  return out;
}

} // namespace

std::vector<char> encode_subscription(const std::vector<std::string>& topics,
                                      const std::vector<cluster::topic_partition>& owned) {
  wire::consumer_subscription s;
  s.version = 1;
  s.topics = topics;
  s.owned_partitions = grouped(owned);
  std::vector<char> out;
  wire::byte_writer w{out};
  wire::encode_consumer_subscription(s, w);
  return out;
}

std::vector<std::string> subscribed_topics(const std::vector<cluster::joined_member>& members) {
  std::set<std::string> topics;
  for (auto& m : members)
    if (auto s = wire::decode_consumer_subscription(view(m.metadata)))
      topics.insert(s->topics.begin(), s->topics.end());
  return {topics.begin(), topics.end()};
}

leader_plan leader_assignments(const std::string& protocol,
                               const std::vector<cluster::joined_member>& members,
                               const cluster::partition_counts& counts) {
  leader_plan out;
  auto assign = cluster::find_assignor(protocol);
  if (!assign) {
    out.error = "unknown assignor '" + protocol + "'";
    return out;
  }
  std::vector<cluster::assignor_member> input;
  for (auto& m : members) {
    auto s = wire::decode_consumer_subscription(view(m.metadata));
    if (!s) {
      out.error = "member '" + m.member_id + "' sent a subscription that does not decode: " + s.error().message();
      return out;
    }
    cluster::assignor_member am;
    am.member_id = m.member_id;
    am.group_instance_id = m.group_instance_id;
    am.topics = std::move(s->topics);
    for (auto& tps : s->owned_partitions)
      for (auto p : tps.partitions)
        am.owned_partitions.push_back({tps.topic, p});
    am.generation = s->generation_id;
    input.push_back(std::move(am));
  }
  auto plan = assign(input, counts);
  for (auto& m : members) {
    wire::consumer_assignment a;
    if (auto it = plan.find(m.member_id); it != plan.end())
      a.assigned_partitions = grouped(it->second);
    std::vector<char> bytes;
    wire::byte_writer w{bytes};
    wire::encode_consumer_assignment(a, w);
    out.assignments.push_back({m.member_id, std::move(bytes)});
  }
  return out;
}

result<std::vector<cluster::topic_partition>> decode_assignment(const std::vector<char>& bytes) {
  std::vector<cluster::topic_partition> out;
  if (bytes.empty())
    return out;
  auto a = wire::decode_consumer_assignment(view(bytes));
  if (!a)
    return a.error();
  for (auto& tps : a->assigned_partitions)
    for (auto p : tps.partitions)
      out.push_back({tps.topic, p});
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

} // namespace cafka::client
