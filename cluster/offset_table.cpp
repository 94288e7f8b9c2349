#include "cluster/offset_table.hpp"

#include <algorithm>
#include <limits>

namespace cafka::cluster {
namespace {

/// The first key of `group` in key order.
offset_key first_key_of(std::string_view group) {
  return {std::string(group), std::string(), std::numeric_limits<int32_t>::min()};
}

bool is_expired(const committed_offset& c, int64_t now_ms, int64_t retention_ms,
                const group_expiry_state& group) {
  if (c.expire_timestamp_ms)
    return now_ms >= *c.expire_timestamp_ms;
  auto base = group.empty_since_ms.value_or(c.commit_timestamp_ms);
  // now - base >= retention, computed in uint64 so that no timestamp can overflow it.
  if (now_ms < base)
    return false;
  auto elapsed = static_cast<uint64_t>(now_ms) - static_cast<uint64_t>(base);
  return retention_ms <= 0 || elapsed >= static_cast<uint64_t>(retention_ms);
}

} // namespace

void offset_table::set(const offset_update& update) {
  if (update.value)
    entries_.insert_or_assign(update.key, *update.value);
  else
    entries_.erase(update.key);
}

void offset_table::apply(const offset_update& update) {
  ++log_records_;
  // A plain commit written after a transaction's pending one is the newer: that
  // transaction's COMMIT marker must not bring the older offset back (Kafka's
  // completePendingTxnOffsetCommit applies a pending offset only over an older one).
  if (update.value)
    for (auto& [producer, held] : pending_)
      held.erase(std::remove_if(held.begin(), held.end(), [&](auto& u) { return u.key == update.key; }),
                 held.end());
  set(update);
}

void offset_table::apply(const std::vector<offset_update>& updates) {
  for (auto& u : updates)
    apply(u);
}

void offset_table::apply(const decoded_offset_batch& read) {
  for (auto& step : read.steps) {
    if (step.commit)
      complete_pending(step.producer_id, *step.commit);
    else if (step.producer_id >= 0)
      add_pending(step.producer_id, step.updates);
    else
      apply(step.updates);
  }
}

void offset_table::add_pending(int64_t producer_id, const std::vector<offset_update>& updates) {
  log_records_ += updates.size();
  auto& held = pending_[producer_id];
  held.insert(held.end(), updates.begin(), updates.end());
}

void offset_table::complete_pending(int64_t producer_id, bool commit) {
  auto it = pending_.find(producer_id);
  if (it == pending_.end())
    return;
  auto held = std::move(it->second);
  pending_.erase(it);
  if (!commit)
    return;
  for (auto& u : held) // counted in the log when they were added
    set(u);
}

const committed_offset* offset_table::find(const offset_key& key) const {
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

std::vector<partition_offset> offset_table::group_offsets(std::string_view group) const {
  std::vector<partition_offset> out;
  for (auto it = entries_.lower_bound(first_key_of(group));
       it != entries_.end() && it->first.group == group; ++it)
    out.push_back({it->first.topic, it->first.partition, it->second});
  return out;
}

std::vector<std::string> offset_table::groups() const {
  std::vector<std::string> out;
  for (auto& [key, value] : entries_)
    if (out.empty() || out.back() != key.group)
      out.push_back(key.group);
  return out;
}

bool offset_table::has_group(std::string_view group) const {
  auto it = entries_.lower_bound(first_key_of(group));
  return it != entries_.end() && it->first.group == group;
}

std::vector<offset_update> offset_table::expired(int64_t now_ms, int64_t retention_ms,
                                                 const group_expiry_probe& group_state) const {
  std::vector<offset_update> out;
  const std::string* current_group = nullptr;
  group_expiry_state state;
  for (auto& [key, value] : entries_) {
    if (!current_group || *current_group != key.group) {
      current_group = &key.group;
      state = group_state(key.group);
    }
    if (state.empty && is_expired(value, now_ms, retention_ms, state))
      out.push_back({key, std::nullopt});
  }
  return out;
}

} // namespace cafka::cluster
