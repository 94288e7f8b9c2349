// One valid request body per version of the consumer-group APIs, shaped like what
// librdkafka 2.0.2, kafka-python 2.0.2 and kafkajs 2.2.4 send (kafka-wire-notes.md §2d), and
// of DeleteGroups and OffsetDelete.
#include "wire_group_hex.hpp"
#include "wire_samples.hpp"

namespace cafka::wire::test {

namespace {

using protocol::test::from_hex;

constexpr int16_t offset_commit = 8;
constexpr int16_t offset_fetch = 9;
constexpr int16_t find_coordinator = 10;
constexpr int16_t join_group = 11;
constexpr int16_t heartbeat = 12;
constexpr int16_t leave_group = 13;
constexpr int16_t sync_group = 14;
constexpr int16_t describe_groups = 15;
constexpr int16_t list_groups = 16;
constexpr int16_t delete_groups = 42;
constexpr int16_t offset_delete = 47;

wire_sample sample(int16_t key, int16_t version, const std::string& hex) {
  return {key, version, from_hex(hex)};
}

void add_find_coordinator(std::vector<wire_sample>& out) {
  out.push_back(sample(find_coordinator, 0, group));                // kafka-python
  out.push_back(sample(find_coordinator, 1, group + "00"));         // key_type group
  out.push_back(sample(find_coordinator, 2, hex_str("txn-1") + "01")); // a transactional id
}

void add_join_group(std::vector<wire_sample>& out) {
  auto range_v0 = hex_str("range") + hex_bytes(subscription_v0_test);
  auto range_v1 = hex_str("range") + hex_bytes(subscription_v1_test);
  auto roundrobin_v1 = hex_str("roundrobin") + hex_bytes(subscription_v1_test);
  // v0: no rebalance timeout.
  out.push_back(sample(join_group, 0,
                       group + "00002710" + hex_str("") + hex_str("consumer") + "00000001" +
                         range_v0));
  out.push_back(sample(join_group, 1,
                       group + "00002710 000493e0" + hex_str("") + hex_str("consumer") +
                         "00000001" + range_v0));
  // kafka-python's first join.
  out.push_back(sample(join_group, 2,
                       group + "00002710 000493e0" + hex_str("") + hex_str("consumer") +
                         "00000002" + range_v0 + hex_str("roundrobin") +
                         hex_bytes(subscription_v0_test)));
  // A rejoin with the member id the broker handed out.
  out.push_back(sample(join_group, 3,
                       group + "00002710 000493e0" + hex_str("kafka-python-2.0.2-1") +
                         hex_str("consumer") + "00000001" + range_v0));
  // kafkajs names its assignor differently.
  out.push_back(sample(join_group, 4,
                       group + "00007530 0000ea60" + hex_str("kjs-1") + hex_str("consumer") +
                         "00000001" + hex_str("RoundRobinAssigner") +
                         hex_bytes(subscription_v0_test)));
  // librdkafka: no group.instance.id (null), both of its assignors.
  out.push_back(sample(join_group, 5,
                       group + "0000afc8 000493e0" + hex_str("") + "ffff" + hex_str("consumer") +
                         "00000002" + range_v1 + roundrobin_v1));
}

void add_sync_group(std::vector<wire_sample>& out) {
  auto leader = hex_str("rdkafka-1");
  // The leader hands out the assignments.
  out.push_back(sample(sync_group, 0,
                       group + "00000001" + leader + "00000001" + leader +
                         hex_bytes(assignment_v0_test)));
  // Followers send none.
  out.push_back(sample(sync_group, 1, group + "00000001" + hex_str("kafka-python-2.0.2-2") +
                                        "00000000"));
  out.push_back(sample(sync_group, 2, group + "00000002" + hex_str("kjs-2") + "00000000"));
  out.push_back(sample(sync_group, 3,
                       group + "00000003" + leader + hex_str("static-1") + "00000001" + leader +
                         hex_bytes(assignment_v0_test)));
}

void add_heartbeat(std::vector<wire_sample>& out) {
  out.push_back(sample(heartbeat, 0, group + "00000001" + hex_str("member-1")));
  out.push_back(sample(heartbeat, 1, group + "00000001" + hex_str("kafka-python-2.0.2-1")));
  out.push_back(sample(heartbeat, 2, group + "00000002" + hex_str("member-1")));
  out.push_back(sample(heartbeat, 3, group + "00000003" + hex_str("rdkafka-1") + "ffff"));
}

void add_leave_group(std::vector<wire_sample>& out) {
  out.push_back(sample(leave_group, 0, group + hex_str("member-1")));
  out.push_back(sample(leave_group, 1, group + hex_str("rdkafka-1")));
}

void add_offset_commit(std::vector<wire_sample>& out) {
  // v2-v4: retention_time_ms; -1 = broker default.
  auto member = hex_str("kafka-python-2.0.2-1");
  auto partition_42 = "00000000 000000000000002a" + hex_str("");
  out.push_back(sample(offset_commit, 2,
                       group + "00000001" + member + "ffffffffffffffff" + "00000001" +
                         hex_str("test") + "00000001" + partition_42));
  out.push_back(sample(offset_commit, 3,
                       group + "00000001" + member + "ffffffffffffffff" + "00000001" +
                         hex_str("test") + "00000002" + partition_42 +
                         "00000001 0000000000000007 ffff")); // null metadata
  // A commit from outside any group: generation -1, empty member id.
  out.push_back(sample(offset_commit, 4,
                       group + "ffffffff" + hex_str("") + "000000000036ee80" + "00000001" +
                         hex_str("test") + "00000001" + partition_42));
  // v5: no retention. kafkajs commits -1 after OFFSET_OUT_OF_RANGE.
  out.push_back(sample(offset_commit, 5,
                       group + "00000002" + hex_str("kjs-1") + "00000001" + hex_str("test") +
                         "00000001" + "00000000 ffffffffffffffff ffff"));
  // v6: leader epoch per partition.
  out.push_back(sample(offset_commit, 6,
                       group + "00000002" + hex_str("member-1") + "00000002" + hex_str("a") +
                         "00000001 00000000 0000000000000010 00000005" + hex_str("meta") +
                         hex_str("b") + "00000000"));
  // v7: librdkafka, group_instance_id null, epoch unknown (-1).
  out.push_back(sample(offset_commit, 7,
                       group + "00000003" + hex_str("rdkafka-1") + "ffff" + "00000001" +
                         hex_str("test") + "00000002" +
                         "00000000 0000000000000064 ffffffff" + hex_str("") +
                         "00000001 00000000000000c8 ffffffff" + hex_str("")));
  // v8 flexible: the Java consumer 3.x, group_instance_id null, metadata "", epoch 0;
  // tags after the partition, the topic and the body.
  out.push_back(sample(offset_commit, 8,
                       compact_group + "00000001" + hex_cstr("consumer-my-group-1") + "00" +
                         "02" + hex_cstr("test") + "02" +
                         "00000000 000000000000002a 00000000" + hex_cstr("") + "00" + "00" +
                         "00"));
}

void add_offset_fetch(std::vector<wire_sample>& out) {
  auto test_0_1 = hex_str("test") + "00000002 00000000 00000001";
  out.push_back(sample(offset_fetch, 1, group + "00000001" + test_0_1)); // kafka-python
  out.push_back(sample(offset_fetch, 2, group + "ffffffff"));           // all topics
  out.push_back(sample(offset_fetch, 3,
                       group + "00000002" + test_0_1 + hex_str("other") + "00000000"));
  out.push_back(sample(offset_fetch, 4, group + "00000001" + test_0_1)); // kafkajs
  out.push_back(sample(offset_fetch, 5, group + "00000001" + test_0_1)); // librdkafka
  // v6 flexible: compact group "g" (as `group` is), all topics (null = 0), tags.
  out.push_back(sample(offset_fetch, 6, "02 67 00 00"));
  // v7: librdkafka 2.0.2 (require_stable): topic "test" partitions 0 and 1.
  out.push_back(sample(offset_fetch, 7, "02 67 02 05 74657374 03 00000000 00000001 00 01 00"));
}

void add_list_groups(std::vector<wire_sample>& out) {
  // No fields before v3 (flexible: a tag buffer); kafka-python's admin sends v1/v2.
  for (int16_t v = 0; v <= 2; ++v)
    out.push_back(sample(list_groups, v, ""));
  out.push_back(sample(list_groups, 3, "00"));
  out.push_back(sample(list_groups, 4, "02 07 537461626c65 00")); // only "Stable" groups
}

void add_describe_groups(std::vector<wire_sample>& out) {
  // kafka-python's admin describes one group per request.
  out.push_back(sample(describe_groups, 0, "00000001" + group));
  out.push_back(sample(describe_groups, 1, "00000002" + group + hex_str("other")));
  out.push_back(sample(describe_groups, 2, "00000001" + group));
  // v3+: include_authorized_operations (kafka-python sends false).
  out.push_back(sample(describe_groups, 3, "00000001" + group + "00"));
  out.push_back(sample(describe_groups, 4, "00000002" + group + hex_str("") + "01"));
  // v5 flexible: the Java admin client 3.x (describeConsumerGroups), then the tags.
  out.push_back(sample(describe_groups, 5, "02" + compact_group + "00" + "00"));
}

void add_delete_groups(std::vector<wire_sample>& out) {
  out.push_back(sample(delete_groups, 0, "00000001" + group));              // librdkafka, kafka-python
  out.push_back(sample(delete_groups, 1, "00000002" + group + hex_str("other"))); // kafkajs
  out.push_back(sample(delete_groups, 2, "02 02 67 00"));                   // flexible: compact "g", tags
}

void add_offset_delete(std::vector<wire_sample>& out) {
  // librdkafka 2.0.2's DeleteConsumerGroupOffsets: topic "test" partitions 0 and 1.
  out.push_back(sample(offset_delete, 0, group + "00000001" + hex_str("test") + "00000002 00000000 00000001"));
}

} // namespace

std::vector<wire_sample> group_request_samples() {
  std::vector<wire_sample> out;
  add_find_coordinator(out);
  add_join_group(out);
  add_sync_group(out);
  add_heartbeat(out);
  add_leave_group(out);
  add_offset_commit(out);
  add_offset_fetch(out);
  add_list_groups(out);
  add_describe_groups(out);
  add_delete_groups(out);
  add_offset_delete(out);
  return out;
}

} // namespace cafka::wire::test
