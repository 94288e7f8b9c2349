#pragma once
// cluster_view: the cluster metadata a broker caches — live brokers, the controller, and every
// topic's assignment, partition states and config — as one plain, copyable value. A broker
// replaces it (or parts of it) whenever a watch fires (cluster/cluster_loader.hpp), answers
// Metadata from it, and diffs the old and new view (leadership_changes) to open or close its
// local partition actors. The controller decides over it (cluster/controller_decisions.hpp).
//
// Choices where the issue is silent:
// - A partition whose state znode is missing (a topic still being written) has the default
//   partition_state: leader no_broker, empty ISR, state_version no_state_version.
// - Metadata (describe_topic, live_leader) reports a leader only if that broker is live;
//   otherwise no_broker, which the wire layer answers as LEADER_NOT_AVAILABLE.
// - partitions_led_by and leadership_changes follow the *recorded* leader, not liveness: a
//   broker that lost its ZooKeeper session keeps serving what it leads until the controller
//   writes a new leader (as Kafka's brokers act on the controller's LeaderAndIsr only).
// - Each partition keeps the znode version of its state, so that the controller's writes can be
//   conditional (cluster/cluster_writes.hpp).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cluster/metadata.hpp"

namespace cafka::cluster {

/// state_version of a partition whose state znode was not read (absent).
inline constexpr int32_t no_state_version = -1;

/// One partition's state as read, with the version of its znode.
struct partition_entry {
  partition_state state;
  int32_t state_version = no_state_version;
};

/// One topic: partitions[p] belongs to assignment.partitions[p] (same size).
struct topic_entry {
  topic_assignment assignment;
  int32_t assignment_version = 0; ///< znode version of /brokers/topics/<topic> (for conditional rewrites)
  std::vector<partition_entry> partitions;
  topic_config config;
};

/// One partition as Metadata reports it.
struct partition_metadata {
  int32_t partition = 0;
  int32_t leader = no_broker; ///< the recorded leader if it is live, else no_broker
  int32_t leader_epoch = 0;
  replica_list replicas;
  std::vector<int32_t> isr;
};

/// A partition and the leader epoch it is (or was) led at.
struct partition_leadership {
  std::string topic;
  int32_t partition = 0;
  int32_t leader_epoch = 0;

  friend bool operator==(const partition_leadership& a, const partition_leadership& b) {
    return a.topic == b.topic && a.partition == b.partition && a.leader_epoch == b.leader_epoch;
  }
};

/// What one broker must do when its view changes. Both lists are sorted by (topic, partition).
struct leadership_change {
  /// Partitions I lead after and did not lead before, or now lead at another leader epoch (an
  /// already open partition just adopts the new epoch). leader_epoch: the new one.
  std::vector<partition_leadership> start;
  /// Partitions I led before and no longer lead (other leader, offline, or topic removed).
  /// leader_epoch: the one I led at.
  std::vector<partition_leadership> stop;
};

class cluster_view {
public:
  // -- updates --

  /// Replaces the set of live brokers (the children of /brokers/ids); negative ids are ignored.
  void set_brokers(const std::vector<broker_registration>& brokers);

  /// The current /controller; nullopt: none (between elections).
  void set_controller(std::optional<controller_info> controller);

  /// Adds or replaces a topic. `partitions` must match the assignment in size: missing entries
  /// are filled with the default (absent) state, extra ones are dropped.
  void set_topic(const std::string& name, topic_entry topic);

  /// Removes a topic; false if it was not there.
  bool remove_topic(const std::string& name);

  /// Replaces one partition's state; false (and no change) for an unknown topic or partition.
  bool set_partition_state(const std::string& topic, int32_t partition, partition_entry entry);
  /// The dynamic configs of a broker (entity: its id as text) or of every broker
  /// (default_broker_entity): /config/brokers/<entity>.
  void set_broker_config(const std::string& entity, topic_config config);

  // -- queries --

  /// Live brokers sorted by id.
  std::vector<broker_registration> brokers() const;
  /// Ids of the live brokers, ascending.
  std::vector<int32_t> broker_ids() const;
  const broker_registration* broker(int32_t id) const;
  bool is_live(int32_t id) const;
  const std::optional<controller_info>& controller() const noexcept { return controller_; }

  /// Topic names, sorted.
  std::vector<std::string> topic_names() const;
  const topic_entry* topic(const std::string& name) const;
  const std::map<std::string, topic_entry>& topics() const noexcept { return topics_; }

  /// The partition's recorded leader if it is live, else no_broker (also for an unknown
  /// topic or partition).
  int32_t live_leader(const std::string& topic, int32_t partition) const;

  /// Every partition of a topic for Metadata, in partition order; nullopt for an unknown topic.
  std::optional<std::vector<partition_metadata>> describe_topic(const std::string& name) const;

  /// Partitions whose recorded leader is `broker`, sorted by (topic, partition).
  std::vector<partition_leadership> partitions_led_by(int32_t broker) const;
  /// The dynamic configs stored for `entity` (empty if none).
  std::map<std::string, std::string> broker_config(const std::string& entity) const;

private:
  std::map<int32_t, broker_registration> brokers_;
  std::optional<controller_info> controller_;
  std::map<std::string, topic_entry> topics_;
  std::map<std::string, topic_config> broker_configs_;
};

/// What `my_id` must start and stop leading when its view goes from `before` to `after`.
leadership_change leadership_changes(const cluster_view& before, const cluster_view& after,
                                     int32_t my_id);

} // namespace cafka::cluster
