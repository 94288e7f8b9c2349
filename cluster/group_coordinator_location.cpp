#include "cluster/group_coordinator_location.hpp"

#include <string>

#include "cluster/offset_records.hpp"
#include "cluster/offsets_partition.hpp"
#include "cluster/txn_log.hpp"

namespace cafka::cluster {

namespace {

// The live leader of the partition `partition_for` picks for `key` in `topic_name`.
template <class PartitionFor>
group_coordinator_location locate(const cluster_view& view, std::string_view topic_name, std::string_view key,
                                  PartitionFor partition_for) {
  group_coordinator_location out;
  auto* topic = view.topic(std::string{topic_name});
  if (topic == nullptr || topic->partitions.empty())
    return out;
  out.partition = partition_for(key, static_cast<int32_t>(topic->partitions.size()));
  // A leader is live exactly when it has a registration.
  auto leader = topic->partitions[static_cast<size_t>(out.partition)].state.leader;
  if (auto* reg = view.broker(leader)) {
    out.coordinator = leader;
    out.broker = *reg;
  }
  return out;
}

} // namespace

group_coordinator_location locate_group_coordinator(const cluster_view& view, std::string_view group) {
  return locate(view, offsets_topic_name, group,
                [](std::string_view k, int32_t n) { return offsets_partition_for(k, n); });
}

group_coordinator_location locate_txn_coordinator(const cluster_view& view, std::string_view transactional_id) {
  return locate(view, transaction_state_topic, transactional_id,
                [](std::string_view k, int32_t n) { return txn_partition_for(k, n); });
}

} // namespace cafka::cluster
