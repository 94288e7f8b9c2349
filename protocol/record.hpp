#pragma once
// The records inside a v2 batch, as values (owning) and as views (borrowing).
//
// Kafka record keys, values and header values are byte strings that may be null
// (length -1), which is different from empty; std::optional keeps that distinction.
// Header keys are never null.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/batch_header.hpp" // bytes_view

namespace cafka::protocol {

struct record_header {
  std::string key;
  std::optional<std::string> value;

  friend bool operator==(const record_header& a, const record_header& b) {
    return a.key == b.key && a.value == b.value;
  }
};

/// A record to be written: offsets are assigned by position in the batch.
struct record {
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<record_header> headers;
  int64_t timestamp = 0; ///< milliseconds since the epoch (CreateTime)
};

/// A record read back from a batch, with absolute offset and timestamp.
struct decoded_record {
  int64_t offset = 0;    ///< base_offset + offset_delta
  int64_t timestamp = 0; ///< base_timestamp + timestamp_delta, or max_timestamp under LogAppendTime
  std::optional<std::string> key;
  std::optional<std::string> value;
  std::vector<record_header> headers;
};

struct record_header_view {
  bytes_view key;
  std::optional<bytes_view> value;
};

/// One record as views into the batch (or its decompressed records section); valid only
/// as long as those bytes, see for_each_record().
struct record_view {
  int64_t offset = 0;          ///< absolute: base_offset + offset_delta
  int64_t timestamp = 0;       ///< absolute, as in decoded_record
  int32_t offset_delta = 0;    ///< as stored
  int64_t timestamp_delta = 0; ///< as stored
  std::optional<bytes_view> key;
  std::optional<bytes_view> value;
  std::vector<record_header_view> headers;
};

} // namespace cafka::protocol
