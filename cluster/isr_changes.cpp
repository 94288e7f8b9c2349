#include "cluster/isr_changes.hpp"

#include <algorithm>

namespace cafka::cluster {
namespace {

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

/// Partition.scala effectiveMinIsr: min(min.insync.replicas, RF).
int64_t effective_min_isr(int32_t min_insync_replicas, size_t replication_factor) {
  return std::min<int64_t>(min_insync_replicas, static_cast<int64_t>(replication_factor));
}

} // namespace

std::optional<std::vector<int32_t>> shrunk_isr(const std::vector<int32_t>& isr, int32_t leader,
                                               const std::vector<replica_progress>& followers,
                                               int64_t leader_log_end, int64_t now_ms,
                                               int64_t lag_ms) {
  std::vector<int32_t> out;
  out.reserve(isr.size());
  for (auto id : isr) {
    bool keep = id == leader;
    if (!keep) {
      auto f = std::find_if(followers.begin(), followers.end(),
                            [id](const replica_progress& p) { return p.broker == id; });
      keep = f != followers.end() && is_caught_up(*f, leader_log_end, now_ms, lag_ms);
    }
    if (keep)
      out.push_back(id);
  }
  if (out.size() == isr.size())
    return std::nullopt;
  return out;
}

bool may_join_isr(const replica_progress& p, bool is_replica, bool is_live,
                  int64_t high_watermark, int64_t leader_epoch_start_offset) {
  return is_replica && is_live && p.log_end_offset >= 0 && p.log_end_offset >= high_watermark
         && p.log_end_offset >= leader_epoch_start_offset;
}

std::vector<int32_t> expanded_isr(const std::vector<int32_t>& isr, int32_t broker,
                                  const replica_list& replicas) {
  std::vector<int32_t> out;
  for (auto id : replicas)
    if ((id == broker || contains(isr, id)) && !contains(out, id))
      out.push_back(id);
  for (auto id : isr)
    if (!contains(out, id))
      out.push_back(id);
  if (!contains(out, broker))
    out.push_back(broker);
  return out;
}

produce_wait acks_all_outcome(int64_t high_watermark, int64_t required_offset,
                              size_t maximal_isr_size, int32_t min_insync_replicas,
                              size_t replication_factor) {
  if (high_watermark < required_offset)
    return produce_wait::pending;
  if (static_cast<int64_t>(maximal_isr_size)
      >= effective_min_isr(min_insync_replicas, replication_factor))
    return produce_wait::done;
  return produce_wait::not_enough_replicas_after_append;
}

bool enough_replicas_for_acks_all(size_t isr_size, int32_t min_insync_replicas,
                                  size_t replication_factor) {
  return static_cast<int64_t>(isr_size) >= effective_min_isr(min_insync_replicas, replication_factor);
}

} // namespace cafka::cluster
