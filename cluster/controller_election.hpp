#pragma once
// Controller election as a pure decision over what /controller and /controller_epoch hold.
//
// The protocol around it (Kafka's), run by every broker's coordinator actor:
// 1. get /controller with a watch (no_node: absent), and /controller_epoch (absent before the
//    first election); call decide_election.
// 2. campaign: create /controller as an ephemeral node holding {my id, decision.epoch}. On
//    success, write /controller_epoch = decision.epoch (set with the version read, or create),
//    and lead. On node_exists someone else won: go to 1. On connection_loss the create may
//    have succeeded: go to 1 — the node then names me with my session as owner, so `lead`.
// 3. lead / follow / wait: act on it; when the watch reports deleted (the controller's session
//    ended), go to 1.
// Brokers reject controller requests whose epoch is_stale_controller_epoch.

#include <cstdint>
#include <optional>

#include "cluster/coordinator.hpp"
#include "cluster/metadata.hpp"

namespace cafka::cluster {

/// /controller as read: its data and its stat's ephemeral_owner.
struct controller_node {
  controller_info info;
  session_id owner = 0;
};

enum class election_role {
  campaign, ///< /controller is absent: try to create it, claiming `epoch`
  lead,     ///< /controller is mine (this session's): be the controller at `epoch`
  follow,   ///< another broker is the controller at `epoch`
  wait,     ///< /controller names me but belongs to an older session of mine; it vanishes when
            ///< that session expires: wait for the deletion, then decide again
};

struct election_decision {
  election_role role = election_role::campaign;
  int32_t controller_id = no_broker; ///< campaign: me; otherwise the id in /controller
  int32_t epoch = 0;                 ///< campaign: the epoch to claim; otherwise the current one
};

/// `current`: /controller, or nullopt if absent; `last_epoch`: /controller_epoch, or nullopt if
/// absent. The claimed epoch is one above the highest epoch seen (1 for the first controller);
/// it saturates at INT32_MAX rather than overflow.
election_decision decide_election(const std::optional<controller_node>& current,
                                  std::optional<int32_t> last_epoch, int32_t my_id,
                                  session_id my_session);

/// A request from a controller at `request_epoch` when a controller at `known_epoch` has been
/// seen: older epochs come from a deposed controller and must be rejected.
bool is_stale_controller_epoch(int32_t request_epoch, int32_t known_epoch) noexcept;

} // namespace cafka::cluster
