#pragma once
// One round of the log cleaner over a partition log (Kafka's Cleaner.doClean), detached from
// the log like flush_job: partition_log::prepare_clean() describes the sealed segments to
// clean (with descriptors of their files), run() does the blocking work on any thread, and
// partition_log::complete_clean() swaps the result in (storage/clean_swap.hpp).
//
// run():
//   1. the offset map: every keyed record of [first dirty, first uncleanable), skipping
//      control batches and the batches of aborted transactions, maps its key to its offset.
//      When the map is full the round stops at the last whole batch mapped (map_end()); the
//      rest waits for the next round.
//   2. the segments from the log start through the one holding map_end() - 1 are rewritten in
//      groups (cleaning_plan.hpp: group_segments) into <dir>/cleaned/, each group one
//      segment named after its first. A record is kept when it lies at or past map_end(), or
//      has a key and is the latest of that key the map knows (or the map does not know the
//      key), and is not a tombstone whose delete horizon has passed. Batches of aborted
//      transactions go whole. Control batches (transaction markers) stay. A batch left
//      without records goes, except the last data batch of a producer the log still tracks,
//      whose header stays (61 bytes: its producer state survives a reload). Kept tombstones
//      get a delete horizon of now + delete.retention.ms the first time a clean keeps them.
//   3. the transaction index entries of each group's segments go with it; the manifest is
//      written and everything fsynced.
//
// Kafka also removes transaction markers once nothing of their transaction is left and
// their delete horizon has passed; this cleaner keeps every marker (a few bytes each).

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "protocol/result.hpp"
#include "storage/aborted_txn_index.hpp"
#include "storage/clean_swap.hpp"
#include "storage/file.hpp"
#include "storage/log_config.hpp"
#include "storage/offset_map.hpp"

namespace cafka::storage {

/// What a round did.
struct clean_stats {
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  uint64_t records_read = 0;
  uint64_t records_kept = 0;
  size_t segments_read = 0;
  size_t segments_written = 0;
};

class clean_job {
public:
  /// Builds the map in `map` (cleared first) and writes the cleaned segments. Blocking.
  status run(offset_map& map);

  int64_t first_dirty() const noexcept { return first_dirty_; }
  /// The first offset the map did not cover: the next round's first dirty offset.
  int64_t map_end() const noexcept { return map_end_; }
  const std::vector<swap_range>& ranges() const noexcept { return ranges_; }
  const clean_stats& stats() const noexcept { return stats_; }

private:
  friend class partition_log;

  struct source {
    int64_t base_offset = 0;
    uint64_t size = 0;
    file log; ///< a descriptor of its own
    std::vector<aborted_txn> aborted; ///< its transaction index entries
  };

  status build_map(offset_map& map);
  status write_group(size_t first, size_t last, const offset_map& map);
  bool aborted(int64_t producer_id, int64_t offset) const;

  std::string dir_;
  log_config cfg_;
  int64_t now_ms_ = 0;
  int64_t first_dirty_ = 0;
  int64_t first_uncleanable_ = 0;
  /// Segment i ends where segment i + 1 begins; the last one ends at end_of_last_.
  std::vector<source> sources_;
  int64_t end_of_last_ = 0;
  /// The last data batch's last offset of each producer the log tracks.
  std::unordered_map<int64_t, int64_t> last_data_offset_;
  /// Aborted transactions by producer: (first offset, marker offset).
  std::unordered_map<int64_t, std::vector<std::pair<int64_t, int64_t>>> aborted_;

  int64_t map_end_ = 0;
  std::vector<swap_range> ranges_;
  std::vector<std::vector<aborted_txn>> range_aborted_; ///< the transaction index of each new segment
  clean_stats stats_;
};

} // namespace cafka::storage
