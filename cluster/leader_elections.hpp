#pragma once
// Leader elections the controller makes while every broker is up: moving leadership back to
// a partition's preferred replica (the first of its assignment), automatically (Kafka's
// auto.leader.rebalance.enable, KafkaController.checkAndTriggerAutoLeaderRebalance) or when
// asked (ElectLeaders, cafka-leader-election), and the unclean election an operator asks
// for when a partition has no live leader.
//
// Rules:
// - Preferred: the preferred replica becomes leader if it is live, in the ISR and not in a
//   controlled shutdown (leader epoch + 1, ISR kept). Already leading: nothing to do.
// - Automatic: per live broker, the share of the partitions it is preferred for that another
//   broker leads; above `imbalance_percentage` percent, each of those whose preferred replica
//   may lead (as above) moves back. Partitions without a state read, or written by a newer
//   controller, are left alone.
// - Unclean (asked for one partition): only a partition whose recorded leader is not live;
//   its first live ISR member in assignment order if there is one (a clean election, as the
//   controller would make), else the first live replica, with ISR = [it] (records only the
//   old ISR had are lost). Kafka: ELECTION_NOT_NEEDED for a partition with a live leader.

#include <cstdint>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "cluster/cluster_view.hpp"
#include "cluster/controller_decisions.hpp"

namespace cafka::cluster {

/// Why an asked election writes nothing (each a Kafka error of ElectLeaders).
enum class election_refusal {
  unknown_partition,              ///< UNKNOWN_TOPIC_OR_PARTITION
  election_not_needed,            ///< ELECTION_NOT_NEEDED
  preferred_leader_not_available, ///< PREFERRED_LEADER_NOT_AVAILABLE
  eligible_leaders_not_available, ///< ELIGIBLE_LEADERS_NOT_AVAILABLE
};

enum class election_type : int8_t { preferred = 0, unclean = 1 };

/// The write of one asked election, or why there is none.
using leader_election_decision = std::variant<partition_state_write, election_refusal>;

leader_election_decision elect_asked(const cluster_view& view, const std::string& topic, int32_t partition,
                              election_type type, const std::set<int32_t>& leaving, int32_t controller_epoch);

/// The automatic rebalance: writes for every partition to move back to its preferred
/// replica, in (topic, partition) order.
std::vector<partition_state_write> preferred_leader_rebalance(const cluster_view& view,
                                                              const std::set<int32_t>& leaving,
                                                              int32_t imbalance_percentage,
                                                              int32_t controller_epoch);

} // namespace cafka::cluster
