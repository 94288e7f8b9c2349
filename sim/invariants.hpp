#pragma once
// The invariants a randomized simulation run must keep (issue 7, point 5), as a pure
// check over what the run observed (no CAF, no cluster): tests/client/sim_runner_test.cpp
// gathers the observations, check_invariants() lists every violation as a line of text.
//
// Checked (replication factor 1; reads are made once every broker is back):
// - no acknowledged record lost: each acknowledged (topic, partition, offset) is read back
//   at that offset, with the acknowledged key and value;
// - each partition read from offset 0 to its log end has dense, increasing offsets
//   (0, 1, 2, ...) and ends at the log end offset;
// - no committed offset beyond its partition's log end (nor for an unknown partition);
// - no record skipped by a group: every offset below a group's committed offset was
//   delivered to one of its members at least once (at-least-once; redelivery is allowed),
//   and what a member got at an offset is what the log holds there.
// Partitions that a machine crash may have cut back (`lossy`) are exempt from both group
// checks: their offsets may have been given to other records since, and a commit made
// before the crash may lie beyond the shorter log (a member that then fetches gets
// OFFSET_OUT_OF_RANGE and resets, but cafka's member commits only what it consumed, so
// the old commit stays until the group consumes past it — Kafka's consumer would commit
// the reset position).
// - at most one controller per controller epoch.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace cafka::sim {

using partition_key = std::pair<std::string, int32_t>; ///< topic, partition

struct acked_record {
  std::string topic;
  int32_t partition = 0;
  int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;
  /// Acknowledged before a machine crash of its leader that the flush policy allowed to
  /// lose it: not checked (its offset may hold a later record now).
  bool may_be_lost = false;
};

struct read_record {
  int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;
};

/// One partition read from offset 0 (in the order the consumer got the records).
struct partition_read {
  int64_t log_end = 0; ///< the log end offset the broker reported
  std::vector<read_record> records;
};

struct committed_offset {
  std::string group;
  std::string topic;
  int32_t partition = 0;
  int64_t offset = 0; ///< the next offset to read
};

/// A record a group member's consumer actor got.
struct delivered_record {
  std::string group;
  std::string topic;
  int32_t partition = 0;
  int64_t offset = 0;
  std::optional<std::string> value;
};

/// "Broker X saw controller C in epoch E" (a view, or a trace line).
struct controller_sighting {
  int64_t epoch = 0;
  int32_t controller = 0;
  std::string where; ///< for the report
};

struct run_observations {
  std::vector<acked_record> acked;
  std::map<partition_key, partition_read> reads;
  std::vector<committed_offset> commits;
  std::vector<delivered_record> deliveries;
  std::set<partition_key> lossy; ///< may have lost acknowledged records (see above)
  std::vector<controller_sighting> controllers;
};

/// Every violation, one line each; empty when the run kept every invariant.
std::vector<std::string> check_invariants(const run_observations& obs);

/// The controller sightings in a sim::cluster trace: every "... controller C (epoch E)"
/// of a view line and every "controller is now broker C (epoch E)".
std::vector<controller_sighting> controllers_in_trace(const std::vector<std::string>& trace);

} // namespace cafka::sim
