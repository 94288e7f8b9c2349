#pragma once
// One consumer group's membership, as Kafka's GroupCoordinator and GroupMetadata run it, as a
// value without clocks or actors: each operation takes the request and the current time and
// returns what the coordinator must answer (group_requests.hpp).
//
// Rebalance protocol:
//  * JoinGroup moves the group to PreparingRebalance (from Empty, Stable or
//    CompletingRebalance) and is held. The rebalance completes when every member has rejoined
//    (and no MEMBER_ID_REQUIRED id is outstanding), or when the rebalance timeout (the largest
//    of the members' rebalance timeouts when it started) has passed; dynamic members that did
//    not rejoin are then removed, static ones are kept (Kafka: they may be restarting).
//    A group that was Empty instead waits group.initial.rebalance.delay.ms, extended by the
//    same delay while new members keep arriving, in all at most the rebalance timeout.
//    (Kafka extends only at generation 0; cafka for any Empty group, whose restarting
//    consumers arrive one by one as much as a new group's.)
//  * Completion: generation + 1, the protocol chosen by vote (group_protocol_selection.hpp),
//    the leader kept if it rejoined, else the first member that did; every held join is
//    answered, the leader's with all members' metadata. The group is CompletingRebalance.
//  * SyncGroups are held until the leader's (with the assignments) arrives; then all held
//    and later syncs get their member's assignment and the group is Stable.
//  * A member that joins with other metadata, the leader rejoining, a new member, a member
//    leaving or expiring starts the next rebalance; held syncs then get REBALANCE_IN_PROGRESS.
//
// Time: operations act at `now_ms` and never look at deadlines, except that they start them;
// tick(now_ms) does what is due (session expiry, rebalance completion, the initial delay).
// An actor schedules one timer for next_deadline() and calls tick when it fires. A member's
// session runs from its last heartbeat, join or sync and it expires when
// now_ms >= last + session_timeout_ms; a member whose join is held does not expire (unless
// new and held longer than new_member_join_timeout_ms), nor one whose sync is held.
//
// A second join (or sync) from a member whose earlier one is still held supersedes it; the
// earlier one is answered REBALANCE_IN_PROGRESS so that no request is left unanswered.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/group_description.hpp"
#include "cluster/member_metadata.hpp"
#include "cluster/group_requests.hpp"

namespace cafka::cluster {

/// The broker's group settings (Kafka's names and defaults).
struct group_config {
  int32_t min_session_timeout_ms = 6000;       ///< group.min.session.timeout.ms
  int32_t max_session_timeout_ms = 1800000;    ///< group.max.session.timeout.ms
  int32_t initial_rebalance_delay_ms = 3000;   ///< group.initial.rebalance.delay.ms
  int32_t new_member_join_timeout_ms = 300000; ///< Kafka's NewMemberJoinTimeoutMs (fixed there)
};

class group_state {
public:
  /// Supplies the unique part of generated member ids (Kafka: a UUID). Without one, the
  /// group counts "1", "2", ... (fine for tests; an actor should pass UUIDs so that ids stay
  /// unique when a group is recreated).
  using suffix_source = std::function<std::string()>;

  explicit group_state(group_config config = {}, suffix_source next_suffix = {});

  /// JoinGroup. The answer comes in the returned replies, or later ones once the rebalance
  /// completes. Errors: INVALID_SESSION_TIMEOUT (outside the configured bounds),
  /// INCONSISTENT_GROUP_PROTOCOL (no protocol type or protocols, another protocol type, or no
  /// protocol in common with the other members), MEMBER_ID_REQUIRED, UNKNOWN_MEMBER_ID,
  /// FENCED_INSTANCE_ID (a member id that is not the current one of its instance id),
  /// COORDINATOR_NOT_AVAILABLE (dead group).
  group_replies join(uint64_t request_id, const join_request& req, int64_t now_ms);

  /// SyncGroup; the answer comes in the returned replies or, for a follower before the
  /// leader's sync, later ones. Errors: UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID,
  /// ILLEGAL_GENERATION, REBALANCE_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE.
  group_replies sync(uint64_t request_id, const sync_request& req, int64_t now_ms);

  /// Heartbeat: none when Stable, REBALANCE_IN_PROGRESS during a rebalance (the member must
  /// rejoin), else as sync. Refreshes the member's session.
  protocol::kafka_error heartbeat(const heartbeat_request& req, int64_t now_ms);

  /// LeaveGroup for each member (found by instance id when one is given and known, else by
  /// member id); starts a rebalance.
  leave_outcome leave(const std::vector<member_identity>& leaving, int64_t now_ms);

