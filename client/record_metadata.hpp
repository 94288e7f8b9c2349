#pragma once
// What a producer is handed (producer_record) and what it answers (record_metadata).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/expected.hpp>
#include <caf/meta/type_name.hpp>

#include "protocol/record.hpp"

namespace cafka::client {

/// One record to produce. Key and value may be null (std::nullopt), which is different
/// from empty. Without a partition the partitioner picks one (murmur2 of the key, or
/// sticky for null keys); without a timestamp the producer stamps the wall clock.
struct producer_record {
  std::string topic;
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<protocol::record_header> headers;
  std::optional<int64_t> timestamp; ///< CreateTime, ms since the epoch
  std::optional<int32_t> partition;
};

/// Where an acknowledged record went. offset is -1 with acks=0 (nobody waits for the
/// broker's answer); timestamp is the record's CreateTime, or the broker's append time
/// for topics with LogAppendTime.
struct record_metadata {
  std::string topic;
  int32_t partition = -1;
  int64_t offset = -1;
  int64_t timestamp = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, record_metadata& x) {
  return f(caf::meta::type_name("record_metadata"), x.topic, x.partition, x.offset, x.timestamp);
}

/// Called exactly once per record with its metadata or its typed error. Runs on the
/// producer actor's thread (a CAF scheduler thread): keep it short and never call a
/// blocking producer function (send_sync, flush, close, or send on a full buffer) from
/// it.
using send_callback = std::function<void(caf::expected<record_metadata>)>;

/// The callback of a bulk send (producer::send(std::vector<producer_record>, ...)): called
/// exactly once per record with the record's index in the vector and its metadata or
/// typed error; records of different partitions may complete in any order. Runs where a
/// send_callback runs. `result` is only valid during the call (one object is reused for
/// the records of a batch, which is what makes a bulk send cheap): copy what you keep.
using bulk_callback = std::function<void(size_t index, const caf::expected<record_metadata>& result)>;

} // namespace cafka::client

// These only ever travel to the local producer actor (std::optional and std::function
// have no CAF serialization in 0.17), so they are allowed as unsafe message types.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::client::producer_record)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::client::send_callback)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(std::vector<cafka::client::producer_record>)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::client::bulk_callback)
