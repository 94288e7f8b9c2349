#include "storage/partition_log.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "protocol/batch_header.hpp"
#include "protocol/batch_recompression.hpp"
#include "protocol/record_batch.hpp"
#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/leader_epoch_cache.hpp"
#include "storage/segment.hpp"
#include "storage/clean_swap.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

namespace fs = std::filesystem;

partition_log::partition_log(std::string dir, const log_config& cfg)
  : dir_(std::move(dir)), cfg_(cfg), txn_index_(dir_) {}

partition_log::~partition_log() = default;

result<std::unique_ptr<partition_log>> partition_log::open(std::string dir, const log_config& cfg,
                                                           int64_t recovery_point,
                                                           bool clean_shutdown, int64_t now_ms) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return ec;
  std::unique_ptr<partition_log> log{new partition_log(std::move(dir), cfg)};
  if (auto st = log->load(recovery_point, clean_shutdown, now_ms); !st)
    return st.error();
  return log;
}

status partition_log::load(int64_t recovery_point, bool clean_shutdown, int64_t now_ms) {
  struct found {
    int64_t base;
    uint64_t size;
    bool has_index = false;
    bool has_timeindex = false;
  };
  std::vector<found> logs;
  std::vector<int64_t> index_bases, timeindex_bases, snapshot_offsets, txnindex_bases;
  std::vector<std::string> leftovers;
  std::error_code ec;
  if (auto st = repair_interrupted_clean(dir_); !st)
    return st;
  if (auto st = load_cleaner_offset(); !st)
    return st;
  for (auto& entry : fs::directory_iterator(dir_, ec)) {
    auto name = entry.path().filename().string();
    if (auto base = parse_segment_file_name(name, segment_file::log)) {
      std::error_code size_ec;
      auto size = entry.file_size(size_ec);
      if (size_ec)
        return size_ec;
      logs.push_back({*base, size});
    } else if (auto b = parse_segment_file_name(name, segment_file::index)) {
      index_bases.push_back(*b);
    } else if (auto b = parse_segment_file_name(name, segment_file::timeindex)) {
      timeindex_bases.push_back(*b);
    } else if (auto b = parse_segment_file_name(name, segment_file::snapshot)) {
      snapshot_offsets.push_back(*b);
    } else if (auto b = parse_segment_file_name(name, segment_file::txnindex)) {
      txnindex_bases.push_back(*b);
    } else if ((name.size() > 8 && name.compare(name.size() - 8, 8, deleted_suffix) == 0)
               || name == std::string(leader_epoch_file_name) + ".tmp"
               || name == std::string(log_start_file_name) + ".tmp") {
      leftovers.push_back(entry.path().string()); // retention's or a small file's, from before a crash
    }
  }
  if (ec)
    return ec;
  std::sort(logs.begin(), logs.end(), [](auto& a, auto& b) { return a.base < b.base; });
  // A transaction index without its segment (a crash while retention deleted them) goes.
  for (auto base : txnindex_bases)
    if (std::none_of(logs.begin(), logs.end(), [&](auto& f) { return f.base == base; }))
      leftovers.push_back(segment_file_path(dir_, base, segment_file::txnindex));
  if (auto st = delete_files(leftovers); !st)
    return st;
  std::sort(index_bases.begin(), index_bases.end());
  std::sort(timeindex_bases.begin(), timeindex_bases.end());
  for (auto& f : logs) {
    f.has_index = std::binary_search(index_bases.begin(), index_bases.end(), f.base);
    f.has_timeindex = std::binary_search(timeindex_bases.begin(), timeindex_bases.end(), f.base);
  }
  report_.segments = logs.size();
  auto stored = read_leader_epoch_file(epoch_file_path());
  if (!stored && stored.error() != errc::corrupt_checkpoint)
    return stored.error();
  // A damaged file is dropped without a word: the scan rebuilds what it covers, just as
  // after a crash before the first fsync of a new file.
  if (stored)
    epochs_ = *stored;
  if (logs.empty()) {
    auto s = segment::create(dir_, 0, cfg_, now_ms);
    if (!s)
      return s.error();
    segments_.push_back(std::move(*s));
    recovery_point_ = 0;
    dir_dirty_ = true;
    if (auto st = load_start_offset(); !st) // clamps a stale one to the empty log
      return st;
    if (auto st = load_producers(std::move(snapshot_offsets), 0, now_ms); !st)
      return st;
    return finish_epochs(stored);
  }
  for (auto& f : logs)
    segments_.push_back(segment::existing(dir_, f.base, f.size, cfg_));

  // Segment i is trusted when all its offsets lie below the recovery point, which we
  // know when the next segment starts at or below it.
  size_t first_untrusted = segments_.size();
  if (!clean_shutdown) {
    first_untrusted = 0;
    while (first_untrusted + 1 < segments_.size()
           && segments_[first_untrusted + 1]->base_offset() <= recovery_point)
      ++first_untrusted;
  }
  for (size_t i = 0; i < first_untrusted; ++i) {
    if (!logs[i].has_index || !logs[i].has_timeindex) {
      auto r = segments_[i]->recover({}, gaps_allowed(segments_[i]->base_offset()));
      if (!r)
        return r.error();
      ++report_.rebuilt_indexes;
    }
  }
  // The scanned batches replace what the file says about them (Kafka's recovery assigns
  // them on top of the file instead, which keeps stale entries after a lost write).
  auto rebuild_epochs = [this](const protocol::batch_header& h) {
    epochs_.assign(h.leader_epoch, h.base_offset);
  };
  if (first_untrusted < segments_.size())
    epochs_.truncate_from_end(segments_[first_untrusted]->base_offset());
  for (size_t i = first_untrusted; i < segments_.size(); ++i) {
    auto r = segments_[i]->recover(rebuild_epochs, gaps_allowed(segments_[i]->base_offset()));
    if (!r)
      return r.error();
    ++report_.recovered_segments;
    report_.truncated_bytes += r->discarded_bytes;
    bool overlaps_next = i + 1 < segments_.size() && segments_[i + 1]->base_offset() < r->next_offset;
    if (r->discarded_bytes > 0 || overlaps_next) {
      // Damage in the middle: nothing after it can be trusted to follow on.
      if (auto st = delete_segments_after(i); !st)
        return st;
      break;
    }
  }
  auto& active = *segments_.back();
  if (!active.next_offset()) { // trusted after a clean shutdown
    if (!active.load_tail()) {
      epochs_.truncate_from_end(active.base_offset());
      auto r = active.recover(rebuild_epochs, gaps_allowed(active.base_offset()));
      if (!r)
        return r.error();
      ++report_.recovered_segments;
      report_.truncated_bytes += r->discarded_bytes;
    }
  }
  if (auto st = load_start_offset(); !st)
    return st;
  if (auto st = txn_index_.load(segment_base_offsets(), INT64_MAX); !st)
    return st;
  // After a crash, a snapshot above the recovery point may describe batches a power loss
  // took (and the transaction index entries after it may be gone): replay from below it.
  auto trusted_end = clean_shutdown ? log_end_offset() : std::min(recovery_point, log_end_offset());
  if (auto st = load_producers(std::move(snapshot_offsets), trusted_end, now_ms); !st)
    return st;
  recovery_point_ = std::clamp(clean_shutdown ? log_end_offset() : recovery_point,
                               log_start_offset(), log_end_offset());
  if (auto st = finish_epochs(stored); !st)
    return st;
  // After an unclean shutdown what recovery kept is in the files, but maybe only in the page
  // cache: the previous owner's fsyncs after its last checkpoint are unknown here. Sync it now,
  // so that the recovery point covers all that survived and a power loss later cannot take
  // records acknowledged before the crash (found by the simulation's scenario runner).
  if (!clean_shutdown && recovery_point_ < log_end_offset())
    return flush();
  return {};
}

