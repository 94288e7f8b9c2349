#include "storage/clean_job.hpp"

#include <algorithm>
#include <filesystem>

#include "protocol/batch_filter.hpp"
#include "protocol/record_batch.hpp"
#include "storage/batch_walk.hpp"
#include "storage/cleaning_plan.hpp"
#include "storage/errc.hpp"
#include "storage/segment.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {
namespace fs = std::filesystem;

namespace {

// What the cleaner may inflate one compressed batch to (the producer's limit was on the
// compressed size).
size_t decompression_limit(const log_config& cfg) {
  return std::max<size_t>(size_t{256} << 20, static_cast<size_t>(cfg.max_message_bytes) * 16);
}

// The cleaner hands what it keeps to the new segment in pieces of about this size.
constexpr size_t write_chunk_bytes = 1 << 20;

bool is_control(const protocol::batch_header& h) noexcept {
  return (h.attributes & protocol::batch_attributes::control) != 0;
}

bool is_transactional(const protocol::batch_header& h) noexcept {
  return (h.attributes & protocol::batch_attributes::transactional) != 0;
}

// Every batch of a sealed segment, CRC-checked, while `visit` answers true; an error it
// answers ends the walk with that error. A segment that does not read to its end is damaged:
// the round stops rather than drop what follows.
template <class Visit>
status for_each_batch(const file& log, uint64_t size, Visit&& visit) {
  bool stopped = false;
  status failed;
  auto end = walk_batches(log, size, 0, true, stopped,
                          [&](const protocol::batch_header& h, uint64_t, protocol::bytes_view batch) {
                            result<bool> go_on = visit(h, batch);
                            if (!go_on)
                              failed = go_on.error();
                            return go_on && *go_on;
                          });
  if (!end)
    return end.error();
  if (!failed)
    return failed;
  if (!stopped && *end != size)
    return errc::corrupt_batch;
  return {};
}

} // namespace

bool clean_job::aborted(int64_t producer_id, int64_t offset) const {
  auto it = aborted_.find(producer_id);
  if (it == aborted_.end())
    return false;
  return std::any_of(it->second.begin(), it->second.end(),
                     [&](const auto& range) { return offset >= range.first && offset <= range.second; });
}

status clean_job::build_map(offset_map& map) {
  map.clear();
  map_end_ = first_uncleanable_;
  auto limit = decompression_limit(cfg_);
  for (size_t i = 0; i < sources_.size(); ++i) {
    auto& s = sources_[i];
    auto next_base = i + 1 < sources_.size() ? sources_[i + 1].base_offset : end_of_last_;
    if (next_base <= first_dirty_)
      continue; // wholly clean
    bool full = false;
    auto st = for_each_batch(s.log, s.size, [&](const protocol::batch_header& h, protocol::bytes_view batch) -> result<bool> {
      if (h.last_offset() < first_dirty_ || is_control(h)
          || (is_transactional(h) && aborted(h.producer_id, h.base_offset)))
        return true;
      auto walked = protocol::for_each_record(batch, limit, [&](const protocol::record_view& r) {
        if (!full && r.key && !map.put(*r.key, r.offset))
          full = true;
      });
      if (!walked)
        return walked.error();
      if (full)
        map_end_ = h.base_offset; // this batch and the rest wait for the next round
      return !full;
    });
    if (!st)
      return st;
    ++stats_.segments_read;
    if (full)
      break;
  }
  if (map_end_ <= first_dirty_)
    return std::make_error_code(std::errc::not_enough_memory); // not one batch fits the dedupe buffer
  return {};
}

