#include "protocol/byte_reader.hpp"

#include "protocol/endian.hpp"

namespace cafka::protocol {

const char* byte_reader::take(size_t n) noexcept {
  if (!ok()) return nullptr;
  if (input_.size() - pos_ < n) {
    fail(errc::truncated);
    return nullptr;
  }
  const char* p = input_.data() + pos_;
  pos_ += n;
  return p;
}

int8_t byte_reader::read_i8() noexcept {
  auto p = take(1);
  return p ? load_be<int8_t>(p) : 0;
}

int16_t byte_reader::read_i16() noexcept {
  auto p = take(2);
  return p ? load_be<int16_t>(p) : 0;
}

int32_t byte_reader::read_i32() noexcept {
  auto p = take(4);
  return p ? load_be<int32_t>(p) : 0;
}

int64_t byte_reader::read_i64() noexcept {
  auto p = take(8);
  return p ? load_be<int64_t>(p) : 0;
}

uint32_t byte_reader::read_u32() noexcept {
  auto p = take(4);
  return p ? load_be<uint32_t>(p) : 0;
}

uint64_t byte_reader::read_unsigned_varint(int max_bytes) noexcept {
  uint64_t value = 0;
  for (int i = 0; i < max_bytes; ++i) {
    auto p = take(1);
    if (!p) return 0;
    auto b = static_cast<uint8_t>(*p);
    // Bits shifted past the type's width are dropped, as Kafka's ByteUtils does.
    value |= uint64_t{b & 0x7fu} << (7 * i);
    if ((b & 0x80) == 0) return value;
  }
  // Still a continuation bit after the longest legal encoding: refuse rather than
  // loop on, so a run of 0xff bytes cannot make us read (or mean) anything.
  fail(errc::bad_varint);
  return 0;
}

int32_t byte_reader::read_varint() noexcept {
  auto u = static_cast<uint32_t>(read_unsigned_varint(5));
  return static_cast<int32_t>((u >> 1) ^ (0u - (u & 1)));
}

int64_t byte_reader::read_varlong() noexcept {
  uint64_t u = read_unsigned_varint(10);
  return static_cast<int64_t>((u >> 1) ^ (uint64_t{0} - (u & 1)));
}

uint32_t byte_reader::read_uvarint() noexcept {
  return static_cast<uint32_t>(read_unsigned_varint(5));
}

std::optional<bytes_view> byte_reader::read_sized(int64_t length, bool nullable) noexcept {
  if (!ok()) return bytes_view{};
  if (length == -1 && nullable) return std::nullopt;
  if (length < 0) {
    fail(errc::bad_length);
    return bytes_view{};
  }
  return read_raw(static_cast<size_t>(length));
}

bytes_view byte_reader::read_string() noexcept {
  return *read_sized(read_i16(), false);
}

std::optional<bytes_view> byte_reader::read_nullable_string() noexcept {
  return read_sized(read_i16(), true);
}

bytes_view byte_reader::read_bytes() noexcept {
  return *read_sized(read_i32(), false);
}

std::optional<bytes_view> byte_reader::read_nullable_bytes() noexcept {
  return read_sized(read_i32(), true);
}

std::optional<bytes_view> byte_reader::read_varint_bytes() noexcept {
  return read_sized(read_varint(), true);
}

bytes_view byte_reader::read_raw(size_t n) noexcept {
  auto p = take(n);
  return p ? bytes_view{p, n} : bytes_view{};
}

} // namespace cafka::protocol
