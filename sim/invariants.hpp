#pragma once
// The invariants a randomized simulation run must keep (issue 7, point 5; replication,
// issue 8), as a pure check over what the run observed (no CAF, no cluster):
// tests/client/sim_runner.cpp gathers the observations, check_invariants() lists every
// violation as a line of text. Reads are made once every broker is back and every replica
// has caught up.
//
// What "exposed" means. A broker whose machine crashed (unflushed bytes gone: the plan
// does not fsync each message) may restart with a log shorter than what was committed, yet
// still in a partition's ISR as the coordinator records it: as the last ISR member (the
// partition stayed offline: no other ISR member was live when its session expired — the
// others were down, out of sync or cut off from the coordinator), or because no controller
// acted on its expiry (the controller was paused, cut off or down then; Kafka's ZooKeeper
// controller misses such a bounce too). It may then lead again, and acknowledged records
// only the others had are gone, by Kafka's design (no unclean election; the "last replica
// standing" of KIP-966). The partition is at risk from that restart until the broker has
// fetched back what the others held, or left the ISR; the runner records when that window
// ends (`exposures`), and records acknowledged or delivered before it are exempt. With at
// most one machine lost at a time (the plans keep that) a partition with
// min.insync.replicas=2 is exposed only when another failure overlaps: another replica down,
// out of the ISR or cut off from the coordinator, or the controller unavailable, when the
// crashed broker's session expired. Kafka promises that acks=all with min.insync.replicas=2
// survives the loss of one replica, not of one machine while the cluster cannot act on it.
//
// Checked:
// - no acknowledged record lost nor moved: each acknowledged (topic, partition, offset) is
//   read back at that offset with the acknowledged key and value, unless it `may_be_lost`:
//   acknowledged before an exposure of its partition, or acknowledged with acks=1 on a
//   partition with more than one replica (the leader answers before its followers have the
//   record; a leader change can then drop it, by Kafka's design). So acks=all records
//   (min.insync.replicas 1 or 2: with 1 the ISR may have shrunk to the leader, which then
//   holds the only copy, but a process crash keeps it and unclean election is off) and
//   every record of replication factor 1 are checked through every crash, stop, cut and
//   pause unless an exposure followed them (with log.flush.interval.messages=1 there is none);
// - none duplicated (idempotent producers, issue 17): a value an idempotent producer sent is
//   read back at most once in its partition, whatever retries drops, cuts and leader
//   failovers caused (acknowledged or not: a failed send may still have been written once);
// - order kept: two checked records of one producer and partition lie in the order it sent them;
// - each partition read from offset 0 to its high watermark has dense, increasing offsets
//   (0, 1, 2, ...) and ends at the high watermark;
// - replicas identical below the high watermark: every replica's log (read from its files at
//   the end) decodes, has dense offsets from its log start, and holds below min(high
//   watermark, its log end) the leader's records at the same offsets (key, value and the
//   leader epoch of the batch); the leader's log below the high watermark is what the
//   consumer read back. Not for `resumed` partitions: a machine-crashed broker that came
//   back to lead at the same leader epoch (no controller saw it leave) writes new records at
//   offsets its followers hold older ones of that epoch at, and the epochs cannot tell them
//   apart (Kafka's followers keep such a prefix as well);
// - no consumer read a record that was later lost: every record a group member got is in
//   the final log at that offset with that value, unless an exposure of its partition came
//   after it was delivered;
// - no committed offset beyond its partition's log end (nor for an unknown partition);
// - no record skipped by a group: every offset below a group's committed offset was
//   delivered to one of its members at least once (at-least-once; redelivery is allowed).
//   Partitions ever exposed (`lossy`) are exempt from these two group checks: their offsets
//   may have been given to other records since, and a commit made before the crash may lie
//   beyond the shorter log (a member that then fetches gets OFFSET_OUT_OF_RANGE and resets,
//   but cafka's member commits only what it consumed, so the old commit stays until the
//   group consumes past it — Kafka's consumer would commit the reset position).
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
  /// Not checked (see above); its offset may hold another record now.
  bool may_be_lost = false;
  /// Who sent it and its place in that producer's sends (for "order kept"); -1: unknown.
  int producer = -1;
  int64_t sequence = -1;
};

struct read_record {
  int64_t offset = 0;
  std::optional<std::string> key;
  std::optional<std::string> value;
};

/// One partition read from offset 0 (in the order the consumer got the records).
struct partition_read {
  int64_t log_end = 0; ///< what the leader reported as the end (its high watermark)
  std::vector<read_record> records;
};

/// One record of a replica's log file, with the leader epoch its batch carries.
struct replica_record {
  int64_t offset = 0;
  int32_t leader_epoch = -1;
  std::optional<std::string> key;
  std::optional<std::string> value;
};

/// A replica's whole log at the end of the run.
struct replica_contents {
  int32_t broker = 0;
  bool leader = false;
  int64_t log_start = 0;
  int64_t log_end = 0;
  std::vector<replica_record> records;
  std::string error; ///< a read or decode failure (records stop before it)
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
  int64_t at_ms = -1; ///< simulated time it arrived; -1: unknown (checked only if never exposed)
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
  /// Simulated times (ms) at which each partition was exposed (see above).
  std::map<partition_key, std::vector<int64_t>> exposures;
  std::set<partition_key> lossy; ///< ever exposed (see above)
  /// Partitions a machine-crashed broker came back to lead at the same leader epoch (no
  /// controller saw it leave): not checked for identical replicas (see above).
  std::set<partition_key> resumed;
  /// Every replica's final log, per partition (empty: not read; no replica check).
  std::map<partition_key, std::vector<replica_contents>> replicas;
  std::vector<controller_sighting> controllers;
  /// The values sent by idempotent producers (each at most once in the log).
  std::set<std::string> idempotent_values;
};

/// True if `tp` was exposed at or after `t_ms`.
bool exposed_after(const run_observations& obs, const partition_key& tp, int64_t t_ms);

/// Every violation, one line each; empty when the run kept every invariant.
std::vector<std::string> check_invariants(const run_observations& obs);

/// The controller sightings in a sim::cluster trace: every "... controller C (epoch E)"
/// of a view line and every "controller is now broker C (epoch E)".
std::vector<controller_sighting> controllers_in_trace(const std::vector<std::string>& trace);

} // namespace cafka::sim