status clean_job::write_group(size_t first, size_t last, const offset_map& map) {
  auto dir = clean_stage_dir(dir_, clean_stage::cleaned);
  auto base = sources_[first].base_offset;
  auto made = segment::create(dir, base, cfg_, now_ms_);
  if (!made)
    return made.error();
  auto& seg = **made;
  auto limit = decompression_limit(cfg_);
  auto horizon = now_ms_ + cfg_.delete_retention_ms;
  std::vector<char> out;
  auto write_out = [&]() -> status {
    if (out.empty())
      return {};
    stats_.bytes_written += out.size();
    auto st = seg.append(protocol::bytes_view{out.data(), out.size()});
    out.clear();
    return st;
  };
  std::vector<aborted_txn> aborted_entries;
  for (size_t i = first; i < last; ++i) {
    auto& s = sources_[i];
    aborted_entries.insert(aborted_entries.end(), s.aborted.begin(), s.aborted.end());
    stats_.bytes_read += s.size;
    auto st = for_each_batch(s.log, s.size, [&](const protocol::batch_header& h, protocol::bytes_view batch) -> result<bool> {
      stats_.records_read += static_cast<uint64_t>(h.record_count);
      if (is_control(h)) {
        out.insert(out.end(), batch.begin(), batch.end());
      } else {
        bool drop_all = is_transactional(h) && aborted(h.producer_id, h.base_offset);
        auto tombstones_expire = protocol::delete_horizon_of(h).value_or(INT64_MAX) <= now_ms_;
        auto keep = [&](const protocol::record_view& r) {
          if (drop_all)
            return false;
          if (r.offset >= map_end_)
            return true;
          if (!r.key || r.offset < map.get(*r.key))
            return false;
          return r.value || !tombstones_expire;
        };
        auto filtered = protocol::filter_batch(batch, limit, keep, horizon, out);
        if (!filtered)
          return filtered.error();
        stats_.records_kept += static_cast<uint64_t>(filtered->kept);
        if (filtered->outcome == protocol::filter_outcome::emptied && h.producer_id >= 0) {
          auto last_data = last_data_offset_.find(h.producer_id);
          if (last_data != last_data_offset_.end() && last_data->second == h.last_offset())
            protocol::append_empty_batch(h, out);
        }
      }
      if (out.size() >= write_chunk_bytes)
        if (auto st = write_out(); !st)
          return st.error();
      return true;
    });
    if (!st)
      return st;
  }
  if (auto st = write_out(); !st)
    return st;
  if (auto st = seg.seal(); !st)
    return st;
  std::vector<file> to_sync;
  if (auto st = seg.prepare_flush(to_sync); !st)
    return st;
  if (!aborted_entries.empty()) {
    auto index = file::open(segment_file_path(dir, base, segment_file::txnindex), file::mode::read_write_create);
    if (!index)
      return index.error();
    std::string bytes;
    for (auto& t : aborted_entries)
      bytes += encode_aborted_txn(t);
    if (auto st = index->append(bytes.data(), bytes.size()); !st)
      return st;
    to_sync.push_back(std::move(*index));
  }
  for (auto& f : to_sync)
    if (auto st = f.sync(); !st)
      return st;
  auto end = last < sources_.size() ? sources_[last].base_offset : end_of_last_;
  ranges_.push_back({base, end});
  range_aborted_.push_back(std::move(aborted_entries));
  ++stats_.segments_written;
  return {};
}

status clean_job::run(offset_map& map) {
  auto cleaned = clean_stage_dir(dir_, clean_stage::cleaned);
  std::error_code ec;
  fs::remove_all(cleaned, ec); // what a clean the log gave up left
  if (ec)
    return ec;
  if (auto st = build_map(map); !st)
    return st;
  // The segments below map_end() are rewritten.
  std::vector<segment_summary> rewritten;
  for (auto& s : sources_)
    if (s.base_offset < map_end_)
      rewritten.push_back({s.base_offset, s.size, -1, -1});
  auto end = rewritten.size() < sources_.size() ? sources_[rewritten.size()].base_offset : end_of_last_;
  fs::create_directory(cleaned, ec);
  if (ec)
    return ec;
  for (auto [first, last] : group_segments(rewritten, end, static_cast<uint64_t>(cfg_.segment_bytes)))
    if (auto st = write_group(first, last, map); !st)
      return st;
  return write_clean_manifest(cleaned, ranges_);
}

} // namespace cafka::storage
