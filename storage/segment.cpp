#include "storage/segment.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <functional>
#include <random>

#include "storage/batch_walk.hpp"
#include "storage/errc.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

using protocol::batch_header;
namespace layout = protocol::batch_layout;

namespace {

result<int64_t> file_mtime_ms(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return last_system_error();
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

} // namespace

namespace {

int64_t draw_roll_jitter(int64_t jitter_ms) {
  if (jitter_ms <= 0)
    return 0; // no random draw: simulated runs stay deterministic
  thread_local std::mt19937_64 random{std::random_device{}()};
  return static_cast<int64_t>(random() % static_cast<uint64_t>(jitter_ms));
}

} // namespace

segment::segment(std::string dir, int64_t base_offset, const log_config& cfg)
  : dir_(std::move(dir)), base_offset_(base_offset), cfg_(cfg), roll_jitter_ms_(draw_roll_jitter(cfg.roll_jitter_ms)) {}

result<std::unique_ptr<segment>> segment::create(std::string dir, int64_t base_offset,
                                                 const log_config& cfg, int64_t now_ms) {
  std::unique_ptr<segment> s{new segment(std::move(dir), base_offset, cfg)};
  if (auto st = s->open_log_file(); !st)
    return st.error();
  if (auto st = s->log_.truncate(0); !st)
    return st.error();
  s->size_ = 0;
  // preallocate: reserve the blocks without changing the size, so that readers and recovery
  // see the same file as without; seal() gives back what the segment did not use. A file
  // system without fallocate simply does not preallocate.
  if (cfg.preallocate && cfg.segment_bytes > 0)
    (void) ::fallocate(s->log_.fd(), FALLOC_FL_KEEP_SIZE, 0, static_cast<off_t>(cfg.segment_bytes));
  // Fresh: stale index files of an earlier segment with this base offset must not survive.
  if (auto st = s->open_indexes(true); !st)
    return st.error();
  s->next_offset_ = base_offset;
  s->largest_timestamp_known_ = true;
  s->created_ms_ = now_ms;
  s->first_batch_timestamp_ = protocol::no_timestamp; // until the first batch
  return s;
}

std::unique_ptr<segment> segment::existing(std::string dir, int64_t base_offset,
                                           uint64_t log_size, const log_config& cfg) {
  std::unique_ptr<segment> s{new segment(std::move(dir), base_offset, cfg)};
  s->size_ = log_size;
  return s;
}

status segment::open_log_file() {
  if (log_.is_open())
    return {};
  auto f = file::open(segment_file_path(dir_, base_offset_, segment_file::log),
                      file::mode::read_write_create);
  if (!f)
    return f.error();
  log_ = std::move(*f);
  return {};
}

void segment::reset_index_state() {
  bytes_since_index_entry_ = 0;
  largest_timestamp_ = -1;
  offset_of_largest_timestamp_ = -1;
  largest_timestamp_known_ = true;
}

// Opens an index file; with `fresh`, or when its size is not a whole number of entries,
// it is replaced by an empty one (`replaced` tells which happened).
template <class Entry>
static result<index_file<Entry>> open_index(const std::string& path, bool fresh, bool& replaced) {
  replaced = false;
  if (!fresh) {
    auto idx = index_file<Entry>::open(path);
    if (idx || idx.error() != errc::corrupt_index)
      return idx;
    replaced = true;
  }
  ::unlink(path.c_str());
  return index_file<Entry>::open(path);
}

// Opens both index files, emptying them when `fresh`. A damaged index (not whole
// entries, or failing the sanity check) makes the segment rebuild both from its log.
status segment::open_indexes(bool fresh) {
  if (indexes_open_)
    return {};
  bool offsets_replaced = false, times_replaced = false;
  auto offsets = open_index<offset_entry>(segment_file_path(dir_, base_offset_, segment_file::index), fresh,
                                          offsets_replaced);
  if (!offsets)
    return offsets.error();
  auto times = open_index<time_entry>(segment_file_path(dir_, base_offset_, segment_file::timeindex), fresh,
                                      times_replaced);
  if (!times)
    return times.error();
  offset_index_ = std::move(*offsets);
  time_index_ = std::move(*times);
  indexes_open_ = true;
  if (!fresh && (offsets_replaced || times_replaced || !check_indexes())) {
    if (auto r = recover(); !r)
      return r.error();
  }
  return {};
}

// Kafka's sanity check, made complete: entries ordered on every field and pointing
// inside the log file.
status segment::check_indexes() {
  int64_t prev_offset = -1;
  int64_t prev_position = -1;
  for (size_t i = 0; i < offset_index_.size(); ++i) {
    auto e = offset_index_.at(i);
    if (e.relative_offset <= prev_offset || static_cast<int64_t>(e.position) <= prev_position
        || e.position >= size_)
      return errc::corrupt_index;
    prev_offset = e.relative_offset;
    prev_position = e.position;
  }
  int64_t prev_ts = INT64_MIN;
  prev_offset = -1;
  for (size_t i = 0; i < time_index_.size(); ++i) {
    auto e = time_index_.at(i);
    if (e.timestamp <= prev_ts || e.relative_offset < prev_offset)
      return errc::corrupt_index;
    prev_ts = e.timestamp;
    prev_offset = e.relative_offset;
  }
  return {};
}

result<scan_summary> segment::recover(const std::function<void(const batch_header&)>& on_batch, bool allow_gaps) {
  if (auto st = open_log_file(); !st)
    return st.error();
  // Without the sanity check: everything is rebuilt below anyway.
  if (auto st = open_indexes(true); !st)
    return st.error();
  if (auto st = offset_index_.truncate(0); !st)
    return st.error();
  if (auto st = time_index_.truncate(0); !st)
    return st.error();
  auto file_size = log_.size();
  if (!file_size)
    return file_size.error();
  size_ = *file_size;
  reset_index_state();
  first_batch_timestamp_.reset();
  int64_t expected = base_offset_;
  scan_summary summary;
  bool by_visitor = false;
  auto end = walk_batches(log_, size_, 0, true, by_visitor,
                          [&](const batch_header& h, uint64_t pos) {
                            // Offsets are dense (base offsets lie outside the CRC, so
                            // this is what catches a damaged one), or only increase where
                            // the cleaner may have removed batches, and fit the index.
                            if ((allow_gaps ? h.base_offset < expected : h.base_offset != expected)
                                || h.last_offset() - base_offset_ > INT32_MAX)
                              return false;
                            index_batch(h, pos);
                            if (on_batch)
                              on_batch(h);
                            expected = h.next_offset();
                            ++summary.batches;
                            return true;
                          });
  if (!end)
    return end.error();
  summary.valid_bytes = *end;
  summary.discarded_bytes = size_ - *end;
  summary.next_offset = expected;
  if (*end < size_) {
    if (auto st = log_.truncate(*end); !st)
      return st.error();
    size_ = *end;
  }
  next_offset_ = expected;
  dirty_ = true;
  if (auto st = persist_indexes(); !st)
    return st.error();
  return summary;
}

status segment::load_tail() {
  if (auto st = open_log_file(); !st)
    return st;
  if (auto st = open_indexes(); !st)
    return st;
  uint64_t start = offset_index_.empty() ? 0 : offset_index_.back().position;
  largest_timestamp_ = time_index_.empty() ? -1 : time_index_.back().timestamp;
  offset_of_largest_timestamp_ = time_index_.empty() ? -1 : base_offset_ + time_index_.back().relative_offset;
  std::optional<int64_t> next;
  uint64_t walked = 0;
  bool by_visitor = false;
  auto end = walk_batches(log_, size_, start, false, by_visitor,
                          [&](const batch_header& h, uint64_t) {
                            if (h.max_timestamp > largest_timestamp_) {
                              largest_timestamp_ = h.max_timestamp;
                              offset_of_largest_timestamp_ = h.last_offset();
                            }
                            next = h.next_offset();
                            walked += h.total_size();
                            return true;
                          });
  if (!end)
    return end.error();
  if (*end != size_)
    return errc::corrupt_index; // the tail is not what a clean shutdown leaves: recover
  next_offset_ = next ? *next : base_offset_;
  bytes_since_index_entry_ = walked;
  largest_timestamp_known_ = true;
  return {};
}

status segment::visit_headers(int64_t from_offset,
                              const std::function<void(const batch_header&, uint64_t position)>& visit) {
  auto from = find_batch(from_offset);
  if (!from)
    return from.error();
  if (!*from)
    return {};
  if (auto st = open_log_file(); !st)
    return st;
  bool by_visitor = false;
  auto end = walk_batches(log_, size_, (*from)->position, false, by_visitor, [&](const batch_header& h, uint64_t pos) {
    visit(h, pos);
    return true;
  });
  return end ? status{} : status{end.error()};
}

void segment::index_batch(const batch_header& h, uint64_t position) {
  if (h.max_timestamp > largest_timestamp_) {
    largest_timestamp_ = h.max_timestamp;
    offset_of_largest_timestamp_ = h.last_offset();
  }
  if (bytes_since_index_entry_ > static_cast<uint64_t>(cfg_.index_interval_bytes)) {
    offset_index_.push_back({static_cast<int32_t>(h.base_offset - base_offset_),
                             static_cast<uint32_t>(position)});
    if (largest_timestamp_ >= 0
        && (time_index_.empty() || largest_timestamp_ > time_index_.back().timestamp))
      time_index_.push_back({largest_timestamp_,
                             static_cast<int32_t>(offset_of_largest_timestamp_ - base_offset_)});
    bytes_since_index_entry_ = 0;
  }
  bytes_since_index_entry_ += h.total_size();
  if (position == 0)
    first_batch_timestamp_ = h.max_timestamp;
}

status segment::append(protocol::bytes_view batches) {
  if (auto st = open_log_file(); !st)
    return st;
  if (auto st = open_indexes(); !st)
    return st;
  if (auto st = log_.append(batches.data(), batches.size()); !st) {
    // A write that stopped half way (ENOSPC) must not leave a torn batch in front of the
    // next append; recovery would cut it at the next start, but the log goes on until then.
    (void) log_.truncate(size_);
    return st;
  }
  size_t at = 0;
  while (at < batches.size()) {
    auto h = protocol::read_batch_header(batches.substr(at));
    if (!h)
      return h.error(); // the caller validated: cannot happen
    index_batch(*h, size_ + at);
    next_offset_ = h->next_offset();
    at += h->total_size();
  }
  size_ += batches.size();
  dirty_ = true;
  return {};
}

result<std::optional<batch_location>> segment::find_batch(int64_t offset) {
  if (auto st = open_log_file(); !st)
    return st.error();
  if (auto st = open_indexes(); !st)
    return st.error();
  auto rel = offset - base_offset_;
  auto i = offset_index_.last_where([rel](const offset_entry& e) { return e.relative_offset <= rel; });
  uint64_t start = i == offset_index_.size() ? 0 : offset_index_.at(i).position;
  std::optional<batch_location> found;
  bool by_visitor = false;
  auto end = walk_batches(log_, size_, start, false, by_visitor,
                          [&](const batch_header& h, uint64_t pos) {
                            if (h.last_offset() < offset)
                              return true;
                            found = batch_location{h, pos};
                            return false;
                          });
  if (!end)
    return end.error();
  return found;
}

result<std::optional<batch_location>> segment::find_batch_by_timestamp(int64_t timestamp) {
  if (auto st = open_log_file(); !st)
    return st.error();
  if (auto st = open_indexes(); !st)
    return st.error();
  auto j = time_index_.last_where([timestamp](const time_entry& e) { return e.timestamp <= timestamp; });
  int32_t rel = j == time_index_.size() ? 0 : time_index_.at(j).relative_offset;
  auto i = offset_index_.last_where([rel](const offset_entry& e) { return e.relative_offset <= rel; });
  uint64_t start = i == offset_index_.size() ? 0 : offset_index_.at(i).position;
  std::optional<batch_location> found;
  bool by_visitor = false;
  auto end = walk_batches(log_, size_, start, false, by_visitor,
                          [&](const batch_header& h, uint64_t pos) {
                            if (h.max_timestamp < timestamp)
                              return true;
                            found = batch_location{h, pos};
                            return false;
                          });
  if (!end)
    return end.error();
  return found;
}

result<std::vector<char>> segment::read(uint64_t position, size_t max_bytes, int64_t end_offset) {
  if (auto st = open_log_file(); !st)
    return st.error();
  std::vector<char> buf;
  if (position >= size_)
    return buf;
  buf.resize(static_cast<size_t>(std::min<uint64_t>(std::max<size_t>(max_bytes, layout::header_size),
                                                    size_ - position)));
  auto got = log_.read_at(buf.data(), buf.size(), position);
  if (!got)
    return got.error();
  buf.resize(*got);
  // Every batch handed out is checked (CRC-32C runs at many GB/s): a batch damaged on
  // disk after recovery trusted it is never served. Damage at the first batch is an
  // error; later damage ends the read before it.
  size_t keep = 0;
  while (keep < buf.size()) {
    auto h = protocol::read_batch_header(protocol::bytes_view(buf.data() + keep, buf.size() - keep));
    if (!h) {
      if (keep == 0 && buf.size() >= layout::header_size)
        return errc::corrupt_batch;
      break;
    }
    if (h->base_offset >= end_offset)
      break;
    if (keep + h->total_size() > buf.size()) {
      if (keep > 0)
        break;
      // The first batch is larger than max_bytes: return it whole anyway.
      auto total = std::min<uint64_t>(h->total_size(), size_ - position);
      buf.resize(total);
      auto again = log_.read_at(buf.data(), total, position);
      if (!again)
        return again.error();
      buf.resize(*again);
      if (!protocol::validate_batch(protocol::bytes_view(buf.data(), buf.size())))
        return errc::corrupt_batch;
      return buf;
    }
    if (!protocol::validate_batch(protocol::bytes_view(buf.data() + keep, h->total_size()))) {
      if (keep == 0)
        return errc::corrupt_batch;
      break;
    }
    keep += h->total_size();
  }
  buf.resize(keep);
  return buf;
}

result<int64_t> segment::largest_timestamp() {
  if (!largest_timestamp_known_) {
    if (auto st = open_log_file(); !st)
      return st.error();
    if (auto st = open_indexes(); !st)
      return st.error();
    if (!largest_timestamp_known_) { // open_indexes() may have rebuilt it
      largest_timestamp_ = time_index_.empty() ? -1 : time_index_.back().timestamp;
      largest_timestamp_known_ = true;
    }
  }
  if (largest_timestamp_ >= 0)
    return largest_timestamp_;
  return file_mtime_ms(segment_file_path(dir_, base_offset_, segment_file::log));
}

result<int64_t> segment::first_batch_timestamp() {
  if (!first_batch_timestamp_) {
    first_batch_timestamp_ = protocol::no_timestamp;
    if (size_ > 0) {
      if (auto st = open_log_file(); !st)
        return st.error();
      char header[layout::header_size];
      auto got = log_.read_at(header, sizeof header, 0);
      if (!got)
        return got.error();
      if (auto h = protocol::read_batch_header(protocol::bytes_view(header, *got)))
        first_batch_timestamp_ = h->max_timestamp;
    }
  }
  return *first_batch_timestamp_;
}

result<int64_t> segment::time_waited_for_roll(int64_t now_ms, int64_t incoming_max_timestamp) {
  if (auto first = first_batch_timestamp(); !first)
    return first.error();
  if (*first_batch_timestamp_ >= 0)
    return incoming_max_timestamp - *first_batch_timestamp_;
  if (!created_ms_) { // a segment found at start-up: its file's last change stands in
    auto mtime = file_mtime_ms(segment_file_path(dir_, base_offset_, segment_file::log));
    if (!mtime)
      return mtime.error();
    created_ms_ = *mtime;
  }
  return now_ms - *created_ms_;
}

status segment::truncate_to(int64_t offset) {
  auto loc = find_batch(offset);
  if (!loc)
    return loc.error();
  if (*loc) {
    if (auto st = log_.truncate((*loc)->position); !st)
      return st;
    size_ = (*loc)->position;
  } else if (next_offset_) {
    return {}; // nothing at or after `offset` here
  }
  // Rare (replica divergence): rebuilding the indexes by a scan keeps this simple.
  auto r = recover();
  return r ? status{} : status{r.error()};
}

status segment::persist_indexes() {
  if (!indexes_open_)
    return {};
  if (auto st = offset_index_.persist(); !st)
    return st;
  return time_index_.persist();
}

status segment::seal() {
  if (auto st = open_indexes(); !st)
    return st;
  if (cfg_.preallocate && log_.is_open()) // the reserved blocks past the end go back
    if (auto st = log_.truncate(size_); !st)
      return st;
  if (largest_timestamp_ >= 0
      && (time_index_.empty() || largest_timestamp_ > time_index_.back().timestamp))
    time_index_.push_back({largest_timestamp_,
                           static_cast<int32_t>(offset_of_largest_timestamp_ - base_offset_)});
  return persist_indexes();
}

bool segment::index_full() const noexcept {
  auto limit = static_cast<size_t>(cfg_.index_max_bytes);
  return offset_index_.size() * offset_entry::disk_size + offset_entry::disk_size > limit
         || time_index_.size() * time_entry::disk_size + time_entry::disk_size > limit;
}

status segment::prepare_flush(std::vector<file>& to_sync) {
  if (auto st = persist_indexes(); !st)
    return st;
  if (!dirty_ || !log_.is_open())
    return {};
  auto add = [&to_sync](result<file> f) -> status {
    if (!f)
      return f.error();
    to_sync.push_back(std::move(*f));
    return {};
  };
  if (auto st = add(log_.duplicate()); !st)
    return st;
  if (indexes_open_) {
    if (auto st = add(offset_index_.duplicate_file()); !st)
      return st;
    if (auto st = add(time_index_.duplicate_file()); !st)
      return st;
  }
  dirty_ = false;
  return {};
}

result<std::vector<std::string>> segment::retire() {
  log_.close();
  offset_index_ = index_file<offset_entry>{};
  time_index_ = index_file<time_entry>{};
  indexes_open_ = false;
  std::vector<std::string> renamed;
  for (auto kind : {segment_file::log, segment_file::index, segment_file::timeindex}) {
    auto path = segment_file_path(dir_, base_offset_, kind);
    auto target = path + deleted_suffix;
    if (::rename(path.c_str(), target.c_str()) != 0) {
      if (errno == ENOENT)
        continue;
      return last_system_error();
    }
    renamed.push_back(std::move(target));
  }
  return renamed;
}

result<file> segment::duplicate_log() {
  if (auto st = open_log_file(); !st)
    return st.error();
  return log_.duplicate();
}

status segment::remove() {
  log_.close();
  if (indexes_open_) {
    offset_index_.remove();
    time_index_.remove();
  }
  for (auto kind : {segment_file::log, segment_file::index, segment_file::timeindex}) {
    auto path = segment_file_path(dir_, base_offset_, kind);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT)
      return last_system_error();
  }
  return {};
}

} // namespace cafka::storage
