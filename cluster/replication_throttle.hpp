#pragma once
// Replication quotas, as Kafka's ReplicationQuotaManager applies them (KIP-73): what moving a
// partition's data to a new replica may cost the brokers, so that a reassignment does not
// starve producers and consumers.
//
// Settings: the dynamic broker configs leader.replication.throttled.rate and
// follower.replication.throttled.rate (bytes/s, config/dynamic_broker_config.hpp) and the
// topic configs leader.replication.throttled.replicas / follower.replication.throttled.replicas
// ("*" or "partition:broker,..."; a broker throttles the partitions listed with its own id).
//
// A leader does not send data of a throttled partition to a follower that is not in the ISR
// while its leader rate is over the limit (the fetch answer has no records for it); a
// follower does not ask for a throttled partition it is out of sync for while its follower
// rate is over. Replicas in the ISR are never throttled. Only the bytes of throttled
// partitions count, measured as client quotas are (cluster/client_quotas.hpp's windowed_rate:
// quota.window.num samples of quota.window.size.seconds).
//
// One object per broker, shared by its node actor (which replaces the plan whenever its view
// changes), the leader-side fetch polls and the replica fetchers: thread-safe.

#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <vector>

#include "cluster/client_quotas.hpp"
#include "cluster/cluster_view.hpp"
#include "protocol/topic_partition.hpp"

namespace cafka::cluster {

using protocol::topic_partition;

inline constexpr int64_t unthrottled = std::numeric_limits<int64_t>::max();

/// Which partitions one broker throttles, and at what rates.
struct throttle_plan {
  int64_t leader_rate = unthrottled;
  int64_t follower_rate = unthrottled;
  std::set<topic_partition> leader_throttled, follower_throttled;
  /// The ISR of every throttled partition (in-sync replicas are not throttled).
  std::map<topic_partition, std::vector<int32_t>> isr;

  friend bool operator==(const throttle_plan& a, const throttle_plan& b) {
    return a.leader_rate == b.leader_rate && a.follower_rate == b.follower_rate
           && a.leader_throttled == b.leader_throttled && a.follower_throttled == b.follower_throttled
           && a.isr == b.isr;
  }
};

/// The partitions of a topic that a throttled-replicas value lists for `broker`, out of
/// `partitions` ("*": all of them). Malformed items are skipped (values are validated when set).
std::set<int32_t> throttled_partitions(const std::string& value, int32_t broker, int32_t partitions);

/// The plan of broker `me` under `view`'s topic configs, at the given rates.
throttle_plan plan_throttles(const cluster_view& view, int32_t me, int64_t leader_rate, int64_t follower_rate);

/// What cafka-reassign-partitions --throttle sets on each topic of a reassignment (Kafka's
/// ReassignPartitionsCommand): leader side, every current replica of each moving partition;
/// follower side, the replicas each partition gains. "p:b,..." per topic; partitions whose
/// target equals their replicas are left out.
struct throttled_replica_lists {
  std::string leader, follower;
};
/// `moves`: (partition, current replicas, target replicas) of one topic.
struct replica_move {
  int32_t partition = 0;
  std::vector<int32_t> current, target;
};
throttled_replica_lists throttle_lists(const std::vector<replica_move>& moves);

class replication_throttle {
public:
  replication_throttle(int samples, int64_t window_ms);

  void replace(throttle_plan plan);
  throttle_plan plan() const;

  /// Leader side: whether to hold back `tp`'s data from follower `replica` now.
  bool leader_holds_back(const topic_partition& tp, int32_t replica, int64_t now_ms) const;
  /// Follower side: whether broker `me` leaves `tp` out of its next fetch.
  bool follower_holds_back(const topic_partition& tp, int32_t me, int64_t now_ms) const;
  /// Bytes of `tp` sent to follower `replica` (leader side) or received by `me` (follower
  /// side); counted when `tp` is throttled on that side and the replica is out of sync.
  void record_leader(const topic_partition& tp, int32_t replica, size_t bytes, int64_t now_ms);
  void record_follower(const topic_partition& tp, int32_t me, size_t bytes, int64_t now_ms);

private:
  bool out_of_sync(const topic_partition& tp, int32_t replica) const;
  mutable std::mutex mutex_;
  throttle_plan plan_;
  windowed_rate leader_sent_, follower_received_;
};

} // namespace cafka::cluster
