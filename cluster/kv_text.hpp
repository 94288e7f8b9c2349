#pragma once
// kv_text: the text format of all znode data written by cafka, chosen because it is the
// simplest format that is still readable in zkCli and safe to parse. Kafka writes JSON here;
// cafka's nodes are its own, so nothing needs Kafka's layout.
//
//   version=1\n
//   key=value\n
//   ...
//
// - Lines end with '\n'; empty lines are skipped (so is a missing final '\n').
// - A key is one or more of [A-Za-z0-9._%-], followed by '='; a key may appear only once.
// - The value is the rest of the line after the first '=', so it may contain '='. Three
//   escapes: backslash-backslash is a backslash, backslash-n a line feed, backslash-r a
//   carriage return; any other escape, a trailing backslash and a raw carriage return are
//   malformed. Values are bytes otherwise.
// - Integers are decimal with an optional '-', no '+', no spaces; lists are comma-separated
//   integers without spaces ("" is the empty list).
// - Every encoding starts with version=1. Readers require their version, reject missing or
//   malformed fields and ignore keys they do not know (room for compatible additions).
// Every parse error is errc::malformed_data; parsing never reads out of bounds, whatever the
// input.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::cluster {

bool is_valid_kv_key(std::string_view key) noexcept;

/// Builds kv text. Keys must satisfy is_valid_kv_key (asserted): they are spelled by cafka.
class kv_writer {
public:
  kv_writer& add(std::string_view key, std::string_view value);
  kv_writer& add_int(std::string_view key, int64_t value);
  kv_writer& add_ints(std::string_view key, const std::vector<int32_t>& values);
  const std::string& text() const noexcept { return text_; }

private:
  std::string text_;
};

/// Parsed kv text with typed, range-checked access.
class kv_fields {
public:
  using map_type = std::map<std::string, std::string, std::less<>>;

  static result<kv_fields> parse(std::string_view text);

  /// The whole text must carry version=`version`.
  status require_version(int64_t version) const;

  bool has(std::string_view key) const;
  /// The unescaped value; malformed_data if the key is missing.
  result<std::string> text(std::string_view key) const;
  /// An integer in [min, max]; malformed_data if missing, not an integer or out of range.
  result<int64_t> integer(std::string_view key, int64_t min, int64_t max) const;
  /// A list of distinct broker ids (int32 >= 0); malformed_data otherwise.
  result<std::vector<int32_t>> id_list(std::string_view key) const;

  const map_type& all() const noexcept { return fields_; }

private:
  map_type fields_;
};

/// Decimal integer in [min, max] as described above.
result<int64_t> parse_kv_int(std::string_view text, int64_t min, int64_t max);

/// Distinct int32 values >= 0, comma-separated; "" is the empty list.
result<std::vector<int32_t>> parse_kv_id_list(std::string_view text);

} // namespace cafka::cluster
