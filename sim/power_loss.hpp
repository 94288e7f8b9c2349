#pragma once
// What a power loss leaves of one partition log (sim::cluster::crash with
// crash_mode::machine): everything below the recovery point (fsynced) survives; of the
// rest, the disk may hold any prefix of what was written — possibly ending inside a batch
// (a torn write), which the log's recovery at the next open must cut away.
//
// Model, in two steps because the log's files must be closed in between:
//   1. cut_unflushed(log, keep_fraction): reads the bytes written after the recovery point
//      in the segment that holds it, truncates the log to the recovery point (later
//      segments go whole) and returns the prefix that stays on disk;
//   2. once the log object is gone, write_torn_tail(tail) appends that prefix to the
//      segment file again.
// keep_fraction (0..1, drawn from the seed by the caller) picks the prefix length; 0 keeps
// nothing (the clean cut of earlier versions). No CAF here: unit-tested with the storage
// alone (tests/client/sim_power_loss_test.cpp).

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::storage {
class partition_log;
}

namespace cafka::sim {

struct torn_tail {
  std::string segment_path; ///< the .log file that held the recovery point
  std::vector<char> bytes;  ///< what stays on disk after the recovery point
  int64_t lost_offsets = 0; ///< log end - recovery point before the cut
};

/// Step 1 (see above). Nothing to do (an empty tail, lost_offsets 0) when the log is
/// flushed up to its end.
result<torn_tail> cut_unflushed(storage::partition_log& log, double keep_fraction);

/// Step 2: appends tail.bytes to tail.segment_path (no fsync: the machine is off).
status write_torn_tail(const torn_tail& tail);

} // namespace cafka::sim