// Trims the loaded epochs to the log as opened, and rewrites the file if that or the scan
// changed them (the flush at the end of an unclean open makes it durable).
status partition_log::finish_epochs(const result<leader_epoch_cache>& stored) {
  epochs_.truncate_from_end(log_end_offset());
  epochs_.truncate_from_start(log_start_offset());
  if (stored && *stored == epochs_)
    return {};
  return save_epochs();
}

std::string partition_log::epoch_file_path() const {
  return dir_ + '/' + leader_epoch_file_name;
}

// Without fsync (see the header): prepare_flush() makes it durable, or retries it.
status partition_log::save_epochs() {
  auto st = replace_file(epoch_file_path(), format_leader_epoch_checkpoint(epochs_));
  if (!st) {
    epoch_file_ = epoch_file_state::stale;
    return st;
  }
  epoch_file_ = epoch_file_state::unsynced;
  dir_dirty_ = true; // the rename
  return {};
}

status partition_log::delete_segments_after(size_t index) {
  while (segments_.size() > index + 1) {
    if (auto st = segments_.back()->remove(); !st)
      return st;
    segments_.pop_back();
    ++report_.deleted_segments;
  }
  dir_dirty_ = true;
  return {};
}

int64_t partition_log::log_start_offset() const noexcept {
  return std::max(moved_start_, segments_.front()->base_offset());
}

