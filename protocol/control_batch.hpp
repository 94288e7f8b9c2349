#pragma once
// Transaction markers: the control batches a transaction coordinator has written to every
// partition of a transaction when it ends (Kafka's EndTransactionMarker,
// MemoryRecords.withEndTransactionMarker). A marker batch has the transactional and control
// attribute bits (0x30, codec none), the producer's id and epoch, base_sequence -1, and one
// record:
//
//   key    version:i16 (= 0) type:i16 (0 ABORT, 1 COMMIT)
//   value  version:i16 (= 0) coordinator_epoch:i32
//
// Consumers skip control batches; read_committed ones drop an aborted transaction's records
// up to its ABORT marker.

#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"

namespace cafka::protocol {

/// Kafka's ControlRecordType values a transaction writes.
enum class control_type : int16_t { abort = 0, commit = 1 };

struct txn_marker {
  control_type type = control_type::abort;
  int32_t coordinator_epoch = 0;
  bool commits() const noexcept { return type == control_type::commit; }
  friend bool operator==(const txn_marker& a, const txn_marker& b) {
    return a.type == b.type && a.coordinator_epoch == b.coordinator_epoch;
  }
};

/// The marker batch (base offset 0: the log assigns it), timestamp `now_ms`.
std::vector<char> build_txn_marker_batch(int64_t producer_id, int16_t producer_epoch, txn_marker marker,
                                         int64_t now_ms);

/// The marker in the control batch at the start of `batch` (validated with its CRC). Nothing
/// for a control record of another type or key version (Kafka's ControlRecordType.UNKNOWN,
/// which readers ignore). Errors: those of for_each_record; bad_record for a batch that is not
/// a control batch, has other than one record, or a key or value too short.
result<std::optional<txn_marker>> read_txn_marker(bytes_view batch);

} // namespace cafka::protocol