  /// Whether OffsetCommit for this member and generation may be stored (Kafka's checks):
  /// none for a member of the current generation when Stable or PreparingRebalance (and
  /// refreshes its session), and for generation < 0 on an Empty group (offsets only);
  /// else UNKNOWN_MEMBER_ID, ILLEGAL_GENERATION, FENCED_INSTANCE_ID, REBALANCE_IN_PROGRESS
  /// (CompletingRebalance), COORDINATOR_NOT_AVAILABLE.
  protocol::kafka_error check_offset_commit(const std::string& member_id,
                                            const std::optional<std::string>& group_instance_id,
                                            int32_t generation, int64_t now_ms);

  /// Does what is due at now_ms: drops MEMBER_ID_REQUIRED ids and members whose session
  /// ended (which starts a rebalance), and completes or extends a rebalance whose time is up.
  group_replies tick(int64_t now_ms);

  /// The earliest time at which tick has something to do; nullopt if nothing is scheduled.
  std::optional<int64_t> next_deadline() const;

  /// The group is removed or its coordinator moves away: Dead, without members; held
  /// requests are answered NOT_COORDINATOR (clients look the coordinator up again).
  group_replies mark_dead();

  group_phase phase() const noexcept { return phase_; }
  int32_t generation() const noexcept { return generation_; }
  const std::string& protocol_type() const noexcept { return protocol_type_; }
  const std::string& protocol() const noexcept { return protocol_; } ///< "" before a generation
  const std::string& leader() const noexcept { return leader_; }     ///< "" without members
  const std::vector<member_metadata>& members() const noexcept { return members_; } ///< join order
  const member_metadata* find_member(const std::string& member_id) const;
  /// DescribeGroups' view: members' metadata and assignments only when Stable, as Kafka.
  group_description describe() const;

private:
  member_metadata* find(const std::string& member_id);
  member_metadata* find_static(const std::optional<std::string>& group_instance_id);
  const member_metadata* find_static(const std::optional<std::string>& group_instance_id) const;
  bool is_fenced(const std::string& member_id,
                 const std::optional<std::string>& group_instance_id) const;
  bool accepts_protocols(const join_request& req, const std::string& except) const;
  /// The checks SyncGroup, Heartbeat and OffsetCommit share: a live group, not fenced, a
  /// member, the current generation (in this order, as Kafka).
  protocol::kafka_error check_member(const std::string& member_id,
                                     const std::optional<std::string>& group_instance_id,
                                     int32_t generation) const;
  std::string generate_member_id(const join_request& req);
  int64_t rebalance_timeout_ms() const;
  bool all_members_joined() const;
  std::optional<int64_t> session_deadline(const member_metadata& m) const;

  void join_new_member(uint64_t request_id, const join_request& req, int64_t now_ms,
                       group_replies& out);
  void join_known_member(uint64_t request_id, const join_request& req, int64_t now_ms,
                         group_replies& out);
  void rejoin_static_member(member_metadata& old, const std::string& new_id, uint64_t request_id,
                            const join_request& req, int64_t now_ms, group_replies& out);
  void add_member(const std::string& member_id, uint64_t request_id, const join_request& req,
                  int64_t now_ms, group_replies& out);
  void update_member(member_metadata& m, uint64_t request_id, const join_request& req,
                     int64_t now_ms, group_replies& out);
  join_answer current_generation_answer(const std::string& member_id) const;

  void remove_member(std::string member_id, int64_t now_ms, group_replies& out);
  void maybe_prepare_rebalance(int64_t now_ms, group_replies& out);
  void prepare_rebalance(int64_t now_ms, group_replies& out);
  void try_complete_join(int64_t now_ms, group_replies& out);
  void complete_join(int64_t now_ms, group_replies& out);
  void on_rebalance_deadline(int64_t now_ms, group_replies& out);
  void complete_sync(const std::vector<member_assignment>& assignments, int64_t now_ms,
                     group_replies& out);

  group_config config_;
  suffix_source next_suffix_;
  uint64_t suffix_counter_ = 0;

  group_phase phase_ = group_phase::empty;
  int32_t generation_ = 0;
  std::string protocol_type_;
  std::string protocol_;
  std::string leader_;
  std::vector<member_metadata> members_;
  /// Ids handed out with MEMBER_ID_REQUIRED, with the time they lapse (join time + session).
  std::map<std::string, int64_t> pending_members_;

  // The running rebalance (PreparingRebalance only).
  int64_t rebalance_deadline_ms_ = 0;
  bool initial_delay_ = false;          ///< in the delayed initial join: no early completion
  int64_t initial_delay_left_ms_ = 0;   ///< how much longer it may still be extended
  bool new_member_added_ = false;       ///< a new member arrived during the current delay
};

} // namespace cafka::cluster
