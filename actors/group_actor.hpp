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
// Membership in the coordinator (when group_context::coordinator is set): every member has
// an ephemeral node /consumers/<group>/ids/<escaped member id> of the node's coordinator
// session, holding its client id, host and session timeout (cluster/member_registrations.hpp).
//  * After every request or timer the actor compares the members with the nodes it made
//    (member_registrations::reconcile): a new member's node is created (with its missing
//    parents), the node of a member that left, expired, was fenced or dropped by a rebalance
//    is removed. At close (node shutdown, or the group moving away) every node is removed.
//  * The actor keeps one children watch on the ids folder. The coordinator's callbacks only
//    send a membership_atom message to the actor through a weak handle (the coordinator must
//    not keep the actor alive); on the watch's message the actor reads the children again
//    (arming the next watch) and removes the members whose node is gone, through the same
//    path as a LeaveGroup, so the group rebalances. Only members whose create succeeded are
//    judged; our own creates and removals also fire the watch, which is harmless.
//  * Errors: node_exists on create counts as created, no_node on remove is ignored, a read
//    of a missing folder counts as no children (then the folder is ensured and read again).
//    Other failures (connection_loss) are retried on the group's next request or timer:
//    a group whose members are alive heartbeats every few seconds; an idle group does not
//    need its watch. When the session has expired or was closed, the group keeps its members
//    (the coordinator's copy is lost) and stops registering.
//  * A cluster node's session renews itself after expiry (cluster/renewing_session.hpp; the
//    group keeps the same coordinator object): the node tells every group (membership_atom,
//    reset_atom) when the session is lost and again when the new one is connected; the group
//    then forgets what it registered (member_registrations::forget_all), creates every
//    current member's node again in the new session and re-arms its children watch.
//
// Its messages cross CAF's middleman (actors/group_messages.hpp): cafka's C++ client and
// cafka-consumer-groups talk to it directly, with a handle the node actor hands out.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/fwd.hpp>
#include <caf/replies_to.hpp>
#include <caf/typed_actor.hpp>

#include "actors/atoms.hpp"
#include "actors/group_messages.hpp"
#include "actors/group_offset_store.hpp"
#include "cluster/group_state.hpp"

namespace cafka {

namespace cluster {
class coordinator;
}

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

/// TxnOffsetCommit (v0-2) from cafka's producer: `offsets` pending in the producer's
/// transaction until its marker (offsets_store::commit_txn).
struct txn_offset_commit {
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
  std::vector<group_offset> offsets;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, txn_offset_commit& x) {
  return f(caf::meta::type_name("txn_offset_commit"), x.producer_id, x.producer_epoch, x.offsets);
}

/// OffsetDelete's answer: a group error, or each partition asked for with its error.
struct group_offsets_deleted {
  protocol::kafka_error group_error = protocol::kafka_error::none;
  std::vector<std::pair<storage::topic_partition, protocol::kafka_error>> partitions;
};

/// Internal: the children of /consumers/<group>/ids as read for the group actor (escaped
/// member ids), or why the read failed.
struct member_ids_read {
  std::vector<std::string> children;
  std::error_code error;
};

/// Internal: the outcome of the create of a member's node (an empty error: created).
struct member_node_created {
  std::string member_id;
  std::error_code error;
};

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
  /// TxnOffsetCommit: an empty reply once the pending commit is stored, or the Kafka error.
  caf::replies_to<txn_offset_commit_atom, txn_offset_commit>::with<void>,
  /// OffsetFetch: the committed offsets among those asked for (see group_offset_store).
  caf::replies_to<fetch_offsets_atom, group_offset_query>::with<std::vector<group_offset>>,
  /// DeleteGroups: removes an Empty group's offsets, answers none and stops (the caller then
  /// drops it from the registry); else the error's wire code (cluster/group_deletion.hpp).
  caf::replies_to<delete_group_atom>::with<int16_t>,
  /// OffsetDelete of the committed offsets of the query's partitions (cluster/group_deletion.hpp).
  caf::replies_to<delete_offsets_atom, group_offset_query>::with<group_offsets_deleted>,
  /// Internal: the deadline timer (its id; a superseded timer is ignored).
  caf::reacts_to<caf::timeout_atom, uint64_t>,
  /// Internal, from the coordinator's callbacks: the ids folder changed (its watch fired),
  caf::reacts_to<membership_atom>,
  /// its children as read,
  caf::reacts_to<membership_atom, member_ids_read>,
  /// and a member node's create completed.
  caf::reacts_to<membership_atom, member_node_created>,
  /// Internal, from the node: the coordinator session was lost or renewed (see above).
  caf::reacts_to<membership_atom, caf::reset_atom>,
  /// Answers what is held with NOT_COORDINATOR (clients look for the coordinator again),
  /// and stops.
  caf::replies_to<caf::close_atom>::with<bool>>;

/// What a group actor is spawned with.
struct group_context {
  std::string group_id;
  cluster::group_config config;
  std::shared_ptr<group_offset_store> offsets;
  /// The node's coordinator session, where members are registered; nullptr: no registration.
  std::shared_ptr<cluster::coordinator> coordinator = nullptr;
  /// Seeds the generator of member ids (actors/member_id_suffix.hpp); 0: random_device.
  uint64_t member_id_seed = 0;
};

group_actor spawn_group(caf::actor_system& sys, group_context ctx);

} // namespace cafka

// Internal messages: never leave the process.
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::group_offsets_deleted)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member_ids_read)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member_node_created)
