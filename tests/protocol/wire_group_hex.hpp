#pragma once
// Hex builders for hand-written request and response bodies of the group APIs: numbers
// are written as hex digits in the test itself, strings and byte fields with their
// length prefix come from these, so every field of a layout stays visible.

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "test_support.hpp"

namespace cafka::wire::test {

/// The characters of `s` as hex digits, no length.
inline std::string hex_text(std::string_view s) {
  return protocol::test::to_hex(s);
}

/// STRING / NULLABLE_STRING with content: i16 length, then the characters.
inline std::string hex_str(std::string_view s) {
  char length[8];
  std::snprintf(length, sizeof length, "%04x ", static_cast<unsigned>(s.size()));
  return length + hex_text(s) + " ";
}

/// BYTES whose content is given as hex digits (whitespace allowed): i32 length, then them.
inline std::string hex_bytes(std::string_view content_hex) {
  auto content = protocol::test::from_hex(content_hex);
  char length[12];
  std::snprintf(length, sizeof length, "%08x ", static_cast<unsigned>(content.size()));
  return length + protocol::test::to_hex(protocol::test::view(content)) + " ";
}

/// COMPACT_STRING (flexible versions) with content: uvarint length+1, then the characters.
/// One length byte, so `s` must be shorter than 127 characters.
inline std::string hex_cstr(std::string_view s) {
  char length[8];
  std::snprintf(length, sizeof length, "%02x ", static_cast<unsigned>(s.size() + 1));
  return length + hex_text(s) + " ";
}

/// COMPACT_BYTES whose content is given as hex digits: uvarint length+1 (one byte), then them.
inline std::string hex_cbytes(std::string_view content_hex) {
  auto content = protocol::test::from_hex(content_hex);
  char length[8];
  std::snprintf(length, sizeof length, "%02x ", static_cast<unsigned>(content.size() + 1));
  return length + protocol::test::to_hex(protocol::test::view(content)) + " ";
}

/// The bytes of hex built with the helpers above.
inline std::vector<char> bytes_of(const std::string& hex) {
  return protocol::test::from_hex(hex);
}

/// The group id of every example, "my-group", as a STRING and as a COMPACT_STRING.
inline const std::string group = hex_str("my-group");
inline const std::string compact_group = hex_cstr("my-group");

/// Consumer-protocol subscriptions as real clients send them for topic "test":
/// kafka-python 2.0.2 and kafkajs send v0 (16 bytes, empty user data), librdkafka 2.0.2
/// v1 (20 bytes, null user data, no owned partitions).
inline const std::string subscription_v0_test = "0000 00000001 0004 74657374 00000000";
inline const std::string subscription_v1_test = "0001 00000001 0004 74657374 ffffffff 00000000";
/// An assignment v0 of partitions 0 and 1 of "test", empty user data.
inline const std::string assignment_v0_test =
  "0000 00000001 0004 74657374 00000002 00000000 00000001 00000000";

} // namespace cafka::wire::test
