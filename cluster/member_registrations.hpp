#pragma once
// member_registrations: which members of one consumer group have their ephemeral node under
// /consumers/<group>/ids/<escaped member id> (cluster/znode_paths.hpp), and the diff between
// the group's members (cluster/group_state.hpp), those nodes and the folder's children.
// The group actor (actors/group_actor.hpp) keeps one and turns the diff into coordinator
// calls; nothing here calls a coordinator.
//
// Each member id is either untracked, "creating" (its create was issued, no answer yet) or
// "registered" (the create succeeded or found the node there). The rules:
//  * reconcile(members): a member that is untracked -> to_create (now creating); a tracked id
//    that is no longer a member (left, expired, fenced, removed by a rebalance, renamed by a
//    static rejoin) -> to_remove (untracked at once).
//  * vanished(children): only a *registered* member whose escaped name is missing from the
//    children has vanished (someone removed its node, or the session that held it ended); it
//    is untracked here and the caller removes it from the group. A member still creating
//    is never judged: a children read issued before its create may not show it yet (one
//    session's completions arrive in call order, so a read issued after the create does).
//  * Children that are no member of ours are left alone: they belong to another session
//    (e.g. a broker that coordinated the group before) and go with it.
//  * created() for an id no longer tracked is ignored: its remove was issued after the
//    create, so the node goes again. create_failed() untracks the id, so that the next
//    reconcile tries again (a create after connection_loss may find node_exists: fine).
// Idempotent: the same children or members twice change nothing.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "cluster/member_metadata.hpp"

namespace cafka::cluster {

/// What to do in the coordinator after the group's membership changed.
struct registration_plan {
  std::vector<std::string> to_create; ///< member ids whose node to create, in members' order
  std::vector<std::string> to_remove; ///< member ids whose node to remove, in id order

  bool empty() const noexcept { return to_create.empty() && to_remove.empty(); }
};

class member_registrations {
public:
  /// Compares the group's current member ids with what is tracked (rules above).
  registration_plan reconcile(const std::vector<std::string>& members);

  /// The create of `member_id`'s node succeeded, or failed with node_exists.
  void created(const std::string& member_id);

  /// The create of `member_id`'s node failed otherwise; the next reconcile tries again.
  void create_failed(const std::string& member_id);

  /// The children of the ids folder as just read (escaped names; no_node counts as none):
  /// the registered members whose node is gone, in id order. They are untracked.
  std::vector<std::string> vanished(const std::vector<std::string>& children);

  /// The coordinator session ended (its ephemerals are gone): nothing is tracked, so that
  /// the next reconcile, on a new session, creates every member's node again.
  void forget_all() noexcept { tracked_.clear(); }

  bool is_registered(const std::string& member_id) const;
  bool is_tracked(const std::string& member_id) const { return tracked_.count(member_id) != 0; }

private:
  /// member id -> registered (true) or creating (false)
  std::map<std::string, bool> tracked_;
};

/// The data of a member's node, in kv text (cluster/kv_text.hpp), for people looking at the
/// tree (zkCli) rather than for cafka, which reads only the names:
///   version=1, member_id, client_id, client_host, session_timeout_ms, and group_instance_id
///   for a static member.
std::string encode_member_registration(const member_metadata& m);

} // namespace cafka::cluster
