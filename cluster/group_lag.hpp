#pragma once
// What cafka-consumer-groups shows and changes, as pure functions: the per-partition table of
// --describe (committed offset, log end, lag, the member that holds the partition) and the
// new offsets of --reset-offsets. The tool gathers the inputs from the node (the group's
// description, its committed offsets, each partition's start and end) and prints the rows.
//
// As kafka-consumer-groups.sh: a partition is listed if the group committed an offset for it or
// a member holds it; lag = log end - committed, unknown ("-") without a commit. Members'
// assignments are read from the consumer protocol's bytes when the group's protocol type is
// "consumer" (other groups hold no partitions in the table).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/group_description.hpp"
#include "protocol/topic_partition.hpp"

namespace cafka::cluster {

using topic_partition = protocol::topic_partition;

/// A partition's log start and end (high watermark).
struct partition_bounds {
  int64_t log_start = 0;
  int64_t log_end = 0;
};

struct group_lag_row {
  topic_partition tp;
  std::optional<int64_t> committed; ///< none: the group never committed this partition
  std::optional<int64_t> log_end;   ///< none: the partition is unknown to the node
  std::optional<int64_t> lag;       ///< log_end - committed (not below 0), when both are known
  std::string member_id;            ///< empty: no member holds the partition
  std::string client_host;
  std::string client_id;
};

/// The rows, ordered by topic and partition.
std::vector<group_lag_row> group_lag(const group_description& group,
                                     const std::map<topic_partition, int64_t>& committed,
                                     const std::map<topic_partition, partition_bounds>& bounds);

/// The partitions each member holds, decoded from its assignment (consumer protocol only; a
/// member whose bytes do not decode holds none).
std::map<topic_partition, const member_description*> partition_owners(const group_description& group);

/// Offsets may be reset only while nobody consumes: Kafka refuses a group with members.
bool is_inactive(group_phase state) noexcept;

enum class reset_target { earliest, latest, offset };

struct reset_spec {
  reset_target target = reset_target::earliest;
  int64_t offset = 0; ///< for reset_target::offset
};

struct reset_plan {
  std::map<topic_partition, int64_t> offsets; ///< the new committed offset per partition
  std::vector<topic_partition> unknown;      ///< partitions without bounds: nothing planned
};

/// The new committed offset of each partition in `partitions`: its log start, its log end, or
/// the given offset clamped into [log start, log end] (as Kafka's tool does).
reset_plan plan_reset(const std::vector<topic_partition>& partitions,
                      const std::map<topic_partition, partition_bounds>& bounds, reset_spec spec);

} // namespace cafka::cluster
