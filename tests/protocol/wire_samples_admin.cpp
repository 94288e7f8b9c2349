// Valid request bodies for ApiVersions v0-3, Metadata v0-6, CreateTopics v0-4, DeleteTopics
// v0-3, InitProducerId v0-1 and Describe/AlterClientQuotas v0-1, one per version, written field by field with byte_writer (the
// codec tests check the same layouts against hand-written hex).
#include <initializer_list>
#include <string>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/client_quotas.hpp"
#include "protocol/wire/configs.hpp"
#include "protocol/wire/describe_cluster.hpp"
#include "protocol/wire/elect_leaders.hpp"
#include "protocol/wire/partition_reassignments.hpp"
#include "protocol/wire/primitives.hpp"
#include "test_support.hpp"
#include "wire_samples.hpp"

namespace cafka::wire::test {

namespace {

int16_t key(api_key k) { return static_cast<int16_t>(k); }

void write_strings(byte_writer& w, std::initializer_list<const char*> names) {
  w.write_i32(static_cast<int32_t>(names.size()));
  for (auto name : names)
    w.write_string(name);
}

// v0-v2 have no body; v3 names the client like librdkafka 2.0.2 (flexible: compact
// strings and an empty tag buffer).
std::vector<char> api_versions_body(int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  if (version >= 3) {
    write_compact_string(w, "librdkafka");
    write_compact_string(w, "2.0.2");
    write_empty_tagged_fields(w);
  }
  return out;
}

std::vector<char> metadata_body(int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  if (version == 0)
    write_strings(w, {"orders", "payments"});
  else
    write_strings(w, {"orders", "payments", "audit-log"});
  if (version >= 4)
    w.write_i8(version == 4 ? 0 : 1); // allow_auto_topic_creation, both values seen
  return out;
}

// Two topics: one with explicit counts and configs (one with a null value), one with
// broker defaults (-1) and a manual replica assignment.
std::vector<char> create_topics_body(int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  w.write_i32(2);
  w.write_string("orders");
  w.write_i32(3);
  w.write_i16(1);
  w.write_i32(0); // assignments
  w.write_i32(2); // configs
  w.write_string("cleanup.policy");
  w.write_nullable_string(bytes_view{"compact"});
  w.write_string("retention.ms");
  w.write_nullable_string(std::nullopt);
  w.write_string("payments");
  w.write_i32(-1);
  w.write_i16(-1);
  w.write_i32(2); // assignments
  w.write_i32(0);
  write_int32_array(w, {1});
  w.write_i32(1);
  write_int32_array(w, {1, 2});
  w.write_i32(0); // configs
  w.write_i32(30000);
  if (version >= 1)
    w.write_i8(version % 2); // validate_only, both values seen
  return out;
}

std::vector<char> delete_topics_body(int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  write_strings(w, {"orders", "payments"});
  w.write_i32(5000 + version);
  return out;
}

// v0: a transactional producer; v1: an idempotent-only one (null id, librdkafka's -1); v2+
// flexible, v3+ with the current id and epoch (KIP-360: an epoch bump of producer 7).
std::vector<char> init_producer_id_body(int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  bool flexible = version >= 2;
  if (version == 0)
    write_nullable_string(w, std::string("txn-orders"), flexible);
  else
    write_nullable_string(w, std::nullopt, flexible);
  w.write_i32(version == 0 ? 60000 : -1);
  if (version >= 3) {
    w.write_i64(7);
    w.write_i16(2);
  }
  end_struct(w, flexible);
  return out;
}

// What cafka-configs sends: describe one client-id exactly and every user; set one quota of
// a user's default client and remove another.
std::vector<char> describe_client_quotas_body(int16_t version) {
  describe_client_quotas_request req{{{"client-id", 0, std::string("app")}, {"user", 2, std::nullopt}}, true};
  std::vector<char> out;
  byte_writer w{out};
  encode_describe_client_quotas_request(req, version, w);
  return out;
}

std::vector<char> alter_client_quotas_body(int16_t version) {
  alter_client_quotas_request req;
  req.entries.push_back({{{"user", std::string("alice")}, {"client-id", std::nullopt}},
                         {{"producer_byte_rate", 1048576.0, false}, {"request_percentage", 0.0, true}}});
  std::vector<char> out;
  byte_writer w{out};
  encode_alter_client_quotas_request(req, version, w);
  return out;
}

// What cafka-leader-election sends for one partition (preferred before v1, unclean after).
std::vector<char> elect_leaders_body(int16_t version) {
  elect_leaders_request req;
  req.election_type = version >= 1 ? 1 : 0;
  req.topic_partitions = std::vector<election_topic>{{"orders", {0, 2}}};
  req.timeout_ms = 30000;
  std::vector<char> out;
  byte_writer w{out};
  encode_elect_leaders_request(req, version, w);
  return out;
}

// CreatePartitions as kafka-python sends it (v1 here; v2+ flexible): "orders" to 6 partitions,
// the three new ones assigned, then "logs" to 4 placed by the broker; not validate-only.
std::vector<char> create_partitions_body(int16_t version) {
  bool flexible = version >= 2;
  std::vector<char> out;
  byte_writer w{out};
  write_array_count(w, 2, flexible);
  write_string(w, "orders", flexible);
  w.write_i32(6);
  write_array_count(w, 3, flexible);
  for (int32_t p = 0; p < 3; ++p) {
    write_array_count(w, 2, flexible);
    w.write_i32(1 + p % 3);
    w.write_i32(1 + (p + 1) % 3);
    end_struct(w, flexible);
  }
  end_struct(w, flexible);
  write_string(w, "logs", flexible);
  w.write_i32(4);
  write_array_count(w, -1, flexible);
  end_struct(w, flexible);
  w.write_i32(30000);
  w.write_i8(0);
  end_struct(w, flexible);
  return out;
}

// DescribeConfigs of a topic (every key) and of broker 1 (two keys), as kafka-python asks.
std::vector<char> describe_configs_body(int16_t version) {
  describe_configs_request req;
  req.resources.push_back({2, "orders", std::nullopt});
  req.resources.push_back({4, "1", std::vector<std::string>{"leader.replication.throttled.rate", "log.dirs"}});
  req.include_synonyms = true;
  std::vector<char> out;
  byte_writer w{out};
  encode_describe_configs_request(req, version, w);
  return out;
}

// AlterConfigs / IncrementalAlterConfigs as cafka-configs and cafka-reassign-partitions
// --throttle send them: a topic's retention, the throttled replicas, a broker rate.
std::vector<char> alter_configs_body(bool incremental, int16_t version) {
  alter_configs_request req;
  req.incremental = incremental;
  req.resources.push_back({2, "orders", {{"retention.ms", 0, std::string("3600000")},
                                         {"leader.replication.throttled.replicas", 2, std::string("0:1,1:2")}}});
  req.resources.push_back({4, "1", {{"follower.replication.throttled.rate", 0, std::string("1048576")},
                                    {"leader.replication.throttled.rate", 1, std::nullopt}}});
  std::vector<char> out;
  byte_writer w{out};
  encode_alter_configs_request(req, version, w);
  return out;
}

// What cafka-reassign-partitions sends: a move of two partitions and a cancel; the list of all.
std::vector<char> alter_partition_reassignments_body() {
  alter_partition_reassignments_request req;
  req.topics.push_back({"orders", {{0, std::vector<int32_t>{2, 3}}, {1, std::nullopt}}});
  std::vector<char> out;
  byte_writer w{out};
  encode_alter_partition_reassignments_request(req, w);
  return out;
}

std::vector<char> list_partition_reassignments_body() {
  list_partition_reassignments_request req;
  req.topics = std::vector<listed_topic>{{"orders", {0, 1}}};
  std::vector<char> out;
  byte_writer w{out};
  encode_list_partition_reassignments_request(req, w);
  return out;
}

} // namespace

std::vector<wire_sample> admin_request_samples() {
  std::vector<wire_sample> out;
  for (int16_t v = 0; v <= 3; ++v)
    out.push_back({key(api_key::api_versions), v, api_versions_body(v)});
  for (int16_t v = 0; v <= 6; ++v)
    out.push_back({key(api_key::metadata), v, metadata_body(v)});
  for (int16_t v = 0; v <= 4; ++v)
    out.push_back({key(api_key::create_topics), v, create_topics_body(v)});
  for (int16_t v = 0; v <= 3; ++v)
    out.push_back({key(api_key::delete_topics), v, delete_topics_body(v)});
  for (int16_t v = 0; v <= 4; ++v)
    out.push_back({key(api_key::init_producer_id), v, init_producer_id_body(v)});
  for (int16_t v = 0; v <= 1; ++v) {
    out.push_back({key(api_key::describe_client_quotas), v, describe_client_quotas_body(v)});
    out.push_back({key(api_key::alter_client_quotas), v, alter_client_quotas_body(v)});
  }
  for (int16_t v = 0; v <= 2; ++v)
    out.push_back({key(api_key::elect_leaders), v, elect_leaders_body(v)});
  for (int16_t v = 0; v <= 3; ++v)
    out.push_back({key(api_key::create_partitions), v, create_partitions_body(v)});
  for (int16_t v = 0; v <= 2; ++v)
    out.push_back({key(api_key::describe_configs), v, describe_configs_body(v)});
  for (int16_t v = 0; v <= 1; ++v) {
    out.push_back({key(api_key::alter_configs), v, alter_configs_body(false, v)});
    out.push_back({key(api_key::incremental_alter_configs), v, alter_configs_body(true, v)});
  }
  // DescribeLogDirs: every partition (null), then partitions 0 and 1 of "orders".
  out.push_back({key(api_key::describe_log_dirs), 0, {'\xff', '\xff', '\xff', '\xff'}});
  out.push_back({key(api_key::describe_log_dirs), 1,
                 {0, 0, 0, 1, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 1}});
  // DeleteRecords: partition 0 of "orders" up to offset 3; 1 s.
  for (int16_t v = 0; v <= 1; ++v)
    out.push_back({key(api_key::delete_records), v,
                   {0, 0, 0, 1, 0, 6, 'o', 'r', 'd', 'e', 'r', 's', 0, 0, 0, 1, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0x03, '\xe8'}});
  out.push_back({key(api_key::delete_records), 2,
                 {2, 7, 'o', 'r', 'd', 'e', 'r', 's', 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0,
                  0, 0, 0x03, '\xe8', 0}});
  out.push_back({key(api_key::describe_cluster), 0, {0, 0}});       // not asking for operations
  out.push_back({key(api_key::describe_cluster), 1, {0, 1, 0}});    // v1: brokers endpoints
  // DescribeProducers v0: topic "t", partitions 0 and 1 (compact, tagged fields).
  out.push_back({key(api_key::describe_producers), 0, {2, 2, 't', 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0}});
  // The transactional producer's requests: id "tx", producer 7 epoch 1 (v0-2 alike, v3 flexible).
  using protocol::test::from_hex;
  for (int16_t v = 0; v <= 3; ++v) {
    auto flexible = v == 3;
    // AddPartitionsToTxn: topic "t", partitions 0 and 2.
    out.push_back({key(api_key::add_partitions_to_txn), v,
                   from_hex(flexible ? "03 7478 0000000000000007 0001 02 02 74 03 00000000 00000002 00 00"
                                     : "0002 7478 0000000000000007 0001 00000001 0001 74 00000002 00000000 00000002")});
    // AddOffsetsToTxn: group "g".
    out.push_back({key(api_key::add_offsets_to_txn), v,
                   from_hex(flexible ? "03 7478 0000000000000007 0001 02 67 00" : "0002 7478 0000000000000007 0001 0001 67")});
    // EndTxn: commit.
    out.push_back({key(api_key::end_txn), v,
                   from_hex(flexible ? "03 7478 0000000000000007 0001 01 00" : "0002 7478 0000000000000007 0001 01")});
  }
  // TxnOffsetCommit: group "g", "t" partition 0 at offset 42 (v2: leader epoch 3), metadata null.
  for (int16_t v = 0; v <= 1; ++v)
    out.push_back({key(api_key::txn_offset_commit), v,
                   from_hex("0002 7478 0001 67 0000000000000007 0001 00000001 0001 74 00000001 00000000 000000000000002a ffff")});
  out.push_back({key(api_key::txn_offset_commit), 2,
                 from_hex("0002 7478 0001 67 0000000000000007 0001 00000001 0001 74 00000001 00000000 000000000000002a 00000003 ffff")});
  // DescribeTransactions: ids "a" and "tx"; ListTransactions: state Ongoing, producer 7 (v1: 1 s open).
  out.push_back({key(api_key::describe_transactions), 0, from_hex("03 02 61 03 7478 00")});
  out.push_back({key(api_key::list_transactions), 0, from_hex("02 08 4f6e676f696e67 02 0000000000000007 00")});
  out.push_back({key(api_key::list_transactions), 1, from_hex("02 08 4f6e676f696e67 02 0000000000000007 00000000000003e8 00")});
  out.push_back({key(api_key::alter_partition_reassignments), 0, alter_partition_reassignments_body()});
  out.push_back({key(api_key::list_partition_reassignments), 0, list_partition_reassignments_body()});
  return out;
}

} // namespace cafka::wire::test
