// What a power loss leaves of a partition log (power_loss.hpp).
#include "sim/power_loss.hpp"

#include <algorithm>

#include "storage/file.hpp"
#include "storage/partition_log.hpp"
#include "storage/segment_name.hpp"

namespace cafka::sim {

result<torn_tail> cut_unflushed(storage::partition_log& log, double keep_fraction) {
  torn_tail tail;
  auto rp = log.recovery_point();
  if (rp >= log.log_end_offset())
    return tail;
  tail.lost_offsets = log.log_end_offset() - rp;
  auto where = log.locate(rp);
  if (!where)
    return where.error();
  if (*where) { // the written bytes after the recovery point in its segment
    tail.segment_path = storage::segment_file_path(log.dir(), (*where)->segment_base_offset, storage::segment_file::log);
    auto f = storage::file::open(tail.segment_path, storage::file::mode::read_only);
    if (!f)
      return f.error();
    auto size = f->size();
    if (!size)
      return size.error();
    auto from = (*where)->file_position;
    auto unflushed = *size > from ? *size - from : 0;
    auto keep = static_cast<uint64_t>(double(unflushed) * std::clamp(keep_fraction, 0.0, 1.0));
    tail.bytes.resize(std::min(keep, unflushed));
    if (auto n = f->read_at(tail.bytes.data(), tail.bytes.size(), from); !n)
      return n.error();
    else
      tail.bytes.resize(*n);
  }
  if (auto st = log.truncate_to(rp); !st)
    return st.error();
  return tail;
}

status write_torn_tail(const torn_tail& tail) {
  if (tail.bytes.empty())
    return {};
  auto f = storage::file::open(tail.segment_path, storage::file::mode::read_write_create);
  if (!f)
    return f.error();
  return f->append(tail.bytes.data(), tail.bytes.size());
}

} // namespace cafka::sim
