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
  out.coordinator = view.live_leader(std::string{offsets_topic_name}, out.partition);
  if (out.coordinator != no_broker)
    if (auto* reg = view.broker(out.coordinator))
      out.broker = *reg;
  if (!out.broker)
    out.coordinator = no_broker;
  return out;
}

} // namespace cafka::cluster
