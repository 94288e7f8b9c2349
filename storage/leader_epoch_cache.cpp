#include "storage/leader_epoch_cache.hpp"

#include <algorithm>
#include <charconv>

#include "storage/errc.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

leader_epoch_cache::leader_epoch_cache(std::vector<epoch_entry> entries) {
  for (auto& e : entries)
    assign(e.epoch, e.start_offset);
}

bool leader_epoch_cache::assign(int32_t epoch, int64_t start_offset) {
  if (epoch < 0 || start_offset < 0)
    return false;
  if (!entries_.empty() && entries_.back().epoch == epoch && entries_.back().start_offset <= start_offset)
    return false;
  // Only a suffix can match: both fields ascend.
  while (!entries_.empty()
         && (entries_.back().epoch >= epoch || entries_.back().start_offset >= start_offset))
    entries_.pop_back();
  entries_.push_back({epoch, start_offset});
  return true;
}

std::optional<int32_t> leader_epoch_cache::latest_epoch() const {
  if (entries_.empty())
    return std::nullopt;
  return entries_.back().epoch;
}

epoch_end_offset leader_epoch_cache::end_offset_for(int32_t epoch, int64_t log_end_offset) const {
  if (epoch < 0)
    return {};
  if (!entries_.empty() && entries_.back().epoch == epoch)
    return {epoch, log_end_offset};
  auto higher = std::upper_bound(entries_.begin(), entries_.end(), epoch,
                                 [](int32_t e, const epoch_entry& x) { return e < x.epoch; });
  if (higher == entries_.end())
    return {};
  if (higher == entries_.begin()) // older than anything kept: the data before is gone
    return {epoch, higher->start_offset};
  return {std::prev(higher)->epoch, higher->start_offset};
}

std::optional<int32_t> leader_epoch_cache::epoch_for_offset(int64_t offset) const {
  std::optional<int32_t> epoch;
  for (auto& e : entries_) {
    if (e.start_offset > offset)
      break;
    epoch = e.epoch;
  }
  return epoch;
}

std::optional<int64_t> leader_epoch_cache::start_offset_of(int32_t epoch) const {
  auto it = std::find_if(entries_.begin(), entries_.end(),
                         [epoch](const epoch_entry& e) { return e.epoch == epoch; });
  if (it == entries_.end())
    return std::nullopt;
  return it->start_offset;
}

bool leader_epoch_cache::truncate_from_end(int64_t offset) {
  bool changed = false;
  while (!entries_.empty() && entries_.back().start_offset >= offset) {
    entries_.pop_back();
    changed = true;
  }
  return changed;
}

bool leader_epoch_cache::truncate_from_start(int64_t offset) {
  auto after = std::upper_bound(entries_.begin(), entries_.end(), offset,
                                [](int64_t o, const epoch_entry& e) { return o < e.start_offset; });
  if (after == entries_.begin())
    return false; // every entry starts above `offset`
  auto last_below = std::prev(after);
  bool changed = last_below != entries_.begin() || last_below->start_offset != offset;
  last_below->start_offset = offset;
  entries_.erase(entries_.begin(), last_below);
  return changed;
}

void leader_epoch_cache::clear() {
  entries_.clear();
}

std::string format_leader_epoch_checkpoint(const leader_epoch_cache& cache) {
  std::string out = "0\n" + std::to_string(cache.entries().size()) + '\n';
  for (auto& e : cache.entries())
    out += std::to_string(e.epoch) + ' ' + std::to_string(e.start_offset) + '\n';
  return out;
}

namespace {

// Cuts the next '\n'-terminated line off `text`; false when there is none.
bool next_line(std::string_view& text, std::string_view& line) {
  auto nl = text.find('\n');
  if (nl == std::string_view::npos)
    return false;
  line = text.substr(0, nl);
  text.remove_prefix(nl + 1);
  return true;
}

// A whole field as a non-negative decimal number (no sign, no spaces).
template <class T>
bool parse_number(std::string_view s, T& out) {
  if (s.empty() || s[0] == '-')
    return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc{} && end == s.data() + s.size();
}

} // namespace

result<leader_epoch_cache> parse_leader_epoch_checkpoint(std::string_view text) {
  std::string_view line;
  int version = -1;
  size_t count = 0;
  if (!next_line(text, line) || !parse_number(line, version) || version != 0 || !next_line(text, line)
      || !parse_number(line, count))
    return errc::corrupt_checkpoint;
  leader_epoch_cache cache;
  for (size_t i = 0; i < count; ++i) {
    epoch_entry e;
    if (!next_line(text, line))
      return errc::corrupt_checkpoint;
    auto space = line.find(' ');
    if (space == std::string_view::npos || !parse_number(line.substr(0, space), e.epoch)
        || !parse_number(line.substr(space + 1), e.start_offset))
      return errc::corrupt_checkpoint;
    auto& prev = cache.entries();
    if (!prev.empty() && (e.epoch <= prev.back().epoch || e.start_offset <= prev.back().start_offset))
      return errc::corrupt_checkpoint;
    cache.assign(e.epoch, e.start_offset); // ascending: appends
  }
  if (!text.empty())
    return errc::corrupt_checkpoint;
  return cache;
}

status write_leader_epoch_file(const std::string& path, const leader_epoch_cache& cache) {
  return write_file_atomically(path, format_leader_epoch_checkpoint(cache));
}

result<leader_epoch_cache> read_leader_epoch_file(const std::string& path) {
  auto text = read_file_if_present(path);
  if (!text)
    return text.error();
  if (!*text)
    return leader_epoch_cache{};
  return parse_leader_epoch_checkpoint(**text);
}

} // namespace cafka::storage
