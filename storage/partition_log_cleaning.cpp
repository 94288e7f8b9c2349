// partition_log's side of compaction (storage/clean_job.hpp, storage/clean_swap.hpp): the
// cleaner's round described from the log's segments, the swap, and the cleaner's checkpoint.
#include <filesystem>

#include "storage/cleaning_plan.hpp"
#include "storage/errc.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

bool partition_log::gaps_allowed(int64_t base) const noexcept {
  return cfg_.cleanup_compact || base < cleaner_offset_;
}

// A damaged or missing file means no clean yet: the next round starts at the log start.
status partition_log::load_cleaner_offset() {
  auto text = read_file_if_present(dir_ + '/' + cleaner_offset_file_name);
  if (!text)
    return text.error();
  cleaner_offset_ = -1;
  if (*text) {
    char* end = nullptr;
    long long v = std::strtoll((*text)->c_str(), &end, 10);
    if (end != (*text)->c_str() && *end == '\n' && v >= 0)
      cleaner_offset_ = v;
  }
  return {};
}

// Without fsync, as save_start_offset(): prepare_flush() syncs it.
status partition_log::save_cleaner_offset() {
  if (auto st = replace_file(dir_ + '/' + cleaner_offset_file_name, std::to_string(cleaner_offset_) + '\n'); !st)
    return st;
  cleaner_file_unsynced_ = true;
  dir_dirty_ = true;
  return {};
}

result<std::optional<cleanable_range>> partition_log::cleanable(int64_t last_stable_offset, int64_t now_ms) {
  if (!cfg_.cleanup_compact || segments_.size() < 2 || health_->offline())
    return std::optional<cleanable_range>{};
  cleaning_inputs in;
  for (size_t i = 0; i < segments_.size(); ++i) {
    auto& s = *segments_[i];
    segment_summary summary{s.base_offset(), s.size(), -1, -1};
    if (i + 1 < segments_.size() && cfg_.min_compaction_lag_ms > 0) {
      auto t = s.largest_timestamp();
      if (!t)
        return t.error();
      summary.largest_timestamp = *t;
    }
    if (i + 1 < segments_.size() && cfg_.max_compaction_lag_ms < INT64_MAX) {
      auto t = s.first_batch_timestamp();
      if (!t)
        return t.error();
      summary.first_batch_timestamp = *t;
    }
    in.segments.push_back(summary);
  }
  in.log_start_offset = log_start_offset();
  in.log_end_offset = log_end_offset();
  in.last_stable_offset = std::min(last_stable_offset, log_end_offset());
  in.checkpoint = cleaner_offset_;
  in.now_ms = now_ms;
  in.min_compaction_lag_ms = cfg_.min_compaction_lag_ms;
  in.max_compaction_lag_ms = cfg_.max_compaction_lag_ms;
  return std::optional<cleanable_range>{cleanable_range_of(in)};
}

result<std::optional<clean_job>> partition_log::prepare_clean(int64_t last_stable_offset, int64_t now_ms) {
  auto found = cleanable(last_stable_offset, now_ms);
  if (!found)
    return found.error();
  if (!*found || !(*found)->due(cfg_.min_cleanable_dirty_ratio))
    return std::optional<clean_job>{};
  auto& range = **found;
  clean_job job;
  job.dir_ = dir_;
  job.cfg_ = cfg_;
  job.now_ms_ = now_ms;
  job.first_dirty_ = range.first_dirty;
  job.first_uncleanable_ = range.first_uncleanable;
  size_t i = 0;
  for (; segments_[i]->base_offset() < range.first_uncleanable; ++i) { // (the active one is not)
    auto& s = *segments_[i];
    auto log = s.duplicate_log();
    if (!log)
      return log.error();
    job.sources_.push_back({s.base_offset(), s.size(), std::move(*log), txn_index_.entries_of(s.base_offset())});
  }
  job.end_of_last_ = segments_[i]->base_offset();
  // Aborted transactions whose data may lie in the range, whichever segment their marker is in.
  for (auto& s : segments_)
    for (auto& t : txn_index_.entries_of(s->base_offset()))
      if (t.first_offset < range.first_uncleanable)
        job.aborted_[t.producer_id].emplace_back(t.first_offset, t.last_offset);
  for (auto& [producer_id, entry] : producers_.entries())
    if (!entry.batches.empty())
      job.last_data_offset_[producer_id] = entry.batches.back().last_offset;
  return std::optional<clean_job>{std::move(job)};
}

result<clean_outcome> partition_log::complete_clean(clean_job& job) {
  clean_outcome out;
  auto& sources = job.sources_;
  // The segments the job read must still be the log's first ones, as they were.
  if (sources.size() >= segments_.size() || segments_[sources.size()]->base_offset() != job.end_of_last_)
    return out;
  for (size_t i = 0; i < sources.size(); ++i)
    if (segments_[i]->base_offset() != sources[i].base_offset || segments_[i]->size() != sources[i].size)
      return out;
  // The checkpoint first: at the next open, gaps below it are the cleaner's (gaps_allowed).
  cleaner_offset_ = job.map_end_;
  if (auto st = save_cleaner_offset(); !st)
    return st.error();
  // From here on a failure leaves the folder between two states the next open repairs; the
  // log stops taking writes until then.
  auto failed = [this](std::error_code ec) -> result<clean_outcome> {
    health_->take_offline(ec);
    return ec;
  };
  if (auto st = start_swap(dir_); !st)
    return failed(st.error());
  std::vector<std::unique_ptr<segment>> kept;
  size_t i = 0;
  for (size_t r = 0; r < job.ranges_.size(); ++r) {
    auto& range = job.ranges_[r];
    for (; i < segments_.size() && segments_[i]->base_offset() < range.end; ++i) {
      auto base = segments_[i]->base_offset();
      auto files = segments_[i]->retire();
      if (!files)
        return failed(files.error());
      out.deleted_files.insert(out.deleted_files.end(), files->begin(), files->end());
      auto index = txn_index_.retire(base);
      if (!index)
        return failed(index.error());
      if (*index)
        out.deleted_files.push_back(**index);
    }
  }
  if (auto st = old_segments_gone(dir_); !st)
    return failed(st.error());
  if (auto st = move_cleaned_in(dir_); !st)
    return failed(st.error());
  for (size_t r = 0; r < job.ranges_.size(); ++r) {
    auto base = job.ranges_[r].base;
    std::error_code ec;
    auto size = std::filesystem::file_size(segment_file_path(dir_, base, segment_file::log), ec);
    if (ec)
      return failed(ec);
    kept.push_back(segment::existing(dir_, base, size, cfg_));
    txn_index_.adopt(base, std::move(job.range_aborted_[r]));
  }
  for (; i < segments_.size(); ++i)
    kept.push_back(std::move(segments_[i]));
  segments_ = std::move(kept);
  dir_dirty_ = true;
  out.swapped = true;
  return out;
}

} // namespace cafka::storage
