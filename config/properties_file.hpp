#pragma once
// Java .properties files, the format of Kafka's server.properties.
//
// Accepted syntax (java.util.Properties, with the differences marked *):
// - a line is `key=value`, `key: value` or `key value`; whitespace around the key, around the
//   separator and (*) at the end of the value is dropped (an escaped `\ ` is kept);
// - lines whose first non-blank character is `#` or `!` are comments; blank lines are skipped;
// - a line ending in an odd number of backslashes continues on the next line, whose leading
//   whitespace is dropped (a comment line never continues);
// - escapes: \t \n \r \f, \uXXXX (written out as UTF-8), and `\c` = c for any other c,
//   so `\=`, `\:`, `\ `, `\#` and `\\` put those characters into keys and values;
// - line ends \n, \r\n or \r; a UTF-8 byte-order mark at the start is skipped (*);
// - a key given twice keeps its last value.
// Malformed (*, Java accepts them): a line that is only a key with no separator and no value,
// a line with an empty key (`=value`), a bad \uXXXX escape. The error names the line number
// where the logical line starts.
// Bytes other than escapes pass through unchanged (files are read as UTF-8, not ISO-8859-1).

#include "config/error.hpp"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::config {

/// One key and its value. `line` is where the (logical) line starts in the file, 1-based;
/// 0 means the entry did not come from a file (a command-line --override).
struct property {
  std::string key;
  std::string value;
  int line = 0;
};

/// Key/value pairs with unique keys, in order of each key's first appearance.
class properties {
public:
  /// Adds the key, or replaces the value and line of an existing key (last wins).
  void set(std::string key, std::string value, int line = 0);
  /// The entry for `key`, or nullptr.
  const property* find(std::string_view key) const;

  std::size_t size() const noexcept { return entries_.size(); }
  bool empty() const noexcept { return entries_.empty(); }
  auto begin() const noexcept { return entries_.begin(); }
  auto end() const noexcept { return entries_.end(); }

private:
  std::vector<property> entries_;
  std::map<std::string, std::size_t, std::less<>> index_;
};

/// Parses the text of a properties file. Error: errc::malformed_line, message
/// "line N: ...".
outcome<properties> parse_properties(std::string_view text);

/// Reads and parses the file at `path`. Errors: errc::unreadable_file, message
/// "cannot read '<path>': <reason>"; errc::malformed_line, message "<path>: line N: ...".
outcome<properties> load_properties(const std::string& path);

} // namespace cafka::config
