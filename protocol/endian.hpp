#pragma once
// Loads and stores of fixed-width integers at unaligned addresses, in big-endian
// (Kafka's wire order) and little-endian (checksum lanes). Callers guarantee that
// `sizeof(T)` bytes are readable or writable at the pointer; nothing is checked here.
//
// memcpy + byte swap compiles to a single mov/movbe on x86 and is free of the
// alignment and strict-aliasing traps of casting a char* to an integer pointer.

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace cafka::protocol {
namespace detail {

inline uint8_t byte_swap(uint8_t v) noexcept { return v; }
inline uint16_t byte_swap(uint16_t v) noexcept { return __builtin_bswap16(v); }
inline uint32_t byte_swap(uint32_t v) noexcept { return __builtin_bswap32(v); }
inline uint64_t byte_swap(uint64_t v) noexcept { return __builtin_bswap64(v); }

constexpr bool host_is_little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

} // namespace detail

/// Reads a big-endian T (any 1, 2, 4 or 8 byte integer) from `p`.
template <class T>
T load_be(const void* p) noexcept {
  static_assert(std::is_integral_v<T>);
  using u = std::make_unsigned_t<T>;
  u v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (detail::host_is_little_endian) v = detail::byte_swap(v);
  return static_cast<T>(v);
}

/// Writes `value` big-endian to `p`.
template <class T>
void store_be(void* p, T value) noexcept {
  static_assert(std::is_integral_v<T>);
  using u = std::make_unsigned_t<T>;
  u v = static_cast<u>(value);
  if constexpr (detail::host_is_little_endian) v = detail::byte_swap(v);
  std::memcpy(p, &v, sizeof v);
}

/// Appends `value` big-endian to `out` (small files built as strings: producer snapshots,
/// transaction indexes).
template <class T>
void append_be(std::string& out, T value) {
  char buf[sizeof(T)];
  store_be(buf, value);
  out.append(buf, sizeof buf);
}

/// Reads a little-endian T from `p`.
template <class T>
T load_le(const void* p) noexcept {
  static_assert(std::is_integral_v<T>);
  using u = std::make_unsigned_t<T>;
  u v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (!detail::host_is_little_endian) v = detail::byte_swap(v);
  return static_cast<T>(v);
}

} // namespace cafka::protocol
