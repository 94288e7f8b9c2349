#pragma once
// The actor that coordinates one consumer group on this node: a thin shell around
// cluster::group_state (the rebalance protocol, see its header). JoinGroup and SyncGroup
// answers are held as response promises until the state machine answers them (when the
// rebalance step completes), and one timer, for group_state::next_deadline(), drives
// session expiry and rebalance timeouts. Time is the actor clock's, in ms, so that CAF's
// deterministic test scheduler controls it.
//
// It also keeps the group's committed offsets behind group_offset_store, checking each
// commit against the membership first (group_state::check_offset_commit).
//
// Its messages cross CAF's middleman (actors/group_messages.hpp): cafka's C++ client and
// cafka-consumer-groups talk to it directly, with a handle the node actor hands out.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"
#include "actors/group_messages.hpp"
#include "actors/group_offset_store.hpp"
#include "cluster/group_state.hpp"

namespace cafka {

/// OffsetCommit for one group: who commits (for the membership check) and what.
struct group_offset_commit {
  std::string member_id; ///< empty with generation -1: a commit from outside the group
  std::optional<std::string> group_instance_id;
  int32_t generation = -1;
  std::vector<group_offset> offsets;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, group_offset_commit& x) {
  cluster::optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("group_offset_commit"), x.member_id, instance, x.generation, x.offsets);
}

using group_actor = caf::typed_actor<
  /// JoinGroup; answered when the rebalance completes (or at once with an error).
  caf::replies_to<join_group_atom, cluster::join_request>::with<cluster::join_answer>,
  /// SyncGroup; a follower's is answered once the leader's assignments arrived.
  caf::replies_to<sync_group_atom, cluster::sync_request>::with<cluster::sync_answer>,
  /// Heartbeat: an empty reply, or the Kafka error (e.g. REBALANCE_IN_PROGRESS).
  caf::replies_to<heartbeat_atom, cluster::heartbeat_request>::with<void>,
  /// LeaveGroup of one or more members.
  caf::replies_to<leave_group_atom, std::vector<cluster::member_identity>>::with<cluster::leave_answer>,
  /// Members, state and protocol as DescribeGroups shows them.
  caf::replies_to<describe_atom>::with<cluster::group_description>,
  /// OffsetCommit: an empty reply once stored, or the Kafka error for every partition.
  caf::replies_to<commit_offsets_atom, group_offset_commit>::with<void>,
  /// OffsetFetch: the committed offsets among those asked for (see group_offset_store).
  caf::replies_to<fetch_offsets_atom, group_offset_query>::with<std::vector<group_offset>>,
  /// Internal: the deadline timer (its id; a superseded timer is ignored).
  caf::reacts_to<caf::timeout_atom, uint64_t>,
  /// Answers what is held with NOT_COORDINATOR (clients look for the coordinator again),
  /// and stops.
  caf::replies_to<caf::close_atom>::with<bool>>;

/// What a group actor is spawned with.
struct group_context {
  std::string group_id;
  cluster::group_config config;
  std::shared_ptr<group_offset_store> offsets;
};

group_actor spawn_group(caf::actor_system& sys, group_context ctx);

} // namespace cafka
