#include "storage/aborted_txn_index.hpp"

#include <cstdio>

#include "protocol/byte_reader.hpp"
#include "protocol/endian.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

namespace {

constexpr int16_t entry_version = 0;

} // namespace

std::string encode_aborted_txn(const aborted_txn& t) {
  std::string out;
  out.reserve(aborted_txn_size);
  protocol::append_be<int16_t>(out, entry_version);
  protocol::append_be<int64_t>(out, t.producer_id);
  protocol::append_be<int64_t>(out, t.first_offset);
  protocol::append_be<int64_t>(out, t.last_offset);
  protocol::append_be<int64_t>(out, t.last_stable_offset);
  return out;
}

std::vector<aborted_txn> decode_aborted_txns(std::string_view bytes) {
  std::vector<aborted_txn> out;
  protocol::byte_reader r(bytes);
  while (r.remaining() >= aborted_txn_size) {
    auto version = r.read_i16();
    aborted_txn t;
    t.producer_id = r.read_i64();
    t.first_offset = r.read_i64();
    t.last_offset = r.read_i64();
    t.last_stable_offset = r.read_i64();
    if (version != entry_version || t.first_offset > t.last_offset
        || (!out.empty() && t.last_offset <= out.back().last_offset))
      break;
    out.push_back(t);
  }
  return out;
}

std::string aborted_txn_index::path_of(int64_t segment_base) const {
  return segment_file_path(dir_, segment_base, segment_file::txnindex);
}

status aborted_txn_index::load(const std::vector<int64_t>& segment_bases, int64_t keep_below) {
  by_segment_.clear();
  unsynced_.clear();
  for (auto base : segment_bases) {
    auto bytes = read_file_if_present(path_of(base));
    if (!bytes)
      return bytes.error();
    if (!*bytes)
      continue;
    auto entries = decode_aborted_txns(**bytes);
    size_t whole = (*bytes)->size();
    while (!entries.empty() && entries.back().last_offset >= keep_below)
      entries.pop_back();
    by_segment_[base] = std::move(entries);
    if (whole != by_segment_[base].size() * aborted_txn_size)
      if (auto st = rewrite(base); !st)
        return st;
  }
  return {};
}

// The file cut to the entries in memory (no file for none); synced with the next flush.
status aborted_txn_index::rewrite(int64_t segment_base) {
  auto& entries = by_segment_[segment_base];
  if (entries.empty()) {
    by_segment_.erase(segment_base);
    unsynced_.erase(segment_base);
    return delete_files({path_of(segment_base)});
  }
  auto f = file::open(path_of(segment_base), file::mode::read_write_create);
  if (!f)
    return f.error();
  if (auto st = f->truncate(entries.size() * aborted_txn_size); !st)
    return st;
  unsynced_.insert(segment_base);
  return {};
}

status aborted_txn_index::add(int64_t segment_base, const aborted_txn& t) {
  auto f = file::open(path_of(segment_base), file::mode::read_write_create);
  if (!f)
    return f.error();
  auto& entries = by_segment_[segment_base];
  // A write that failed halfway is cut back before the next entry goes after it.
  if (auto st = f->truncate(entries.size() * aborted_txn_size); !st)
    return st;
  auto bytes = encode_aborted_txn(t);
  if (auto st = f->append(bytes.data(), bytes.size()); !st)
    return st;
  entries.push_back(t);
  unsynced_.insert(segment_base);
  return {};
}

status aborted_txn_index::truncate_from(int64_t offset) {
  std::vector<int64_t> changed;
  for (auto& [base, entries] : by_segment_) {
    size_t before = entries.size();
    while (!entries.empty() && entries.back().last_offset >= offset)
      entries.pop_back();
    if (entries.size() != before)
      changed.push_back(base);
  }
  for (auto base : changed)
    if (auto st = rewrite(base); !st)
      return st;
  return {};
}

result<std::optional<std::string>> aborted_txn_index::retire(int64_t segment_base) {
  if (by_segment_.erase(segment_base) == 0)
    return std::optional<std::string>{};
  unsynced_.erase(segment_base);
  auto from = path_of(segment_base);
  auto to = from + deleted_suffix;
  if (std::rename(from.c_str(), to.c_str()) != 0)
    return std::error_code(errno, std::system_category());
  return std::optional<std::string>{to};
}

std::vector<aborted_txn> aborted_txn_index::entries_of(int64_t segment_base) const {
  auto it = by_segment_.find(segment_base);
  return it == by_segment_.end() ? std::vector<aborted_txn>{} : it->second;
}

void aborted_txn_index::adopt(int64_t segment_base, std::vector<aborted_txn> entries) {
  if (!entries.empty())
    by_segment_[segment_base] = std::move(entries);
}

status aborted_txn_index::clear() {
  std::vector<std::string> paths;
  for (auto& [base, entries] : by_segment_)
    paths.push_back(path_of(base));
  by_segment_.clear();
  unsynced_.clear();
  return delete_files(paths);
}

std::vector<aborted_range> aborted_txn_index::collect(int64_t fetch_offset, int64_t upper) const {
  std::vector<aborted_range> out;
  auto it = by_segment_.upper_bound(fetch_offset);
  if (it != by_segment_.begin())
    --it;
  for (; it != by_segment_.end(); ++it) {
    for (auto& t : it->second) {
      if (t.last_offset >= fetch_offset && t.first_offset < upper)
        out.push_back({t.producer_id, t.first_offset});
      if (t.last_stable_offset >= upper)
        return out;
    }
  }
  return out;
}

status aborted_txn_index::prepare_flush(std::vector<file>& to_sync) {
  for (auto base : unsynced_) {
    auto f = file::open(path_of(base), file::mode::read_only);
    if (!f)
      return f.error();
    to_sync.push_back(std::move(*f));
  }
  unsynced_.clear();
  return {};
}

size_t aborted_txn_index::size() const noexcept {
  size_t n = 0;
  for (auto& [base, entries] : by_segment_)
    n += entries.size();
  return n;
}

} // namespace cafka::storage
