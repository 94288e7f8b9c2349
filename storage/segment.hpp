#pragma once
// One segment of a partition log: <base>.log holds record batches back to back, with a
// sparse <base>.index (offset -> position) and <base>.timeindex (timestamp -> offset).
//
// A segment never interprets records: it reads the 61-byte batch header only (and the
// CRC during recovery). Its log file descriptor and indexes are opened lazily, so that
// opening a log of thousands of sealed segments costs a directory listing.
//
// Offsets: base_offset() is the offset in the file name; a batch's base offset is its
// first record; next_offset() is one past the last record of the last batch.
// Not thread-safe: the owning partition_log calls everything.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/result.hpp"
#include "storage/file.hpp"
#include "storage/index_entries.hpp"
#include "storage/index_file.hpp"
#include "storage/log_config.hpp"

namespace cafka::storage {

/// Where a batch sits in a segment.
struct batch_location {
  protocol::batch_header header;
  uint64_t position = 0;
};

/// What a CRC-checking scan of a segment found.
struct scan_summary {
  uint64_t valid_bytes = 0;     ///< bytes of good batches from the start of the file
  uint64_t discarded_bytes = 0; ///< bytes after them (torn or corrupt), truncated away
  int64_t next_offset = 0;      ///< one past the last good record (base offset if none)
  size_t batches = 0;           ///< good batches
};

class segment {
public:
  /// Creates a new, empty segment (its files are created or emptied).
  static result<std::unique_ptr<segment>> create(std::string dir, int64_t base_offset,
                                                 const log_config& cfg, int64_t now_ms);
  /// Describes an existing segment of `log_size` bytes without reading it.
  static std::unique_ptr<segment> existing(std::string dir, int64_t base_offset,
                                           uint64_t log_size, const log_config& cfg);

  segment(const segment&) = delete;
  segment& operator=(const segment&) = delete;

  int64_t base_offset() const noexcept { return base_offset_; }
  uint64_t size() const noexcept { return size_; }
  /// One past the last record; known once the segment was appended to, scanned, or
  /// its last batch located (load_tail()). Sealed trusted segments may not know it.
  std::optional<int64_t> next_offset() const noexcept { return next_offset_; }

  /// Scans every batch from position 0, checking length, magic, offsets and CRC;
  /// truncates the file at the first bad batch and rebuilds both indexes. `on_batch`
  /// sees the header of each good batch, in order (the log rebuilds leader epochs).
  /// Offsets must be dense, or with `allow_gaps` (a compacted log) only increase.
  result<scan_summary> recover(const std::function<void(const protocol::batch_header&)>& on_batch = {},
                               bool allow_gaps = false);
  /// For a segment trusted after a clean shutdown that becomes the active one: loads its
  /// indexes and walks the headers after the last index entry to learn next_offset().
  status load_tail();

  /// The headers of the batches from the one holding `from_offset` to the end, in order:
  /// a walk of headers only (no CRC), how the log replays producer state after a snapshot.
  status visit_headers(int64_t from_offset,
                       const std::function<void(const protocol::batch_header&, uint64_t position)>& visit);

  /// Appends batches that were validated and given their offsets by the caller.
  status append(protocol::bytes_view batches);

  /// The first batch whose last offset is >= `offset`, or nothing when none is.
  result<std::optional<batch_location>> find_batch(int64_t offset);
  /// The first batch whose max timestamp is >= `timestamp` (Kafka's approximation
  /// through the time index), or nothing.
  result<std::optional<batch_location>> find_batch_by_timestamp(int64_t timestamp);
  /// Whole batches from `position`: at most `max_bytes`, but at least the first batch,
  /// and none whose base offset is >= `end_offset`.
  result<std::vector<char>> read(uint64_t position, size_t max_bytes, int64_t end_offset);

  /// The largest timestamp of any batch (file mtime when no batch has one).
  result<int64_t> largest_timestamp();
  /// The max timestamp of the first batch; -1 when there is none or it has none.
  result<int64_t> first_batch_timestamp();
  /// Kafka's LogSegment.timeWaitedForRoll, compared with log.roll.ms: the incoming
  /// batches' max timestamp minus the first batch's, or, when the first batch has no
  /// timestamp, the time since the segment was created (its file's mtime if it was found
  /// at start-up). Old CreateTime records thus do not roll a segment per append.
  result<int64_t> time_waited_for_roll(int64_t now_ms, int64_t incoming_max_timestamp);
  /// How much earlier than roll_ms this segment rolls: a random share of segment.jitter.ms
  /// drawn when it was created or found (Kafka's rollJitterMs).
  int64_t roll_jitter_ms() const noexcept { return roll_jitter_ms_; }

  /// Removes every batch whose last offset is >= `offset` (a batch holding `offset` goes
  /// whole, as in Kafka).
  status truncate_to(int64_t offset);
  /// Writes the index entries still held in memory to the index files (no fsync).
  status persist_indexes();
  /// Called when the segment stops being the active one: adds the final time index entry.
  status seal();
  bool index_full() const noexcept;
  /// A second descriptor of the log file, for reading it on another thread (the cleaner):
  /// a sealed segment's bytes do not change, and a descriptor outlives a rename.
  result<file> duplicate_log();
  /// Deletes the segment's files.
  status remove();
  /// Closes the segment and renames its files to <name>.deleted, returning the new
  /// paths: unlinking large files can block, so the caller does it elsewhere.
  result<std::vector<std::string>> retire();
  /// Writes pending index entries and hands out duplicate descriptors of every file
  /// that needs an fdatasync (none if nothing changed since the last one).
  status prepare_flush(std::vector<file>& to_sync);

private:
  segment(std::string dir, int64_t base_offset, const log_config& cfg);
  status open_log_file();
  status open_indexes(bool fresh = false);
  status check_indexes();
  void reset_index_state();
  void index_batch(const protocol::batch_header& h, uint64_t position);

  std::string dir_;
  int64_t base_offset_;
  log_config cfg_;
  uint64_t size_ = 0;
  std::optional<int64_t> next_offset_;
  file log_;
  bool indexes_open_ = false;
  index_file<offset_entry> offset_index_;
  index_file<time_entry> time_index_;
  // State of the index writer (Kafka's bytesSinceLastIndexEntry and max-timestamp-so-far).
  uint64_t bytes_since_index_entry_ = 0;
  int64_t largest_timestamp_ = -1;
  int64_t offset_of_largest_timestamp_ = -1;
  bool largest_timestamp_known_ = false;
  std::optional<int64_t> first_batch_timestamp_; ///< max timestamp of batch 0; -1: none
  std::optional<int64_t> created_ms_;
  int64_t roll_jitter_ms_ = 0;
  bool dirty_ = false;
};

} // namespace cafka::storage