std::string partition_log::start_file_path() const {
  return dir_ + '/' + log_start_file_name;
}

// A damaged file is ignored: the start falls back to the first segment's base offset.
status partition_log::load_start_offset() {
  auto text = read_file_if_present(start_file_path());
  if (!text)
    return text.error();
  moved_start_ = 0;
  if (*text) {
    char* end = nullptr;
    long long v = std::strtoll((*text)->c_str(), &end, 10);
    if (end != (*text)->c_str() && *end == '\n' && v >= 0)
      moved_start_ = v;
  }
  if (moved_start_ > log_end_offset()) { // recovery cut the log below it
    moved_start_ = log_end_offset();
    return save_start_offset();
  }
  return {};
}

// Without fsync, as save_epochs(): prepare_flush() syncs it.
status partition_log::save_start_offset() {
  if (auto st = replace_file(start_file_path(), std::to_string(moved_start_) + '\n'); !st)
    return st;
  start_file_unsynced_ = true;
  dir_dirty_ = true;
  return {};
}

result<std::vector<deleted_segment>> partition_log::advance_log_start(int64_t offset) {
  if (offset > log_end_offset())
    return errc::offset_out_of_range;
  if (offset <= log_start_offset())
    return std::vector<deleted_segment>{};
  moved_start_ = offset;
  if (auto st = save_start_offset(); !st)
    return st.error();
  recovery_point_ = std::max(recovery_point_, offset);
  if (epochs_.truncate_from_start(offset))
    (void) save_epochs();
  auto removed = remove_segments_below_start();
  forget_snapshots_outside_log();
  return removed;
}

// Segments whose records all lie below the start (the next one starts at or below it).
result<std::vector<deleted_segment>> partition_log::remove_segments_below_start() {
  std::vector<deleted_segment> deleted;
  while (segments_.size() > 1 && segments_[1]->base_offset() <= moved_start_) {
    auto d = retire_first_segment(false, true);
    if (!d)
      return d.error();
    deleted.push_back(std::move(*d));
  }
  return deleted;
}

// Takes the oldest segment out of the log; its files, renamed, are the caller's to unlink.
result<deleted_segment> partition_log::retire_first_segment(bool by_time, bool below_log_start) {
  auto& s = *segments_.front();
  auto files = s.retire();
  if (!files)
    return files.error();
  auto txn_file = txn_index_.retire(s.base_offset());
  if (!txn_file)
    return txn_file.error();
  if (*txn_file)
    files->push_back(std::move(**txn_file));
  deleted_segment d{s.base_offset(), s.size(), by_time, below_log_start, std::move(*files)};
  segments_.erase(segments_.begin());
  dir_dirty_ = true;
  return d;
}

int64_t partition_log::log_end_offset() const noexcept {
  return *segments_.back()->next_offset();
}

uint64_t partition_log::size_bytes() const noexcept {
  uint64_t total = 0;
  for (auto& s : segments_)
    total += s->size();
  return total;
}

std::vector<int64_t> partition_log::segment_base_offsets() const {
  std::vector<int64_t> out;
  for (auto& s : segments_)
    out.push_back(s->base_offset());
  return out;
}

size_t partition_log::segment_index_for(int64_t offset) const noexcept {
  auto it = std::upper_bound(segments_.begin(), segments_.end(), offset,
                             [](int64_t o, const auto& s) { return o < s->base_offset(); });
  return it == segments_.begin() ? 0 : static_cast<size_t>(it - segments_.begin()) - 1;
}

result<append_info> partition_log::append(std::vector<char>& batches, int64_t now_ms, int32_t leader_epoch) {
  return append_batches(batches, now_ms, leader_epoch, append_origin::client);
}

result<append_info> partition_log::append(std::vector<char>& batches, int64_t now_ms) {
  return append_batches(batches, now_ms, -1, append_origin::client);
}

