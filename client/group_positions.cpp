#include "client/group_positions.hpp"

namespace cafka::client {

start_position start_for(std::optional<int64_t> committed, offset_reset reset) {
  if (committed && *committed >= 0)
    return start_position::at_offset(*committed);
  return reset == offset_reset::earliest ? start_position::earliest() : start_position::latest();
}

void group_positions::assign(const std::vector<topic_partition>& partitions,
                             const std::vector<group_offset>& committed) {
  clear();
  for (auto& tp : partitions)
    consumed_[tp] = std::nullopt;
  for (auto& o : committed)
    if (owns(o.tp) && o.offset >= 0)
      committed_[o.tp] = o.offset;
}

void group_positions::clear() {
  consumed_.clear();
  committed_.clear();
}

void group_positions::consumed(const topic_partition& tp, int64_t next_offset) {
  auto it = consumed_.find(tp);
  if (it == consumed_.end())
    return;
  if (!it->second || *it->second < next_offset)
    it->second = next_offset;
}

std::vector<group_offset> group_positions::uncommitted() const {
  std::vector<group_offset> out;
  for (auto& [tp, offset] : consumed_) {
    if (!offset)
      continue;
    auto c = committed_.find(tp);
    if (c == committed_.end() || c->second != *offset)
      out.push_back(group_offset{tp, *offset, -1, {}});
  }
  return out;
}

void group_positions::committed(const std::vector<group_offset>& offsets) {
  for (auto& o : offsets)
    if (owns(o.tp))
      committed_[o.tp] = o.offset;
}

std::optional<int64_t> group_positions::committed_offset(const topic_partition& tp) const {
  auto it = committed_.find(tp);
  if (it == committed_.end())
    return std::nullopt;
  return it->second;
}

} // namespace cafka::client
