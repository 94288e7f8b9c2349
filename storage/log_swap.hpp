#pragma once
// Replacing a partition's folder D by a rewritten copy, so that a crash at any moment
// leaves one complete log (used by the __consumer_offsets store to drop superseded
// records; see actors/offset_log_store.hpp):
//
//   1. create_log_at(D.cleaned, ...)   a fresh log; the caller appends the copy and flushes it
//   2. swap_in(D)                      rename D -> D.deleted, then D.cleaned -> D
//   3. finish_swap(D)                  fsync the parent, remove D.deleted, fsync the parent
//
// repair_interrupted_swap(D), before D is opened, turns what a crash left into one of
// those complete states:
//
//   D exists                 D is complete (the old log before step 2 took every append;
//                            the new one after it): D.cleaned and D.deleted are removed
//   D.deleted and D.cleaned  between the two renames: D.cleaned was complete before step 2
//                            began, so it becomes D and D.deleted is removed
//   D.deleted alone          (no step leaves this) renamed back to D
//   D.cleaned alone          (no step leaves this) renamed to D: the only copy there is
//
// The names end in ".cleaned"/".deleted", which storage::parse_partition_dir_name does not
// take for partition folders. Blocking file-system calls throughout.

#include <cstdint>
#include <memory>
#include <string>

#include "protocol/result.hpp"
#include "storage/log_config.hpp"
#include "storage/partition_log.hpp"

namespace cafka::storage {

/// "<dir>.cleaned": where the rewritten copy of `dir` is built.
std::string cleaned_path(const std::string& dir);
/// "<dir>.deleted": where `dir` goes while the copy takes its place.
std::string deleted_path(const std::string& dir);

/// A new, empty log in `dir` (whatever was there is removed first) whose first offset is
/// `base_offset`, so that a rewritten log continues the offsets of the one it replaces.
result<std::unique_ptr<partition_log>> create_log_at(const std::string& dir, const log_config& cfg,
                                                     int64_t base_offset, int64_t now_ms);

/// Step 2: the complete copy in cleaned_path(dir) takes the place of `dir`, which moves
/// to deleted_path(dir). The logs of both folders must be closed. On failure of the
/// second rename the first is undone.
status swap_in(const std::string& dir);

/// Step 3: makes the renames durable and removes deleted_path(dir).
status finish_swap(const std::string& dir);

/// What repair_interrupted_swap found.
enum class swap_repair { none, rolled_back, finished };

/// Puts `dir` into a complete state after a crash (see the top of this header).
result<swap_repair> repair_interrupted_swap(const std::string& dir);

} // namespace cafka::storage
