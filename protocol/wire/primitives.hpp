#pragma once
// Kafka wire primitives beyond byte_reader/byte_writer: arrays (classic and compact),
// compact strings, tagged-field buffers. Decoded values are copied out of the frame
// (std::string, std::vector), so a decoded request never borrows the frame buffer.
//
// Array counts are checked against the bytes left before anything is allocated: an
// element takes at least `min_element_size` bytes, so a hostile count fails with
// truncated instead of reserving gigabytes.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"

namespace cafka::wire {

using protocol::byte_reader;
using protocol::byte_writer;
using protocol::bytes_view;

/// ARRAY count: -1 (null) comes back as -1; below -1 fails with bad_length; a count
/// whose elements cannot fit in what is left fails with truncated (returns 0).
int32_t read_array_count(byte_reader& r, size_t min_element_size);
/// COMPACT_ARRAY count: uvarint count+1, 0 = null (-1 here); same bound check.
int32_t read_compact_array_count(byte_reader& r, size_t min_element_size);
/// Either of the two, by `flexible`.
inline int32_t read_array_count(byte_reader& r, size_t min_element_size, bool flexible) {
  return flexible ? read_compact_array_count(r, min_element_size)
                  : read_array_count(r, min_element_size);
}

std::string read_string(byte_reader& r);
std::optional<std::string> read_nullable_string(byte_reader& r);
std::string read_compact_string(byte_reader& r);
std::optional<std::string> read_compact_nullable_string(byte_reader& r);
inline std::string read_string(byte_reader& r, bool flexible) {
  return flexible ? read_compact_string(r) : read_string(r);
}
inline std::optional<std::string> read_nullable_string(byte_reader& r, bool flexible) {
  return flexible ? read_compact_nullable_string(r) : read_nullable_string(r);
}

/// BYTES / NULLABLE_BYTES copied into a vector (null comes back as nullopt).
std::optional<std::vector<char>> read_nullable_bytes(byte_reader& r);
std::vector<char> read_bytes(byte_reader& r);

/// An array of i32 / of strings (classic layout).
std::vector<int32_t> read_int32_array(byte_reader& r);
std::vector<std::string> read_string_array(byte_reader& r);

/// Skips a TAG_BUFFER (flexible versions): every tagged field is unknown to us.
void skip_tagged_fields(byte_reader& r);

void write_string(byte_writer& w, const std::string& s);
void write_nullable_string(byte_writer& w, const std::optional<std::string>& s);
void write_compact_string(byte_writer& w, const std::string& s);
void write_compact_nullable_string(byte_writer& w, const std::optional<std::string>& s);
inline void write_string(byte_writer& w, const std::string& s, bool flexible) {
  flexible ? write_compact_string(w, s) : write_string(w, s);
}
inline void write_nullable_string(byte_writer& w, const std::optional<std::string>& s,
                                  bool flexible) {
  flexible ? write_compact_nullable_string(w, s) : write_nullable_string(w, s);
}
/// ARRAY / COMPACT_ARRAY count (-1 / 0 for null).
void write_array_count(byte_writer& w, int32_t count, bool flexible = false);
void write_int32_array(byte_writer& w, const std::vector<int32_t>& values);
/// An empty TAG_BUFFER: one 0x00 byte.
inline void write_empty_tagged_fields(byte_writer& w) { w.write_uvarint(0); }

/// A non-nullable array's count: null fails the reader with bad_length.
int32_t read_required_array_count(byte_reader& r, size_t min_element_size, bool flexible);
/// The end of a struct in a flexible version: its TAG_BUFFER (nothing in a classic one).
inline void end_struct(byte_reader& r, bool flexible) {
  if (flexible)
    skip_tagged_fields(r);
}
inline void end_struct(byte_writer& w, bool flexible) {
  if (flexible)
    write_empty_tagged_fields(w);
}

} // namespace cafka::wire
