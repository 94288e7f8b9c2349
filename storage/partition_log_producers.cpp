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

// Nothing for an append; a duplicate's answer; or the refusal. Kafka takes exactly one batch
// per partition in a Produce request (v3+), so an idempotent batch must come alone.
result<std::optional<append_info>> partition_log::check_producer(const protocol::batch_header& h,
                                                                 bool only_batch) const {
  if (h.producer_id < 0 || (h.attributes & protocol::batch_attributes::control))
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

// The newest readable snapshot at or below the log end, then the headers of every batch after
// it; without one, every batch from the log start. Snapshots beyond the log end (a truncation
// or a lost tail after them) and damaged ones are removed.
status partition_log::load_producers(std::vector<int64_t> snapshot_offsets, int64_t now_ms) {
  std::sort(snapshot_offsets.begin(), snapshot_offsets.end());
  producers_ = producer_state{};
  int64_t replay_from = segments_.front()->base_offset();
  std::vector<std::string> stale;
  while (!snapshot_offsets.empty()) {
    auto at = snapshot_offsets.back();
    auto path = segment_file_path(dir_, at, segment_file::snapshot);
    if (at <= log_end_offset() && at >= segments_.front()->base_offset()) {
      auto text = read_whole_file(path);
      if (!text)
        return text.error();
      if (auto loaded = decode_producer_snapshot(*text)) {
        producers_ = std::move(*loaded);
        replay_from = at;
        break;
      }
    }
    stale.push_back(path);
    snapshot_offsets.pop_back();
  }
  if (auto st = delete_files(stale); !st)
    return st;
  snapshots_ = std::move(snapshot_offsets);
  for (size_t i = segment_index_for(replay_from); i < segments_.size(); ++i) {
    auto from = std::max(replay_from, segments_[i]->base_offset());
    if (auto st = segments_[i]->visit_headers(from, [this](const protocol::batch_header& h) { producers_.record(h); });
        !st)
      return st;
  }
  producers_.expire(now_ms, cfg_.producer_id_expiration_ms);
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