result<append_info> partition_log::append_as_coordinator(std::vector<char>& batches, int64_t now_ms,
                                                         int32_t leader_epoch) {
  return append_batches(batches, now_ms, leader_epoch, append_origin::coordinator);
}

result<append_info> partition_log::append_replicated(std::vector<char>& batches, int64_t now_ms) {
  return append_batches(batches, now_ms, -1, append_origin::replication);
}

result<append_info> partition_log::append_txn_marker(int64_t producer_id, int16_t producer_epoch,
                                                     protocol::txn_marker marker, int64_t now_ms,
                                                     int32_t leader_epoch) {
  switch (producers_.check_marker(producer_id, producer_epoch, marker.coordinator_epoch)) {
    case producer_check::invalid_producer_epoch:
      return errc::invalid_producer_epoch;
    case producer_check::coordinator_fenced:
      return errc::coordinator_fenced;
    default:
      break;
  }
  auto batch = protocol::build_txn_marker_batch(producer_id, producer_epoch, marker, now_ms);
  return append_batches(batch, now_ms, leader_epoch, append_origin::coordinator);
}

int64_t partition_log::last_stable_offset(int64_t high_watermark) {
  // Kafka's onHighWatermarkUpdated: a transaction whose marker is below the HWM is stable.
  auto replicated = std::find_if(unreplicated_txns_.begin(), unreplicated_txns_.end(),
                                 [&](const completed_txn& t) { return t.last_offset >= high_watermark; });
  unreplicated_txns_.erase(unreplicated_txns_.begin(), replicated);
  int64_t lso = high_watermark;
  if (auto open = producers_.first_open_txn_offset())
    lso = std::min(lso, *open);
  for (auto& t : unreplicated_txns_)
    lso = std::min(lso, t.first_offset);
  return lso;
}

namespace {

// compression.type (the leader's append only): the batches not in the topic's codec are
// rewritten in it, each as a whole (protocol/batch_recompression.hpp). Nothing is copied when
// every batch is in the codec already.
status recompress_for_topic(std::vector<char>& batches, int target, size_t max_uncompressed) {
  std::vector<char> out;
  bool changed = false;
  size_t at = 0;
  while (at < batches.size()) {
    protocol::bytes_view rest(batches.data() + at, batches.size() - at);
    auto h = protocol::validate_batch(rest);
    if (!h)
      return h.error();
    auto size = h->total_size();
    if (protocol::needs_recompression(*h, target)) {
      if (!changed)
        out.assign(batches.begin(), batches.begin() + static_cast<std::ptrdiff_t>(at));
      changed = true;
      auto rewritten = protocol::recompress_batch(rest.substr(0, size), static_cast<protocol::compression_codec>(target),
                                                  max_uncompressed);
      if (!rewritten)
        return rewritten.error();
      out.insert(out.end(), rewritten->begin(), rewritten->end());
    } else if (changed) {
      out.insert(out.end(), rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(size));
    }
    at += size;
  }
  if (changed)
    batches = std::move(out);
  return {};
}

// Whether `ts` lies more than `before_ms` before or `after_ms` after `now_ms` (either bound
// may be Long.MAX: none), without overflowing.
bool outside_time_bounds(int64_t ts, int64_t now_ms, int64_t before_ms, int64_t after_ms) {
  constexpr auto none = std::numeric_limits<int64_t>::max();
  if (before_ms != none && ts < now_ms - before_ms)
    return true;
  return after_ms != none && after_ms <= none - now_ms && ts > now_ms + after_ms;
}

} // namespace

// The leader's timestamp rules, from the batch header alone (never per record): LogAppendTime
// stamps the batch; CreateTime checks its first and max timestamps against the bounds (Kafka
// checks each record's, which lie between those but for out-of-order timestamps inside one
// batch); a batch without timestamps is stored with max timestamp -1.
status partition_log::apply_timestamp_policy(char* batch, protocol::batch_header& h, int64_t now_ms) {
  if (cfg_.log_append_time) {
    protocol::set_log_append_time(batch, h.total_size(), now_ms);
    h.max_timestamp = now_ms;
    return {};
  }
  if (protocol::lacks_timestamp(h)) {
    if (h.max_timestamp != protocol::no_timestamp) {
      protocol::set_no_timestamp(batch, h.total_size());
      h.max_timestamp = protocol::no_timestamp;
    }
    return {};
  }
  auto before = cfg_.timestamp_before_max_ms, after = cfg_.timestamp_after_max_ms;
  if (outside_time_bounds(h.base_timestamp, now_ms, before, after)
      || outside_time_bounds(h.max_timestamp, now_ms, before, after))
    return errc::invalid_timestamp;
  return {};
}

