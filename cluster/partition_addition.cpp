#include "cluster/partition_addition.hpp"

#include <algorithm>

#include "cluster/controller_decisions.hpp"
#include "cluster/errc.hpp"
#include "cluster/leader_choice.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/replica_placement.hpp"

namespace cafka::cluster {

using protocol::kafka_error;

namespace {

addition_refusal refuse(kafka_error error, std::string message) { return {error, std::move(message)}; }

// Kafka's check of a manual assignment (AdminZkClient.validateReplicaAssignment), or "" if it holds.
std::string assignment_problem(const cluster_view& view, const std::vector<replica_list>& assignment,
                               size_t wanted_partitions, size_t replication_factor) {
  if (assignment.size() != wanted_partitions)
    return "Increasing the number of partitions by " + std::to_string(wanted_partitions) + " but "
           + std::to_string(assignment.size()) + " assignments provided.";
  for (size_t i = 0; i < assignment.size(); ++i) {
    auto sorted = assignment[i];
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      return "Duplicate brokers not allowed in replica assignment: " + std::to_string(i);
    if (sorted.size() != replication_factor)
      return "Inconsistent replication factor between partitions, partition 0 has "
             + std::to_string(replication_factor) + " while new partition " + std::to_string(i) + " has "
             + std::to_string(sorted.size()) + ".";
    for (auto id : sorted)
      if (!view.is_live(id))
        return "Unknown broker(s) in replica assignment: " + std::to_string(id) + ".";
  }
  return {};
}

} // namespace

partition_addition_plan plan_partition_addition(const cluster_view& view, const std::string& topic, int32_t count,
                                                const std::vector<replica_list>& assignment,
                                                int32_t controller_epoch) {
  auto* entry = view.topic(topic);
  if (entry == nullptr)
    return refuse(kafka_error::unknown_topic_or_partition, "The topic '" + topic + "' does not exist.");
  if (is_internal_topic(topic))
    return refuse(kafka_error::invalid_request, "Partitions of the internal topic " + topic + " cannot be added.");
  auto& current = entry->assignment.partitions;
  auto now = static_cast<int32_t>(current.size());
  if (count <= now)
    return refuse(kafka_error::invalid_partitions,
                  "Topic currently has " + std::to_string(now) + " partitions, which is "
                    + (count == now ? "equal to" : "higher than") + " the requested " + std::to_string(count) + ".");
  auto rf = current.empty() ? size_t{1} : current.front().size();
  auto added = static_cast<size_t>(count - now);
  std::vector<replica_list> placed;
  if (!assignment.empty()) {
    if (auto problem = assignment_problem(view, assignment, added, rf); !problem.empty())
      return refuse(kafka_error::invalid_replica_assignment, problem);
    placed = assignment;
  } else {
    placement_options options;
    options.first_partition = now;
    auto replicas = place_replicas(count - now, static_cast<int32_t>(rf), view.broker_ids(), with_racks(view, options));
    if (!replicas && replicas.error() == errc::inconsistent_racks)
      return refuse(kafka_error::invalid_replica_assignment, replicas.error().message());
    if (!replicas)
      return refuse(kafka_error::invalid_replication_factor,
                    "Replication factor: " + std::to_string(rf) + " larger than available brokers: "
                      + std::to_string(view.broker_ids().size()) + ".");
    placed = std::move(*replicas);
  }
  partition_addition out;
  out.first = now;
  out.assignment = entry->assignment;
  for (auto& replicas : placed) {
    out.assignment.partitions.push_back(replicas);
    out.new_states.push_back(partition_state{preferred_leader(replicas), 0, controller_epoch, replicas});
  }
  return out;
}

} // namespace cafka::cluster
