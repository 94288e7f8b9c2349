#pragma once
// The messages of replication (docs/replication.md): the role the node gives a partition
// actor, a follower's fetch from its leader (one request for every partition it follows
// there), and the leader-epoch lookup a new follower truncates by. The fetch and the lookup
// cross CAF's middleman between brokers, so each type has an inspect() and a type ID.

#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "actors/messages.hpp"
#include "cluster/pushed_states.hpp"

namespace cafka::cluster {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_state& x) {
  return f(caf::meta::type_name("partition_state"), x.leader, x.leader_epoch, x.controller_epoch, x.isr);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pushed_state& x) {
  return f(caf::meta::type_name("pushed_state"), x.topic, x.partition, x.state, x.version);
}

} // namespace cafka::cluster

namespace cafka {

/// What a partition's replica on this broker is, as the applied cluster view records it.
/// leader == this broker: leader at leader_epoch; otherwise a follower of `leader`
/// (no_broker: nobody leads, the follower waits). state_version / controller_epoch: of the
/// partition state the ISR was read from, for the leader's conditional ISR writes.
struct replica_role {
  int32_t leader = -1;
  int32_t leader_epoch = 0;
  std::vector<int32_t> replicas;
  std::vector<int32_t> isr;
  int32_t state_version = -1;
  int32_t controller_epoch = 0;
  std::vector<int32_t> live_brokers; ///< who may join the ISR
  int32_t min_insync_replicas = 1;   ///< min.insync.replicas of the topic

  friend bool operator==(const replica_role& a, const replica_role& b) {
    return a.leader == b.leader && a.leader_epoch == b.leader_epoch && a.replicas == b.replicas && a.isr == b.isr
           && a.state_version == b.state_version && a.controller_epoch == b.controller_epoch
           && a.live_brokers == b.live_brokers && a.min_insync_replicas == b.min_insync_replicas;
  }
  friend bool operator!=(const replica_role& a, const replica_role& b) { return !(a == b); }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_role& x) {
  return f(caf::meta::type_name("replica_role"), x.leader, x.leader_epoch, x.replicas, x.isr, x.state_version,
           x.controller_epoch, x.live_brokers, x.min_insync_replicas);
}

/// One partition of a follower's fetch: where its log ends (the offset it asks for), the
/// leader epoch it follows, and its log start.
struct replica_fetch_partition {
  topic_partition tp;
  int32_t leader_epoch = 0;
  int64_t fetch_offset = 0;
  int64_t log_start_offset = 0;
  int32_t max_bytes = 1 << 20; ///< replica.fetch.max.bytes
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_fetch_partition& x) {
  return f(caf::meta::type_name("replica_fetch_partition"), x.tp, x.leader_epoch, x.fetch_offset,
           x.log_start_offset, x.max_bytes);
}

/// A follower's long poll at its leader (Kafka's Fetch with replica_id >= 0): answered as
/// soon as any partition has data (min_bytes), else after max_wait_ms.
struct replica_fetch_request {
  int32_t replica_id = -1;
  int32_t max_wait_ms = 500;
  int32_t min_bytes = 1;
  std::vector<replica_fetch_partition> partitions;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_fetch_request& x) {
  return f(caf::meta::type_name("replica_fetch_request"), x.replica_id, x.max_wait_ms, x.min_bytes, x.partitions);
}

/// The leader's answer for one partition: error is a Kafka error code (0: none); records are
/// whole batches from fetch_offset up to the leader's log end, as the leader stored them.
struct replica_fetch_partition_result {
  topic_partition tp;
  int16_t error = 0;
  int64_t high_watermark = 0;
  int64_t log_start_offset = 0;
  int64_t log_end_offset = 0;
  std::vector<char> records;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_fetch_partition_result& x) {
  return f(caf::meta::type_name("replica_fetch_partition_result"), x.tp, x.error, x.high_watermark,
           x.log_start_offset, x.log_end_offset, x.records);
}

struct replica_fetch_result {
  std::vector<replica_fetch_partition_result> partitions;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_fetch_result& x) {
  return f(caf::meta::type_name("replica_fetch_result"), x.partitions);
}

/// OffsetForLeaderEpoch for one partition: the leader's end offset of `epoch` (Kafka's
/// endOffsetFor), error a Kafka code; epoch -1 / end_offset -1: undefined.
struct epoch_end_answer {
  int16_t error = 0;
  int32_t epoch = -1;
  int64_t end_offset = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, epoch_end_answer& x) {
  return f(caf::meta::type_name("epoch_end_answer"), x.error, x.epoch, x.end_offset);
}

/// A follower's position, for its fetcher: log end, log start, latest leader epoch (-1: none).
struct replica_position {
  int64_t log_end_offset = 0;
  int64_t log_start_offset = 0;
  int32_t latest_epoch = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, replica_position& x) {
  return f(caf::meta::type_name("replica_position"), x.log_end_offset, x.log_start_offset, x.latest_epoch);
}

/// What a follower did with its leader's answer to OffsetForLeaderEpoch: truncated to
/// `log_end_offset`; ask_again with next_epoch (KIP-279), else ready to fetch from there.
struct truncation_done {
  int64_t log_end_offset = 0;
  bool ask_again = false;
  int32_t next_epoch = -1;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, truncation_done& x) {
  return f(caf::meta::type_name("truncation_done"), x.log_end_offset, x.ask_again, x.next_epoch);
}

/// The controller tells every live broker the partition states it just wrote (Kafka's
/// LeaderAndIsr; cluster/pushed_states.hpp), so that they act before their watches fire.
struct leader_and_isr {
  int32_t controller_id = -1;
  int32_t controller_epoch = 0;
  std::vector<cluster::pushed_state> states;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, leader_and_isr& x) {
  return f(caf::meta::type_name("leader_and_isr"), x.controller_id, x.controller_epoch, x.states);
}

/// ElectLeaders as the node actor and the controller take it (cluster/leader_elections.hpp):
/// type 0 preferred, 1 unclean; every partition of the cluster when `all`.
struct leader_election_request {
  int8_t type = 0;
  bool all = false;
  std::vector<topic_partition> partitions;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, leader_election_request& x) {
  return f(caf::meta::type_name("leader_election_request"), x.type, x.all, x.partitions);
}

/// One partition's outcome: error 0 (elected), or a Kafka error code with a message.
struct leader_election_result {
  topic_partition tp;
  int16_t error = 0;
  std::string message;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, leader_election_result& x) {
  return f(caf::meta::type_name("leader_election_result"), x.tp, x.error, x.message);
}

/// The outcome of one partition of a reassignment request: the same shape.
using partition_outcome = leader_election_result;

/// One partition of AlterPartitionReassignments (cluster/reassignment.hpp): its target
/// replicas, or a cancel.
struct partition_move {
  topic_partition tp;
  bool cancel = false;
  std::vector<int32_t> replicas;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_move& x) {
  return f(caf::meta::type_name("partition_move"), x.tp, x.cancel, x.replicas);
}

/// One partition being moved (ListPartitionReassignments): every replica, those being added
/// and those being removed.
struct partition_move_status {
  topic_partition tp;
  std::vector<int32_t> replicas, adding, removing;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partition_move_status& x) {
  return f(caf::meta::type_name("partition_move_status"), x.tp, x.replicas, x.adding, x.removing);
}

} // namespace cafka
