#include "cluster/group_deletion.hpp"

#include "protocol/wire/consumer_protocol.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

namespace {

constexpr const char* consumer_protocol_type = "consumer";

void add_topics_of(const group_bytes& metadata, std::set<std::string>& out) {
  auto s = wire::decode_consumer_subscription(protocol::bytes_view{metadata.data(), metadata.size()});
  if (s)
    out.insert(s->topics.begin(), s->topics.end());
}

} // namespace

kafka_error group_deletion_error(const group_state& group) {
  switch (group.phase()) {
    case group_phase::empty:
      return kafka_error::none;
    case group_phase::dead:
      return kafka_error::group_id_not_found;
    default:
      return kafka_error::non_empty_group;
  }
}

std::set<std::string> subscribed_topics(const group_state& group) {
  std::set<std::string> out;
  if (group.protocol_type() != consumer_protocol_type)
    return out;
  for (auto& m : group.members()) {
    if (!group.protocol().empty()) {
      if (auto* metadata = m.metadata_for(group.protocol()))
        add_topics_of(*metadata, out);
      continue;
    }
    for (auto& p : m.protocols)
      add_topics_of(p.metadata, out);
  }
  return out;
}

offset_deletion plan_offset_deletion(const group_state& group, const std::vector<storage::topic_partition>& asked) {
  offset_deletion out;
  if (group.phase() == group_phase::dead) {
    out.group_error = kafka_error::group_id_not_found;
    return out;
  }
  bool empty = group.phase() == group_phase::empty;
  if (!empty && group.protocol_type() != consumer_protocol_type) {
    out.group_error = kafka_error::non_empty_group;
    return out;
  }
  auto subscribed = empty ? std::set<std::string>{} : subscribed_topics(group);
  for (auto& tp : asked) {
    if (subscribed.count(tp.topic) > 0) {
      out.partitions.emplace_back(tp, kafka_error::group_subscribed_to_topic);
    } else {
      out.partitions.emplace_back(tp, kafka_error::none);
      out.to_delete.push_back(tp);
    }
  }
  return out;
}

} // namespace cafka::cluster
