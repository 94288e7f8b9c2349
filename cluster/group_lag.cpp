#include "cluster/group_lag.hpp"

#include <algorithm>

#include "protocol/wire/consumer_protocol.hpp"

namespace cafka::cluster {

std::map<topic_partition, const member_description*> partition_owners(const group_description& group) {
  std::map<topic_partition, const member_description*> out;
  if (group.protocol_type != "consumer")
    return out;
  for (auto& m : group.members) {
    if (m.assignment.empty())
      continue;
    auto decoded = wire::decode_consumer_assignment(wire::bytes_view{m.assignment.data(), m.assignment.size()});
    if (!decoded)
      continue;
    for (auto& t : decoded->assigned_partitions)
      for (auto p : t.partitions)
        out.emplace(topic_partition{t.topic, p}, &m);
  }
  return out;
}

std::vector<group_lag_row> group_lag(const group_description& group,
                                     const std::map<topic_partition, int64_t>& committed,
                                     const std::map<topic_partition, partition_bounds>& bounds) {
  auto owners = partition_owners(group);
  std::map<topic_partition, group_lag_row> rows;
  for (auto& [tp, offset] : committed) {
    rows[tp].tp = tp;
    rows[tp].committed = offset;
  }
  for (auto& [tp, member] : owners) {
    auto& row = rows[tp];
    row.tp = tp;
    row.member_id = member->member_id;
    row.client_host = member->client_host;
    row.client_id = member->client_id;
  }
  std::vector<group_lag_row> out;
  for (auto& [tp, row] : rows) {
    if (auto it = bounds.find(tp); it != bounds.end())
      row.log_end = it->second.log_end;
    // Markers such as -1 (kafkajs) are no position: no lag either.
    if (row.committed && *row.committed >= 0 && row.log_end)
      row.lag = std::max<int64_t>(*row.log_end - *row.committed, 0);
    out.push_back(std::move(row));
  }
  return out;
}

bool is_inactive(group_phase state) noexcept {
  return state == group_phase::empty || state == group_phase::dead;
}

reset_plan plan_reset(const std::vector<topic_partition>& partitions,
                      const std::map<topic_partition, partition_bounds>& bounds, reset_spec spec) {
  reset_plan plan;
  for (auto& tp : partitions) {
    auto it = bounds.find(tp);
    if (it == bounds.end()) {
      plan.unknown.push_back(tp);
      continue;
    }
    auto& b = it->second;
    switch (spec.target) {
      case reset_target::earliest:
        plan.offsets[tp] = b.log_start;
        break;
      case reset_target::latest:
        plan.offsets[tp] = b.log_end;
        break;
      case reset_target::offset:
        plan.offsets[tp] = std::clamp(spec.offset, b.log_start, std::max(b.log_start, b.log_end));
        break;
    }
  }
  return plan;
}

} // namespace cafka::cluster
