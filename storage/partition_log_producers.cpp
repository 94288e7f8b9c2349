// The partition log's idempotent-producer state (see partition_log.hpp): the leader's check
// of a batch, and the <offset>.snapshot files it is saved to at each roll and rebuilt from
// at open (Kafka's ProducerStateManager and UnifiedLog.rebuildProducerState).
#include <algorithm>

#include "protocol/errc.hpp"
#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

// A client's batch: nothing for an append; a duplicate's answer; or the refusal. Kafka takes
// exactly one batch per partition in a Produce request (v3+), so an idempotent batch must come
// alone; control batches are the coordinator's (LogValidator: "Clients are not allowed to
// write control records").
result<std::optional<append_info>> partition_log::check_producer(const protocol::batch_header& h,
                                                                 bool only_batch) const {
  if (h.is_control())
    return protocol::errc::bad_record;
  if (h.producer_id < 0)
    return std::optional<append_info>{};
  if (!only_batch)
    return protocol::errc::bad_record;
  auto verdict = producers_.check(h);
  switch (verdict.outcome) {
    case producer_check::append:
      return std::optional<append_info>{};
    case producer_check::out_of_order_sequence:
      return errc::out_of_order_sequence;
    case producer_check::invalid_producer_epoch:
      return errc::invalid_producer_epoch;
    case producer_check::invalid_txn_state:
      return errc::invalid_txn_state;
    case producer_check::coordinator_fenced: // markers only
      return errc::coordinator_fenced;
    case producer_check::duplicate:
      break;
  }
  append_info original;
  original.first_offset = verdict.original.first_offset;
  original.last_offset = verdict.original.last_offset;
  original.max_timestamp = verdict.original.timestamp;
  original.log_append_time = cfg_.log_append_time ? verdict.original.timestamp : -1;
  original.duplicate = true;
  return std::optional<append_info>{original};
}

// The newest readable snapshot at or below `trusted_end`, then the headers of every batch after
// it (and the one record of each marker); without one, every batch from the log start. The
// transaction index entries after the replay start are dropped first: the replay adds them
// again. Snapshots beyond the log end (a truncation or a lost tail after them) and damaged
// ones are removed; those between `trusted_end` and the log end are kept but not used. With
// `now_ms`, expired producers are dropped afterwards.
status partition_log::load_producers(std::vector<int64_t> snapshot_offsets, int64_t trusted_end,
                                     std::optional<int64_t> now_ms) {
  std::sort(snapshot_offsets.begin(), snapshot_offsets.end());
  producers_ = producer_state{};
  unreplicated_txns_.clear();
  int64_t replay_from = segments_.front()->base_offset();
  std::vector<std::string> stale;
  std::vector<int64_t> usable, unused;
  for (auto at : snapshot_offsets) {
    if (at > log_end_offset() || at < segments_.front()->base_offset())
      stale.push_back(segment_file_path(dir_, at, segment_file::snapshot));
    else
      (at > trusted_end ? unused : usable).push_back(at);
  }
  while (!usable.empty()) {
    auto path = segment_file_path(dir_, usable.back(), segment_file::snapshot);
    auto text = read_whole_file(path);
    if (!text)
      return text.error();
    if (auto loaded = decode_producer_snapshot(*text)) {
      producers_ = std::move(*loaded);
      replay_from = usable.back();
      break;
    }
    stale.push_back(path);
    usable.pop_back();
  }
  if (auto st = delete_files(stale); !st)
    return st;
  snapshots_ = std::move(usable);
  snapshots_.insert(snapshots_.end(), unused.begin(), unused.end());
  if (auto st = txn_index_.truncate_from(replay_from); !st)
    return st;
  for (size_t i = segment_index_for(replay_from); i < segments_.size(); ++i) {
    auto& seg = *segments_[i];
    status read_failed;
    auto visited = seg.visit_headers(std::max(replay_from, seg.base_offset()),
                                     [&](const protocol::batch_header& h, uint64_t position) {
                                       if (!h.is_control()) {
                                         producers_.record(h);
                                         return;
                                       }
                                       auto bytes = seg.read(position, h.total_size(), h.next_offset());
                                       if (!bytes) {
                                         read_failed = bytes.error();
                                         return;
                                       }
                                       note_batch(h, protocol::bytes_view(bytes->data(), bytes->size()),
                                                  seg.base_offset());
                                     });
    if (!visited)
      return visited;
    if (!read_failed)
      return read_failed;
  }
  if (now_ms)
    producers_.expire(*now_ms, cfg_.producer_id_expiration_ms);
  return {};
}

// The state at the log end, as <log end>.snapshot. `durable` (a clean close) fsyncs it;
// otherwise it is written like the epoch file: a lost or torn one is ignored at open, which
// then replays from an older one.
status partition_log::save_producer_snapshot(bool durable) {
  auto at = log_end_offset();
  auto path = segment_file_path(dir_, at, segment_file::snapshot);
  auto bytes = encode_producer_snapshot(producers_);
  if (auto st = durable ? write_file_atomically(path, bytes) : replace_file(path, bytes); !st)
    return st;
  if (snapshots_.empty() || snapshots_.back() < at)
    snapshots_.push_back(at);
  dir_dirty_ = true;
  return {};
}

// Kafka deletes a snapshot with the segments below it, and those beyond a truncation.
void partition_log::forget_snapshots_outside_log() {
  std::vector<std::string> gone;
  auto keep = std::remove_if(snapshots_.begin(), snapshots_.end(), [&](int64_t at) {
    bool outside = at < segments_.front()->base_offset() || at > log_end_offset();
    if (outside)
      gone.push_back(segment_file_path(dir_, at, segment_file::snapshot));
    return outside;
  });
  snapshots_.erase(keep, snapshots_.end());
  (void) delete_files(gone); // a file left over is removed at the next open
}

} // namespace cafka::storage
