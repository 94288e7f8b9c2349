#include "cluster/group_coordinator_location.hpp"

#include <string>

#include "cluster/offset_records.hpp"
#include "cluster/offsets_partition.hpp"

namespace cafka::cluster {

group_coordinator_location locate_group_coordinator(const cluster_view& view, std::string_view group) {
  group_coordinator_location out;
  auto* topic = view.topic(std::string{offsets_topic_name});
  if (topic == nullptr || topic->partitions.empty())
    return out;
  out.partition = offsets_partition_for(group, static_cast<int32_t>(topic->partitions.size()));
  // A leader is live exactly when it has a registration.
  auto leader = topic->partitions[static_cast<size_t>(out.partition)].state.leader;
  if (auto* reg = view.broker(leader)) {
    out.coordinator = leader;
    out.broker = *reg;
  }
  return out;
}

} // namespace cafka::cluster