// Either assigns offsets (rewriting base offsets, stamping `stamp_epoch` if >= 0) or
// checks that the batches carry the next offsets already (a follower's copy).
result<append_info> partition_log::append_batches(std::vector<char>& batches, int64_t now_ms,
                                                  int32_t stamp_epoch, append_origin origin) {
  bool assign_offsets = origin != append_origin::replication;
  if (batches.empty())
    return errc::empty_append;
  if (health_->offline())
    return errc::log_dir_offline;
  if (origin == append_origin::client && cfg_.compression >= 0) {
    if (auto st = recompress_for_topic(batches, cfg_.compression, static_cast<size_t>(cfg_.max_message_bytes) * 64); !st)
      return st.error();
  }
  // Validate everything before writing anything: an append is all or nothing.
  append_info info;
  int64_t next = log_end_offset();
  info.first_offset = next;
  size_t at = 0;
  while (at < batches.size()) {
    auto h = protocol::validate_batch(protocol::bytes_view(batches.data() + at, batches.size() - at));
    if (!h)
      return h.error();
    if (h->total_size() > static_cast<size_t>(cfg_.max_message_bytes))
      return errc::batch_too_large;
    if (origin == append_origin::coordinator && !h->is_control() && h->producer_id >= 0
        && producers_.check_marker(h->producer_id, h->producer_epoch, INT32_MAX) == producer_check::invalid_producer_epoch)
      return errc::invalid_producer_epoch; // (a marker's own check is append_txn_marker's)
    if (origin == append_origin::client) {
      auto producer = check_producer(*h, at == 0 && h->total_size() == batches.size());
      if (!producer)
        return producer.error();
      if (*producer)
        return **producer; // a retry of a batch the log has: answered, not written
    }
    if (assign_offsets)
      protocol::set_base_offset(batches.data() + at, next);
    else if (gaps_allowed(next) ? h->base_offset < next : h->base_offset != next)
      return errc::non_contiguous_offsets;
    else
      next = h->base_offset; // (a compacted leader's batches may leave gaps)
    if (at == 0)
      info.first_offset = next;
    if (stamp_epoch >= 0)
      protocol::set_leader_epoch(batches.data() + at, stamp_epoch);
    if (assign_offsets) {
      if (auto st = apply_timestamp_policy(batches.data() + at, *h, now_ms); !st)
        return st.error();
      if (cfg_.log_append_time)
        info.log_append_time = now_ms;
    }
    next += int64_t{h->last_offset_delta} + 1;
    info.max_timestamp = std::max(info.max_timestamp, h->max_timestamp);
    info.records += static_cast<size_t>(h->record_count);
    ++info.batches;
    at += h->total_size();
  }
  info.last_offset = next - 1;
  auto roll_now = should_roll(batches.size(), info, now_ms);
  if (!roll_now)
    return roll_now.error();
  // A failed write leaves the directory's disk in doubt (full, failing): every log there
  // stops taking appends, as Kafka takes the log dir offline. segment::append() has cut
  // what the write left behind, so nothing half-written stays before the next append.
  if (*roll_now) {
    if (auto st = roll(now_ms); !st) {
      health_->take_offline(st.error());
      return st.error();
    }
  }
  if (auto st = segments_.back()->append(protocol::bytes_view(batches.data(), batches.size())); !st) {
    health_->take_offline(st.error());
    return st.error();
  }
  if (unflushed_records_ == 0)
    first_unflushed_ms_ = now_ms;
  unflushed_records_ += static_cast<int64_t>(info.records);
  bool epochs_changed = stamp_epoch >= 0 && epochs_.assign(stamp_epoch, info.first_offset);
  epochs_changed |= note_appended(protocol::bytes_view(batches.data(), batches.size()), stamp_epoch < 0);
  if (epochs_changed)
    (void) save_epochs(); // a failure is retried by prepare_flush(): the records are in
  return info;
}

