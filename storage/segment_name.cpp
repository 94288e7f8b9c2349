#include "storage/segment_name.hpp"

#include <cstdio>

namespace cafka::storage {
namespace {

constexpr size_t digits = 20;

std::string_view suffix_of(segment_file kind) {
  switch (kind) {
    case segment_file::log: return ".log";
    case segment_file::index: return ".index";
    case segment_file::timeindex: return ".timeindex";
    case segment_file::snapshot: return ".snapshot";
    case segment_file::txnindex: return ".txnindex";
  }
  return "";
}

} // namespace

std::string offset_file_stem(int64_t base_offset) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%020lld", static_cast<long long>(base_offset));
  return buf;
}

std::string segment_file_path(const std::string& dir, int64_t base_offset, segment_file kind) {
  return dir + '/' + offset_file_stem(base_offset) + std::string(suffix_of(kind));
}

std::optional<int64_t> parse_segment_file_name(std::string_view name, segment_file kind) {
  auto suffix = suffix_of(kind);
  if (name.size() != digits + suffix.size() || name.substr(digits) != suffix)
    return std::nullopt;
  int64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    char c = name[i];
    if (c < '0' || c > '9')
      return std::nullopt;
    if (value > (INT64_MAX - (c - '0')) / 10)
      return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

} // namespace cafka::storage
