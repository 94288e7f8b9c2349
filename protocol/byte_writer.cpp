#include "protocol/byte_writer.hpp"

#include <limits>
#include <stdexcept>

#include "protocol/endian.hpp"

namespace cafka::protocol {
namespace {

uint32_t zigzag(int32_t v) noexcept {
  // Arithmetic right shift spreads the sign bit: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ...
  return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31);
}

uint64_t zigzag(int64_t v) noexcept {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}

size_t unsigned_varint_size(uint64_t v) noexcept {
  size_t n = 1;
  for (; v >= 0x80; v >>= 7) ++n;
  return n;
}

template <class T>
void append_be(std::vector<char>& out, T v) {
  char buf[sizeof(T)];
  store_be(buf, v);
  out.insert(out.end(), buf, buf + sizeof buf);
}

void check_length(size_t size, size_t max, const char* what) {
  if (size > max) throw std::length_error(what);
}

} // namespace

size_t varint_size(int32_t value) noexcept { return unsigned_varint_size(zigzag(value)); }
size_t varlong_size(int64_t value) noexcept { return unsigned_varint_size(zigzag(value)); }
size_t uvarint_size(uint32_t value) noexcept { return unsigned_varint_size(value); }

size_t varint_bytes_size(const std::optional<bytes_view>& b) noexcept {
  if (!b) return 1; // -1, zigzag 0x01
  return varint_size(static_cast<int32_t>(b->size())) + b->size();
}

void byte_writer::write_i16(int16_t v) { append_be(out_, v); }
void byte_writer::write_i32(int32_t v) { append_be(out_, v); }
void byte_writer::write_i64(int64_t v) { append_be(out_, v); }
void byte_writer::write_u32(uint32_t v) { append_be(out_, v); }

void byte_writer::write_unsigned_varint(uint64_t v) {
  char buf[10];
  size_t n = 0;
  for (; v >= 0x80; v >>= 7) buf[n++] = static_cast<char>((v & 0x7f) | 0x80);
  buf[n++] = static_cast<char>(v);
  out_.insert(out_.end(), buf, buf + n);
}

void byte_writer::write_varint(int32_t v) { write_unsigned_varint(zigzag(v)); }
void byte_writer::write_varlong(int64_t v) { write_unsigned_varint(zigzag(v)); }
void byte_writer::write_uvarint(uint32_t v) { write_unsigned_varint(v); }

void byte_writer::write_string(bytes_view s) {
  check_length(s.size(), std::numeric_limits<int16_t>::max(), "STRING longer than 32767");
  write_i16(static_cast<int16_t>(s.size()));
  write_raw(s);
}

void byte_writer::write_nullable_string(const std::optional<bytes_view>& s) {
  if (s) write_string(*s);
  else write_i16(-1);
}

void byte_writer::write_bytes(bytes_view b) {
  check_length(b.size(), std::numeric_limits<int32_t>::max(), "BYTES longer than 2^31-1");
  write_i32(static_cast<int32_t>(b.size()));
  write_raw(b);
}

void byte_writer::write_nullable_bytes(const std::optional<bytes_view>& b) {
  if (b) write_bytes(*b);
  else write_i32(-1);
}

void byte_writer::write_varint_bytes(const std::optional<bytes_view>& b) {
  if (!b) {
    write_varint(-1);
    return;
  }
  check_length(b->size(), std::numeric_limits<int32_t>::max(), "record field longer than 2^31-1");
  write_varint(static_cast<int32_t>(b->size()));
  write_raw(*b);
}

} // namespace cafka::protocol