// One walk over the appended batches' headers (validated above): the producer state follows
// every batch, and, unless the leader stamped its own, the epoch cache takes each batch's
// partition_leader_epoch (Kafka's per-batch assign). Whether the epochs changed.
bool partition_log::note_appended(protocol::bytes_view batches, bool assign_batch_epochs) {
  bool changed = false;
  while (!batches.empty()) {
    auto h = protocol::read_batch_header(batches);
    if (!h)
      break;
    note_batch(*h, batches.substr(0, std::min(h->total_size(), batches.size())), segments_.back()->base_offset());
    if (assign_batch_epochs)
      changed |= epochs_.assign(h->leader_epoch, h->base_offset);
    batches.remove_prefix(std::min(h->total_size(), batches.size()));
  }
  return changed;
}

// The producer state follows a batch appended or replayed in the segment at `segment_base`; a
// marker (read from its one record: per batch, and only for control batches) closes its
// producer's transaction, and an aborted one goes into the transaction index.
void partition_log::note_batch(const protocol::batch_header& h, protocol::bytes_view batch, int64_t segment_base) {
  if (!h.is_control()) {
    producers_.record(h);
    return;
  }
  auto marker = protocol::read_txn_marker(batch);
  if (!marker || !*marker || h.producer_id < 0)
    return; // another control record type: no transaction ends
  auto done = producers_.record_marker(h.producer_id, h.producer_epoch, (*marker)->coordinator_epoch,
                                       (*marker)->commits(), h.base_offset, h.max_timestamp);
  if (!done)
    return;
  unreplicated_txns_.push_back(*done);
  if (done->aborted)
    // A failed write leaves the entry out of the file until the next open rebuilds it there.
    (void) txn_index_.add(segment_base, {done->producer_id, done->first_offset, done->last_offset,
                                         producers_.last_stable_offset_after(*done)});
}

bool partition_log::assign_leader_epoch(int32_t epoch) {
  if (!epochs_.assign(epoch, log_end_offset()))
    return false;
  (void) save_epochs();
  return true;
}

// Kafka's LogSegment.shouldRoll: the segment would grow past segment.bytes, it has waited
// roll.ms (segment::time_waited_for_roll), an index is full, or offsets would overflow the
// index.
result<bool> partition_log::should_roll(size_t append_bytes, const append_info& incoming, int64_t now_ms) {
  auto& active = *segments_.back();
  if (active.size() == 0)
    return false;
  if (active.size() > static_cast<uint64_t>(cfg_.segment_bytes) - std::min<uint64_t>(append_bytes, cfg_.segment_bytes))
    return true;
  auto waited = active.time_waited_for_roll(now_ms, incoming.max_timestamp);
  if (!waited)
    return waited.error();
  if (*waited > cfg_.roll_ms - active.roll_jitter_ms())
    return true;
  return active.index_full() || incoming.last_offset - active.base_offset() > INT32_MAX;
}

status partition_log::roll(int64_t now_ms) {
  if (auto st = segments_.back()->seal(); !st)
    return st;
  auto s = segment::create(dir_, log_end_offset(), cfg_, now_ms);
  if (!s)
    return s.error();
  segments_.push_back(std::move(*s));
  dir_dirty_ = true;
  // At the new segment's base offset, as Kafka: opening replays only the segments after it.
  return save_producer_snapshot(false);
}

result<std::optional<partition_log::position>> partition_log::locate(int64_t offset) {
  if (offset < log_start_offset() || offset > log_end_offset())
    return errc::offset_out_of_range;
  for (size_t i = segment_index_for(offset); i < segments_.size(); ++i) {
    auto loc = segments_[i]->find_batch(offset);
    if (!loc)
      return loc.error();
    if (*loc)
      return std::optional<position>{position{segments_[i]->base_offset(), (*loc)->position}};
  }
  return std::optional<position>{};
}

result<std::vector<char>> partition_log::read(int64_t offset, size_t max_bytes,
                                              std::optional<int64_t> end_offset) {
  auto where = locate(offset);
  if (!where)
    return where.error();
  int64_t end = std::min(end_offset.value_or(log_end_offset()), log_end_offset());
  if (!*where || offset >= end)
    return std::vector<char>{};
  auto& seg = *segments_[segment_index_for((*where)->segment_base_offset)];
  return seg.read((*where)->file_position, max_bytes, end);
}

