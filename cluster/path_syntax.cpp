#include "cluster/path_syntax.hpp"

#include <cstdint>

namespace cafka::cluster {
namespace {

// Decodes one UTF-8 sequence at text[i]; returns its length and stores the code point, or
// returns 0 for a malformed or overlong sequence.
std::size_t decode_utf8(std::string_view text, std::size_t i, uint32_t& cp) {
  auto byte = [&](std::size_t k) { return static_cast<uint8_t>(text[k]); };
  uint8_t b0 = byte(i);
  std::size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
  if (len == 0 || i + len > text.size())
    return 0;
  cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1fu) : len == 3 ? (b0 & 0x0fu) : (b0 & 0x07u);
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xc0) != 0x80)
      return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3fu);
  }
  static constexpr uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_for_len[len])
    return 0;
  return len;
}

bool is_allowed_code_point(uint32_t cp) {
  return !(cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xf8ff)
           || cp >= 0xfff0);
}

} // namespace

bool is_valid_path(std::string_view path) {
  if (path.empty() || path.front() != '/')
    return false;
  if (path.size() == 1)
    return true;
  if (path.back() == '/')
    return false;
  for (std::size_t start = 1; start <= path.size();) {
    auto end = path.find('/', start);
    if (end == std::string_view::npos)
      end = path.size();
    auto segment = path.substr(start, end - start);
    if (segment.empty() || segment == "." || segment == "..")
      return false;
    start = end + 1;
  }
  for (std::size_t i = 0; i < path.size();) {
    uint32_t cp = 0;
    auto len = decode_utf8(path, i, cp);
    if (len == 0 || !is_allowed_code_point(cp))
      return false;
    i += len;
  }
  return true;
}

bool is_valid_create_path(std::string_view path, bool sequential) {
  if (!sequential)
    return is_valid_path(path);
  std::string candidate(path);
  candidate += "0000000000";
  return is_valid_path(candidate);
}

std::string_view parent_path(std::string_view path) {
  auto slash = path.rfind('/');
  if (slash == std::string_view::npos || path == "/")
    return {};
  return slash == 0 ? path.substr(0, 1) : path.substr(0, slash);
}

std::string_view node_name(std::string_view path) {
  auto slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string join_path(std::string_view parent, std::string_view name) {
  std::string out(parent);
  if (out.empty() || out.back() != '/')
    out += '/';
  out += name;
  return out;
}

std::vector<std::string> ancestors(std::string_view path) {
  std::vector<std::string> out;
  for (auto slash = path.find('/', 1); slash != std::string_view::npos;
       slash = path.find('/', slash + 1))
    out.emplace_back(path.substr(0, slash));
  return out;
}

} // namespace cafka::cluster
