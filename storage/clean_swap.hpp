#pragma once
// Putting cleaned segments in the place of the segments they were cleaned from, so that a
// crash at any step leaves the log as it was before the clean or as it is after it (our
// equivalent of Kafka's .cleaned / .swap suffixes, with sub-folders instead of suffixes):
//
//   step                                                  a crash after it, at the next open
//   1. the cleaner writes the new segments into <dir>/cleaned/   cleaned/ is removed
//      (.log, .index, .timeindex, .txnindex when it has
//      entries) and a manifest naming, per new segment, its
//      base offset B and the end E of the old segments it
//      replaces (those whose base offset is in [B, E)); all
//      fsynced
//   2. cleaned/ is renamed to swap/                              the old segments' files in the
//                                                                manifest's ranges are deleted,
//                                                                then as after 3
//   3. the old segments' files are renamed to *.deleted (the     the files of moving/ are renamed
//      caller unlinks them later), then swap/ to moving/        into <dir>, then as after 4
//   4. each file of moving/ is renamed into <dir>; the manifest   nothing left to do
//      and moving/ are removed
//
// The renames are not fsynced here (they run on the log's owner): a killed process leaves
// one of the states above; the log's next flush fsyncs the folder.

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::storage {

enum class clean_stage { cleaned, swap, moving };

/// "<dir>/cleaned", "<dir>/swap", "<dir>/moving".
std::string clean_stage_dir(const std::string& dir, clean_stage stage);

/// One new segment and the old ones it replaces: those with base offsets in [base, end).
struct swap_range {
  int64_t base = 0;
  int64_t end = 0;
  friend bool operator==(const swap_range& a, const swap_range& b) { return a.base == b.base && a.end == b.end; }
};

/// Step 1's manifest (one "base end" line per range), written durably into `stage_dir`.
status write_clean_manifest(const std::string& stage_dir, const std::vector<swap_range>& ranges);
/// Errors: a missing or malformed manifest (errc::corrupt_checkpoint).
result<std::vector<swap_range>> read_clean_manifest(const std::string& stage_dir);

/// Step 2.
status start_swap(const std::string& dir);
/// Step 3's last part, once the old segments' files are gone.
status old_segments_gone(const std::string& dir);
/// Step 4.
status move_cleaned_in(const std::string& dir);

/// At open, before the segment files are listed: completes or rolls back an interrupted
/// clean as the table above says. Blocking. (A clean the log gave up after step 1 leaves
/// cleaned/ for the next clean, which starts by removing it, or for this.)
status repair_interrupted_clean(const std::string& dir);

} // namespace cafka::storage
