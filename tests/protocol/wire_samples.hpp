#pragma once
// Valid request bodies (after the request header) for every API and version cafka
// decodes: the unit tests' inputs, and the seeds of the mutation test.

#include <cstdint>
#include <vector>

namespace cafka::wire::test {

struct wire_sample {
  int16_t api_key = 0;
  int16_t version = 0;
  std::vector<char> body;
};

/// Produce, Fetch, ListOffsets, OffsetForLeaderEpoch (wire_samples_data.cpp).
std::vector<wire_sample> data_request_samples();
/// ApiVersions, Metadata, CreateTopics, DeleteTopics, InitProducerId, DescribeClientQuotas,
/// AlterClientQuotas, the config, election, partition and reassignment APIs (wire_samples_admin.cpp).
std::vector<wire_sample> admin_request_samples();
/// FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit,
/// OffsetFetch, ListGroups, DescribeGroups (wire_samples_group.cpp).
std::vector<wire_sample> group_request_samples();

} // namespace cafka::wire::test
