#pragma once
// Errors of the storage layer, as std::error_code. System call failures are reported
// with std::system_category and the errno value instead.

#include <system_error>

namespace cafka::storage {

enum class errc {
  offset_out_of_range = 1, ///< below the log start offset or above the log end offset
  batch_too_large,         ///< a batch above max_message_bytes (message.max.bytes)
  log_dir_locked,          ///< another process holds the lock file of this log.dirs entry
  corrupt_index,           ///< an index file fails its sanity check (it gets rebuilt)
  corrupt_checkpoint,      ///< a checkpoint file that cannot be parsed
  bad_segment_name,        ///< a file name that is not a 20-digit offset plus suffix
  empty_append,            ///< append() called without a batch
  corrupt_batch,           ///< a stored batch fails its CRC check (damaged on disk)
  non_contiguous_offsets,  ///< append_replicated() batches that do not continue the log end densely
  log_dir_offline,         ///< the log's directory went offline after a failed write (log_dir_health.hpp)
  invalid_timestamp,       ///< a CreateTime batch outside message.timestamp.before/after.max.ms
  out_of_order_sequence,   ///< an idempotent producer's batch that does not follow its last sequence
  invalid_producer_epoch,  ///< an idempotent producer's batch from an epoch older than the partition's
  invalid_txn_state,       ///< a non-transactional batch of a producer whose transaction is open
  coordinator_fenced,      ///< a transaction marker from an older coordinator epoch than the last one
};

const std::error_category& storage_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), storage_category()};
}

/// The error_code of the current errno (after a failed system call).
std::error_code last_system_error() noexcept;

} // namespace cafka::storage

template <>
struct std::is_error_code_enum<cafka::storage::errc> : std::true_type {};
