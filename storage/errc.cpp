#include "storage/errc.hpp"

#include <cerrno>
#include <string>

namespace cafka::storage {
namespace {

struct category : std::error_category {
  const char* name() const noexcept override { return "cafka.storage"; }
  std::string message(int ev) const override {
    switch (static_cast<errc>(ev)) {
      case errc::offset_out_of_range: return "offset out of range";
      case errc::batch_too_large: return "batch larger than message.max.bytes";
      case errc::log_dir_locked: return "log directory is in use by another process";
      case errc::corrupt_index: return "corrupt index file";
      case errc::corrupt_checkpoint: return "corrupt checkpoint file";
      case errc::bad_segment_name: return "not a segment file name";
      case errc::empty_append: return "nothing to append";
      case errc::corrupt_batch: return "stored batch is damaged (CRC mismatch)";
      case errc::non_contiguous_offsets: return "batch offsets do not continue the log end";
      case errc::log_dir_offline: return "the log directory is offline after a failed write";
      case errc::out_of_order_sequence: return "the batch's sequence does not follow the producer's last one";
      case errc::invalid_producer_epoch: return "the producer's epoch is older than the partition's";
      case errc::invalid_txn_state: return "a non-transactional batch while the producer's transaction is open";
      case errc::coordinator_fenced: return "a transaction marker from an older coordinator epoch";
      case errc::invalid_timestamp: return "a record timestamp outside the topic's message.timestamp.before/after.max.ms";
    }
    return "unknown storage error";
  }
};

} // namespace

const std::error_category& storage_category() noexcept {
  static const category instance;
  return instance;
}

std::error_code last_system_error() noexcept {
  return {errno, std::system_category()};
}

} // namespace cafka::storage
