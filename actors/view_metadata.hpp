#pragma once
// Metadata answers of a broker in cluster mode, made from its cluster view
// (cluster/cluster_view.hpp) and the partition actors it serves: every live broker (host,
// Kafka port, CAF port), the controller, and each partition's leader as the view records it
// if that broker is live. A partition without a live leader, or one this broker leads but
// has not opened yet, is LEADER_NOT_AVAILABLE (leader -1): clients retry. The actor handle
// is filled only for partitions served here.
//
// The internal __consumer_offsets (docs/cluster.md, "Groups across nodes") is left out of
// all-topics answers (choice: Kafka lists it flagged internal, which cafka's Metadata cannot
// say, and clients subscribing by pattern should never see it); asked for by name, it is
// described with its leaders (the group coordinators) and no partition actors.

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "actors/node_actor.hpp"
#include "cluster/cluster_view.hpp"

namespace cafka {

/// The metadata of `names` (all topics of the view if `all_topics`).
cluster_metadata metadata_from_view(const cluster::cluster_view& view, int32_t my_id,
                                    const std::map<topic_partition, partition_actor>& served,
                                    std::vector<std::string> names, bool all_topics);

/// Every partition the view knows that is not in `served`: requests for them are answered
/// NOT_LEADER_OR_FOLLOWER (routing_table::miss_error).
std::set<topic_partition> partitions_elsewhere(const cluster::cluster_view& view,
                                               const std::map<topic_partition, partition_actor>& served);

} // namespace cafka
