#pragma once
// Brokers that registered again since the controller last acted: Kafka's "bounced brokers".
//
// A broker's epoch is the czxid of its ephemeral /brokers/ids/<id>: every registration (a new
// ZooKeeper session) gets a larger one. A broker whose session expired and that registered
// again before the controller read /brokers/ids in between never looks dead in the set of live
// ids. Yet it may have lost what it had not fsynced (a machine crash), and it kept no
// follower state: left as leader and ISR member at the same leader epoch, it would lead with
// the tail it lost and the followers' copies of that tail would be overwritten by new records
// at the same offsets and epoch. Kafka's controller compares broker epochs and handles such a
// broker as a failure followed by a startup; so does cafka's (actors/cluster_member.cpp): it
// first decides without the bounced brokers (their leaderships move, they leave the ISRs),
// records their epochs once that is written, and then decides again with them.
//
// A controller that is new knows no epochs: its first view only records them (Kafka's new
// controller starts from the registrations it reads too).

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "cluster/metadata.hpp"

namespace cafka::cluster {

class broker_epochs {
public:
  /// The ids of `live` whose epoch is newer than the one last acted on, ascending; none while
  /// nothing was recorded.
  std::vector<int32_t> bounced(const std::vector<broker_registration>& live) const;
  /// The controller's decisions over `live` are written: its epochs are the ones acted on
  /// (brokers absent from `live` are forgotten, so that one returning is a plain startup).
  void acted(const std::vector<broker_registration>& live);
  /// No longer the controller (or a new term): forget everything.
  void reset() noexcept { known_.reset(); }

private:
  std::optional<std::map<int32_t, int64_t>> known_;
};

} // namespace cafka::cluster
