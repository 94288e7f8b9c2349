// Valid request bodies for Produce v0-v7, Fetch v4-v11, ListOffsets v1-v5 and
// OffsetForLeaderEpoch v0-v4, written with byte_writer in the field order of the layouts in
// protocol/wire/{produce,fetch,list_offsets,offset_for_leader_epoch}.hpp. What clients send:
// librdkafka's defaults (acks -1, read_committed, a sessionless fetch).
#include "wire_samples.hpp"

#include <string_view>

#include "protocol/byte_writer.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/primitives.hpp"
#include "test_support.hpp"

namespace cafka::wire::test {

namespace {

using protocol::byte_writer;
using protocol::test::from_hex;
using protocol::test::view;

// Two magic 1 messages {key "k", value "v", t=1000} and {key null, value "hello", t=1007}
// as kafka-python 2.0.2's LegacyRecordBatchBuilder writes them (the same bytes as in
// legacy_message_set_test.cpp, whose CRCs that test checks).
constexpr std::string_view legacy_magic1_set =
    "0000000000000000 00000018 e4e321bc 01 00 00000000000003e8 00000001 6b 00000001 76"
    "0000000000000001 0000001b f1e00981 01 00 00000000000003ef ffffffff 00000005 68656c6c6f";

// A real v2 batch of two records, as a producer sends it (base_offset 0).
std::vector<char> small_batch() {
  protocol::record first;
  first.key = "k";
  first.value = "v1";
  first.timestamp = 1'700'000'000'000;
  protocol::record second;
  second.value = "hello";
  second.headers = {{"h", std::string{"x"}}};
  second.timestamp = 1'700'000'000'005;
  return protocol::build_batch({first, second});
}

wire_sample produce_sample(int16_t version) {
  auto records = version >= 3 ? small_batch() : from_hex(legacy_magic1_set);
  wire_sample s{static_cast<int16_t>(api_key::produce), version, {}};
  byte_writer w{s.body};
  if (version >= 3)
    w.write_i16(-1);  // transactional_id: null (not transactional)
  w.write_i16(-1);    // acks: all
  w.write_i32(30000); // timeout_ms
  w.write_i32(1);     // topic_data: one topic
  w.write_string("orders");
  w.write_i32(1);               // partition_data: one partition
  w.write_i32(0);               // index
  w.write_bytes(view(records)); // records
  return s;
}

wire_sample fetch_sample(int16_t version) {
  wire_sample s{static_cast<int16_t>(api_key::fetch), version, {}};
  byte_writer w{s.body};
  w.write_i32(-1);       // replica_id: a consumer
  w.write_i32(500);      // max_wait_ms
  w.write_i32(1);        // min_bytes
  w.write_i32(52428800); // max_bytes
  w.write_i8(1);         // isolation_level: read_committed
  if (version >= 7) {
    w.write_i32(0);  // session_id
    w.write_i32(-1); // session_epoch: a full fetch without a session
  }
  w.write_i32(1); // topics
  w.write_string("orders");
  w.write_i32(1); // partitions
  w.write_i32(0); // partition
  if (version >= 9)
    w.write_i32(-1); // current_leader_epoch: unchecked
  w.write_i64(42);   // fetch_offset
  if (version >= 5)
    w.write_i64(-1); // log_start_offset (consumers send -1)
  w.write_i32(1048576); // partition_max_bytes
  if (version >= 7)
    w.write_i32(0); // forgotten_topics_data: none
  if (version >= 11)
    w.write_string(""); // rack_id
  return s;
}

wire_sample list_offsets_sample(int16_t version) {
  wire_sample s{static_cast<int16_t>(api_key::list_offsets), version, {}};
  byte_writer w{s.body};
  w.write_i32(-1); // replica_id
  if (version >= 2)
    w.write_i8(1); // isolation_level
  w.write_i32(1);  // topics
  w.write_string("orders");
  w.write_i32(1);  // partitions
  w.write_i32(0);  // partition_index
  if (version >= 4)
    w.write_i32(-1); // current_leader_epoch: unchecked
  w.write_i64(-2); // timestamp: earliest
  return s;
}

// A follower's question (replica_id 1, v3+): where epoch 0 of orders-0 ends, knowing leader
// epoch 2 (v2+). v4 is flexible: compact array and string, a tag buffer per struct.
wire_sample offset_for_leader_epoch_sample(int16_t version) {
  wire_sample s{static_cast<int16_t>(api_key::offset_for_leader_epoch), version, {}};
  byte_writer w{s.body};
  bool flexible = version >= 4;
  if (version >= 3)
    w.write_i32(1); // replica_id
  write_array_count(w, 1, flexible); // topics
  write_string(w, "orders", flexible);
  write_array_count(w, 1, flexible); // partitions
  w.write_i32(0);                    // partition
  if (version >= 2)
    w.write_i32(2); // current_leader_epoch
  w.write_i32(0);   // leader_epoch
  if (flexible)
    for (int i = 0; i < 3; ++i) // the partition's, the topic's and the body's tags
      write_empty_tagged_fields(w);
  return s;
}

} // namespace

std::vector<wire_sample> data_request_samples() {
  std::vector<wire_sample> out;
  for (int16_t v = 0; v <= 7; ++v)
    out.push_back(produce_sample(v));
  for (int16_t v = 4; v <= 11; ++v)
    out.push_back(fetch_sample(v));
  for (int16_t v = 1; v <= 5; ++v)
    out.push_back(list_offsets_sample(v));
  for (int16_t v = 0; v <= 4; ++v)
    out.push_back(offset_for_leader_epoch_sample(v));
  return out;
}

} // namespace cafka::wire::test
