#pragma once
// The messages a subscription sends to its consumer actor, the start positions, and the
// decoding of delivered batches into records.
//
//   consumer_records  one fetch result (raw v2 batches) for one partition, sent as a
//                     REQUEST: the next fetch starts when the consumer's handler
//                     has returned (or its response promise was delivered).
//   consumer_error    a final error of the subscription (see subscription.hpp), sent
//                     as an ordinary message.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <caf/error.hpp>
#include <caf/expected.hpp>
#include <caf/meta/type_name.hpp>

#include "actors/messages.hpp"
#include "protocol/record.hpp"

namespace cafka::client {

/// Where a subscription starts reading (or where seek moves it).
struct start_position {
  enum class kind : uint8_t {
    earliest,  ///< the log start offset
    latest,    ///< the log end offset: only records produced from now on
    offset,    ///< `value` itself
    timestamp, ///< the first record with timestamp >= `value` (ms); the log end if none
  };
  kind what = kind::latest;
  int64_t value = -1;

  static start_position earliest() { return {kind::earliest, -1}; }
  static start_position latest() { return {kind::latest, -1}; }
  static start_position at_offset(int64_t offset) { return {kind::offset, offset}; }
  static start_position at_timestamp(int64_t ms) { return {kind::timestamp, ms}; }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, start_position& x) {
  return f(caf::meta::type_name("start_position"), x.what, x.value);
}

/// "earliest", "latest", "offset 42", "timestamp 1700000000000".
std::string to_string(const start_position& x);

/// One fetch result for one partition.
struct consumer_records {
  topic_partition tp;
  int64_t fetch_offset = 0;   ///< the offset fetched; records() skips records below it
  int64_t next_offset = 0;    ///< where the next fetch starts (after the last batch)
  int64_t high_watermark = 0; ///< the partition's log end when the fetch was answered
  std::vector<char> batches;  ///< whole v2 record batches, back to back, any codec
  /// read_committed: the aborted transactions the batches overlap (the broker's list);
  /// records() and for_each_record() skip their records.
  std::vector<storage::aborted_range> aborted;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, consumer_records& x) {
  return f(caf::meta::type_name("consumer_records"), x.tp, x.fetch_offset, x.next_offset,
           x.high_watermark, x.batches, x.aborted);
}

/// A final error of a subscription: after it the subscription has stopped (exit reason
/// `error`), except for offset_out_of_range without auto_offset_reset, after which it
/// waits for a seek. `offset` is the position it failed at (-1 if none yet).
struct consumer_error {
  topic_partition tp;
  caf::error error;
  int64_t offset = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, consumer_error& x) {
  return f(caf::meta::type_name("consumer_error"), x.tp, x.error, x.offset);
}

/// Decompressed batches larger than this are rejected by records().
constexpr size_t default_max_uncompressed = 64u << 20;

/// The records of `recs` at or after recs.fetch_offset, in offset order; control batches
/// (transaction markers) and the batches of aborted transactions (recs.aborted) are skipped. Errors (category "cafka"): corrupt_message for a
/// batch that fails validation (CRC, lengths) or cannot be decompressed.
caf::expected<std::vector<protocol::decoded_record>>
decode_records(const consumer_records& recs, size_t max_uncompressed = default_max_uncompressed);

/// The same, throwing std::runtime_error (with the error's description) on corrupt data.
std::vector<protocol::decoded_record> records(const consumer_records& recs);

/// The same records without copying them: `visit` sees each as a protocol::record_view
/// whose views point into `recs.batches` (or a decompressed copy) and are valid only
/// during the call. Returns the error decode_records() would return (records before the
/// corrupt batch have been visited then). The fastest way to read a fetch result.
caf::error for_each_record(const consumer_records& recs,
                           const std::function<void(const protocol::record_view&)>& visit,
                           size_t max_uncompressed = default_max_uncompressed);

/// Walks the batch headers of a fetch result: the offset after the last complete batch
/// (the next fetch offset), or nothing if `batches` holds no complete batch (or a header
/// is malformed). Bytes of an incomplete trailing batch are ignored.
std::optional<int64_t> next_fetch_offset(const std::vector<char>& batches);

/// The number of bytes of `batches` that are complete batches (see next_fetch_offset).
size_t complete_batches_size(const std::vector<char>& batches);

} // namespace cafka::client
