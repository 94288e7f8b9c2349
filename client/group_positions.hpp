#pragma once
// What a native group member has consumed and committed, per assigned partition, as a
// plain value (no actors): the member records a batch's next offset once the consumer's
// handler returned for it (at least once) or once its commit was stored (at most once),
// and commits what changed since the last commit. Kafka commits "the offset of the next
// record to read", and so does this.

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "actors/group_offset_store.hpp"
#include "client/consumer_records.hpp"
#include "client/subscription.hpp"

namespace cafka::client {

/// Where a newly assigned partition starts: its committed offset if there is one (>= 0),
/// else auto_offset_reset (earliest or latest; none is taken as latest, Kafka's default).
start_position start_for(std::optional<int64_t> committed, offset_reset reset);

class group_positions {
public:
  /// A new assignment: forgets everything, then takes the committed offsets found (those
  /// count as committed, so they are not committed again).
  void assign(const std::vector<topic_partition>& partitions, const std::vector<group_offset>& committed);

  /// Drops everything (partitions revoked).
  void clear();

  bool owns(const topic_partition& tp) const { return consumed_.count(tp) > 0; }

  /// The consumer is done with everything before `next_offset` in `tp` (ignored for a
  /// partition not assigned, or an offset behind what was recorded).
  void consumed(const topic_partition& tp, int64_t next_offset);

  /// The consumed offsets not committed yet (sorted by partition).
  std::vector<group_offset> uncommitted() const;

  /// `offsets` were stored (ignores partitions not assigned).
  void committed(const std::vector<group_offset>& offsets);

  /// The committed offset of `tp`, if any.
  std::optional<int64_t> committed_offset(const topic_partition& tp) const;

private:
  std::map<topic_partition, std::optional<int64_t>> consumed_;
  std::map<topic_partition, int64_t> committed_;
};

} // namespace cafka::client
