#pragma once
// Small helpers shared by the protocol tests: hex in and out, views over vectors,
// error codes to compare against, and deterministic random bytes.

#include <cctype>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "protocol/batch_header.hpp"
#include "protocol/errc.hpp"

namespace cafka::protocol::test {

/// Bytes from hex digits; whitespace is ignored so expected values can be laid out
/// field by field.
inline std::vector<char> from_hex(std::string_view hex) {
  std::vector<char> out;
  int high = -1;
  for (char c : hex) {
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
            : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                        : -1;
    if (v < 0) throw std::invalid_argument("from_hex: not a hex digit");
    if (high < 0) {
      high = v;
    } else {
      out.push_back(static_cast<char>(high * 16 + v));
      high = -1;
    }
  }
  if (high >= 0) throw std::invalid_argument("from_hex: odd number of digits");
  return out;
}

inline std::string to_hex(bytes_view bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

inline bytes_view view(const std::vector<char>& v) { return {v.data(), v.size()}; }

/// A spaced hex text as to_hex() writes it ("00 01 ff" -> "0001ff"), to compare encodings with.
inline std::string hex(const char* spaced) { return to_hex(view(from_hex(spaced))); }

inline std::error_code err(errc e) { return make_error_code(e); }

/// `n` pseudo-random bytes, the same for the same seed.
inline std::vector<char> random_bytes(size_t n, uint32_t seed = 42) {
  std::mt19937 gen(seed);
  std::vector<char> out(n);
  for (auto& c : out) c = static_cast<char>(gen());
  return out;
}

/// `n` bytes of text-like data that compresses well (repeated words with variations).
inline std::vector<char> compressible_bytes(size_t n, uint32_t seed = 7) {
  static const std::string_view words[] = {"offset ", "partition ", "broker ", "leader ",
                                           "replica ", "segment ", "{\"ts\":", "}\n"};
  std::mt19937 gen(seed);
  std::vector<char> out;
  out.reserve(n + 16);
  while (out.size() < n) {
    auto w = words[gen() % 8];
    out.insert(out.end(), w.begin(), w.end());
    out.push_back(static_cast<char>('0' + gen() % 10));
  }
  out.resize(n);
  return out;
}

inline std::optional<std::string> str(const char* s) { return std::string{s}; }

} // namespace cafka::protocol::test
