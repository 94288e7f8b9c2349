#pragma once
// byte_writer: encoding of Kafka primitive types, appended to a borrowed std::vector<char>.
//
// Contract:
// - The writer appends to `out` (keeping what is already there); `out` must outlive the
//   writer. Anything may append to `out` between writes, the writer keeps no position.
// - Integers are written big-endian; varint/varlong are zigzag, uvarint is unsigned
//   (see byte_reader.hpp, the exact inverse).
// - Lengths that do not fit their prefix (a STRING over 32767 bytes, BYTES over 2 GiB)
//   are caller bugs and throw std::length_error.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "protocol/batch_header.hpp" // bytes_view

namespace cafka::protocol {

/// Encoded sizes, for computing length prefixes before writing.
size_t varint_size(int32_t value) noexcept;
size_t varlong_size(int64_t value) noexcept;
size_t uvarint_size(uint32_t value) noexcept;
/// Size of a record key/value/header field written by write_varint_bytes.
size_t varint_bytes_size(const std::optional<bytes_view>& b) noexcept;

class byte_writer {
public:
  explicit byte_writer(std::vector<char>& out) noexcept : out_(out) {}

  void write_i8(int8_t v) { out_.push_back(static_cast<char>(v)); }
  void write_i16(int16_t v);
  void write_i32(int32_t v);
  void write_i64(int64_t v);
  void write_u32(uint32_t v);

  void write_varint(int32_t v);
  void write_varlong(int64_t v);
  void write_uvarint(uint32_t v);

  /// STRING (i16 length).
  void write_string(bytes_view s);
  /// NULLABLE_STRING (i16 length, -1 for nullopt).
  void write_nullable_string(const std::optional<bytes_view>& s);
  /// BYTES (i32 length).
  void write_bytes(bytes_view b);
  /// NULLABLE_BYTES (i32 length, -1 for nullopt).
  void write_nullable_bytes(const std::optional<bytes_view>& b);
  /// Record key/value/header value: zigzag varint length (-1 for nullopt), then bytes.
  void write_varint_bytes(const std::optional<bytes_view>& b);

  void write_raw(bytes_view b) { out_.insert(out_.end(), b.begin(), b.end()); }

  /// Total size of `out`, including what was there before the writer.
  size_t size() const noexcept { return out_.size(); }

private:
  void write_unsigned_varint(uint64_t v);

  std::vector<char>& out_;
};

} // namespace cafka::protocol