result<std::optional<partition_log::timestamp_match>> partition_log::find_by_timestamp(int64_t timestamp) {
  for (auto& s : segments_) {
    auto largest = s->largest_timestamp();
    if (!largest)
      return largest.error();
    if (*largest < timestamp)
      continue;
    auto loc = s->find_batch_by_timestamp(timestamp);
    if (!loc)
      return loc.error();
    if (!*loc)
      continue;
    auto bytes = s->read((*loc)->position, 0, log_end_offset());
    if (!bytes)
      return bytes.error();
    return std::optional<timestamp_match>{
      timestamp_match{(*loc)->header.base_offset, (*loc)->header.max_timestamp, std::move(*bytes)}};
  }
  return std::optional<timestamp_match>{};
}

result<std::optional<partition_log::timestamp_offset>>
partition_log::offset_for_timestamp(int64_t timestamp) {
  auto match = find_by_timestamp(timestamp);
  if (!match)
    return match.error();
  if (!*match)
    return std::optional<timestamp_offset>{};
  auto& m = **match;
  std::optional<timestamp_offset> found;
  auto visited = protocol::for_each_record(
    protocol::bytes_view(m.batch.data(), m.batch.size()),
    static_cast<size_t>(cfg_.max_message_bytes) * 64, [&](const protocol::record_view& r) {
      if (!found && r.timestamp >= timestamp && r.offset >= log_start_offset())
        found = timestamp_offset{r.offset, r.timestamp};
    });
  if (!visited || !found) // unreadable records: answer at batch granularity
    return std::optional<timestamp_offset>{
      timestamp_offset{std::max(m.batch_base_offset, log_start_offset()), m.batch_max_timestamp}};
  return found;
}

status partition_log::truncate_to(int64_t offset) {
  if (offset < log_end_offset()) {
    if (offset <= log_start_offset()) {
      // Kafka's truncateFullyAndStartAt: nothing survives, the log restarts at `offset`.
      if (auto st = restart_at(std::max<int64_t>(offset, 0)); !st)
        return st;
    } else {
      while (segments_.back()->base_offset() >= offset) {
        if (auto st = segments_.back()->remove(); !st)
          return st;
        segments_.pop_back();
      }
      if (auto st = segments_.back()->truncate_to(offset); !st)
        return st;
    }
    dir_dirty_ = true;
    recovery_point_ = std::min(recovery_point_, log_end_offset());
    forget_snapshots_outside_log();
    // Kafka's truncateAndReload: the newest snapshot left, then the batches after it.
    if (auto st = load_producers(snapshots_, log_end_offset(), std::nullopt); !st)
      return st;
  }
  // Also without truncation: an epoch assigned at the log end has no records yet.
  if (epochs_.truncate_from_end(log_end_offset()))
    (void) save_epochs();
  return {};
}

status partition_log::truncate_fully_and_start_at(int64_t offset) {
  if (offset < 0)
    return errc::offset_out_of_range;
  if (auto st = restart_at(offset); !st)
    return st;
  dir_dirty_ = true;
  recovery_point_ = std::min(recovery_point_, log_end_offset());
  if (!epochs_.entries().empty()) {
    epochs_.clear();
    (void) save_epochs();
  }
  return {};
}

status partition_log::restart_at(int64_t offset) {
  for (auto& s : segments_)
    if (auto st = s->remove(); !st)
      return st;
  segments_.clear();
  auto s = segment::create(dir_, offset, cfg_, 0);
  if (!s)
    return s.error();
  segments_.push_back(std::move(*s));
  producers_ = producer_state{};
  unreplicated_txns_.clear();
  if (auto st = txn_index_.clear(); !st)
    return st;
  forget_snapshots_outside_log();
  if (auto st = save_producer_snapshot(false); !st) // replaces a stale one at `offset`
    return st;
  if (moved_start_ != 0) { // a start below the old one: the file must not bring that back
    moved_start_ = 0;
    return save_start_offset();
  }
  return {};
}

result<std::vector<deleted_segment>> partition_log::apply_retention(int64_t now_ms) {
  // Left by a crash between advance_log_start()'s file and its deletions, or not yet
  // deleted; Kafka deletes these whatever the cleanup policy.
  producers_.expire(now_ms, cfg_.producer_id_expiration_ms); // Kafka checks on its own timer
  auto deleted = remove_segments_below_start();
  if (!deleted)
    return deleted;
  if (cfg_.cleanup_delete) {
    auto expired = retire_expired_segments(now_ms);
    if (!expired)
      return expired.error();
    deleted->insert(deleted->end(), std::make_move_iterator(expired->begin()),
                    std::make_move_iterator(expired->end()));
  }
  if (!deleted->empty()) {
    recovery_point_ = std::max(recovery_point_, log_start_offset());
    if (epochs_.truncate_from_start(log_start_offset()))
      (void) save_epochs();
    forget_snapshots_outside_log();
  }
  return deleted;
}

