#include "protocol/wire/primitives.hpp"

#include <algorithm>

namespace cafka::wire {

using protocol::errc;

namespace {

// Fails unless `count` elements of at least `min_size` bytes fit in what is left.
int32_t checked_count(byte_reader& r, int64_t count, size_t min_size) {
  if (!r.ok())
    return 0;
  if (count < -1) {
    r.fail(errc::bad_length);
    return 0;
  }
  if (count > 0 && static_cast<uint64_t>(count) * std::max<size_t>(min_size, 1) > r.remaining()) {
    r.fail(errc::truncated);
    return 0;
  }
  return static_cast<int32_t>(count);
}

std::string to_string(bytes_view v) { return std::string{v.data(), v.size()}; }

} // namespace

int32_t read_array_count(byte_reader& r, size_t min_element_size) {
  return checked_count(r, r.read_i32(), min_element_size);
}

int32_t read_compact_array_count(byte_reader& r, size_t min_element_size) {
  auto n = r.read_uvarint();
  return checked_count(r, static_cast<int64_t>(n) - 1, min_element_size);
}

std::string read_string(byte_reader& r) { return to_string(r.read_string()); }

std::optional<std::string> read_nullable_string(byte_reader& r) {
  auto v = r.read_nullable_string();
  if (!v)
    return std::nullopt;
  return to_string(*v);
}

std::optional<std::string> read_compact_nullable_string(byte_reader& r) {
  auto n = r.read_uvarint();
  if (!r.ok() || n == 0)
    return std::nullopt;
  return to_string(r.read_raw(n - 1));
}

std::string read_compact_string(byte_reader& r) {
  auto s = read_compact_nullable_string(r);
  if (!s) {
    r.fail(errc::bad_length); // a null where the schema has a non-null string
    return {};
  }
  return std::move(*s);
}

std::optional<std::vector<char>> read_nullable_bytes(byte_reader& r) {
  auto v = r.read_nullable_bytes();
  if (!v)
    return std::nullopt;
  return std::vector<char>(v->begin(), v->end());
}

std::vector<char> read_bytes(byte_reader& r) {
  auto v = r.read_bytes();
  return std::vector<char>(v.begin(), v.end());
}

std::vector<int32_t> read_int32_array(byte_reader& r) {
  std::vector<int32_t> out;
  auto n = read_array_count(r, 4);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    out.push_back(r.read_i32());
  return out;
}

std::vector<std::string> read_string_array(byte_reader& r) {
  std::vector<std::string> out;
  auto n = read_array_count(r, 2);
  for (int32_t i = 0; i < n && r.ok(); ++i)
    out.push_back(read_string(r));
  return out;
}

void skip_tagged_fields(byte_reader& r) {
  auto n = r.read_uvarint();
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    r.read_uvarint(); // tag
    r.skip(r.read_uvarint());
  }
}

void write_string(byte_writer& w, const std::string& s) { w.write_string(s); }

void write_nullable_string(byte_writer& w, const std::optional<std::string>& s) {
  if (s)
    w.write_string(*s);
  else
    w.write_i16(-1);
}

void write_compact_string(byte_writer& w, const std::string& s) {
  w.write_uvarint(static_cast<uint32_t>(s.size() + 1));
  w.write_raw(s);
}

void write_compact_nullable_string(byte_writer& w, const std::optional<std::string>& s) {
  if (s)
    write_compact_string(w, *s);
  else
    w.write_uvarint(0);
}

void write_array_count(byte_writer& w, int32_t count, bool flexible) {
  if (flexible)
    w.write_uvarint(static_cast<uint32_t>(count + 1));
  else
    w.write_i32(count);
}

void write_int32_array(byte_writer& w, const std::vector<int32_t>& values) {
  write_array_count(w, static_cast<int32_t>(values.size()));
  for (auto v : values)
    w.write_i32(v);
}

int32_t read_required_array_count(byte_reader& r, size_t min_element_size, bool flexible) {
  auto n = read_array_count(r, min_element_size, flexible);
  if (n < 0)
    r.fail(protocol::errc::bad_length);
  return n;
}

} // namespace cafka::wire