// Time and size retention (storage/retention.hpp) over the segments' summaries.
result<std::vector<deleted_segment>> partition_log::retire_expired_segments(int64_t now_ms) {
  std::vector<segment_summary> summaries;
  summaries.reserve(segments_.size());
  for (size_t i = 0; i < segments_.size(); ++i) {
    segment_summary s{segments_[i]->base_offset(), segments_[i]->size(), -1};
    // Timestamps cost a look at the time index: only fetch them while they can matter.
    if (cfg_.retention_ms >= 0 && i + 1 < segments_.size()
        && (i == 0 || now_ms - summaries.back().largest_timestamp > cfg_.retention_ms)) {
      auto ts = segments_[i]->largest_timestamp();
      if (!ts)
        return ts.error();
      s.largest_timestamp = *ts;
    } else {
      s.largest_timestamp = now_ms; // not expired by time
    }
    summaries.push_back(s);
  }
  auto decision = select_expired_segments(summaries, {cfg_.retention_ms, cfg_.retention_bytes}, now_ms);
  std::vector<deleted_segment> deleted;
  for (size_t i = 0; i < decision.total(); ++i) {
    auto d = retire_first_segment(i < decision.by_time, false);
    if (!d)
      return d.error();
    deleted.push_back(std::move(*d));
  }
  return deleted;
}

status flush_job::run() {
  status st;
  for (auto& f : files_)
    if (st = f.sync(); !st)
      break;
  if (st && !dir_to_sync_.empty())
    st = sync_directory(dir_to_sync_);
  // Linux may drop the dirty pages of a failed fsync: a retry would "succeed" without them.
  if (!st && health_)
    health_->take_offline(st.error());
  return st;
}

bool partition_log::flush_due(int64_t now_ms) const noexcept {
  if (unflushed_records_ == 0)
    return false;
  return unflushed_records_ >= cfg_.flush_interval_messages
         || now_ms - first_unflushed_ms_ >= cfg_.flush_interval_ms;
}

result<flush_job> partition_log::prepare_flush() {
  flush_job job;
  job.health_ = health_;
  if (epoch_file_ == epoch_file_state::stale) {
    if (auto st = save_epochs(); !st)
      return st.error();
  }
  if (epoch_file_ == epoch_file_state::unsynced) {
    auto f = file::open(epoch_file_path(), file::mode::read_only);
    if (!f)
      return f.error();
    job.files_.push_back(std::move(*f)); // the folder follows: save_epochs() made it dirty
    epoch_file_ = epoch_file_state::synced;
  }
  for (auto [unsynced, name] : {std::pair{&start_file_unsynced_, log_start_file_name},
                                std::pair{&cleaner_file_unsynced_, cleaner_offset_file_name}}) {
    if (!*unsynced)
      continue;
    auto f = file::open(dir_ + '/' + name, file::mode::read_only);
    if (!f)
      return f.error();
    job.files_.push_back(std::move(*f));
    *unsynced = false;
  }
  for (size_t i = segment_index_for(recovery_point_); i < segments_.size(); ++i)
    if (auto st = segments_[i]->prepare_flush(job.files_); !st)
      return st.error();
  if (auto st = txn_index_.prepare_flush(job.files_); !st)
    return st.error();
  if (dir_dirty_) {
    job.dir_to_sync_ = dir_;
    dir_dirty_ = false;
  }
  job.end_offset_ = log_end_offset();
  unflushed_records_ = 0;
  first_unflushed_ms_ = -1;
  return job;
}

void partition_log::complete_flush(const flush_job& job) noexcept {
  // A truncation while the job ran may have moved the end below the job's offset.
  recovery_point_ = std::max(recovery_point_, std::min(job.end_offset(), log_end_offset()));
}

status partition_log::flush() {
  auto job = prepare_flush();
  if (!job)
    return job.error();
  if (auto st = job->run(); !st)
    return st;
  complete_flush(*job);
  return {};
}

status partition_log::close() {
  if (auto st = segments_.back()->seal(); !st)
    return st;
  // The next open after a clean close then replays no batch.
  if (auto st = save_producer_snapshot(true); !st)
    return st;
  return flush();
}

} // namespace cafka::storage
