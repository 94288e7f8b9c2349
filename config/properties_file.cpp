#include "config/properties_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

namespace cafka::config {

void properties::set(std::string key, std::string value, int line) {
  if (auto i = index_.find(key); i != index_.end()) {
    entries_[i->second].value = std::move(value);
    entries_[i->second].line = line;
    return;
  }
  index_.emplace(key, entries_.size());
  entries_.push_back(property{std::move(key), std::move(value), line});
}

const property* properties::find(std::string_view key) const {
  auto i = index_.find(key);
  return i == index_.end() ? nullptr : &entries_[i->second];
}

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f'; }

std::string_view skip_blanks(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && is_blank(s[i]))
    ++i;
  return s.substr(i);
}

bool ends_in_odd_backslashes(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && s[s.size() - 1 - n] == '\\')
    ++n;
  return n % 2 == 1;
}

/// Splits text into natural lines at \n, \r\n and \r.
class line_reader {
public:
  explicit line_reader(std::string_view text) : text_(text) {}
  /// The next line without its terminator, or nullopt at the end; `number()` is its number.
  std::optional<std::string_view> next() {
    if (pos_ >= text_.size())
      return std::nullopt;
    auto end = text_.find_first_of("\r\n", pos_);
    if (end == std::string_view::npos)
      end = text_.size();
    auto line = text_.substr(pos_, end - pos_);
    pos_ = end;
    if (pos_ < text_.size() && text_[pos_] == '\r')
      ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n')
      ++pos_; // "\n" alone, or the second half of "\r\n"
    ++number_;
    return line;
  }
  int number() const noexcept { return number_; }

private:
  std::string_view text_;
  std::size_t pos_ = 0;
  int number_ = 0;
};

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

/// Reads the 4 hex digits of a \u escape at s[i..i+4).
std::optional<char32_t> hex4(std::string_view s, std::size_t i) {
  if (i + 4 > s.size())
    return std::nullopt;
  char32_t v = 0;
  for (std::size_t k = i; k < i + 4; ++k) {
    char c = s[k];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= static_cast<char32_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= static_cast<char32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= static_cast<char32_t>(c - 'A' + 10);
    else
      return std::nullopt;
  }
  return v;
}

/// Resolves escapes. With `trim_end`, drops trailing unescaped whitespace. nullopt on a bad
/// \u escape.
std::optional<std::string> unescape(std::string_view s, bool trim_end) {
  std::string out;
  std::size_t keep = 0; // length of `out` up to its last significant character
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c != '\\') {
      out += c;
      if (!is_blank(c))
        keep = out.size();
      ++i;
      continue;
    }
    if (i + 1 >= s.size()) { // a lone trailing backslash (end of file after a continuation)
      ++i;
      continue;
    }
    char e = s[i + 1];
    i += 2;
    switch (e) {
      case 't': out += '\t'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        auto cp = hex4(s, i);
        if (!cp)
          return std::nullopt;
        i += 4;
        if (*cp >= 0xD800 && *cp <= 0xDBFF) { // high surrogate: a low one must follow
          if (i + 1 >= s.size() || s[i] != '\\' || s[i + 1] != 'u')
            return std::nullopt;
          auto low = hex4(s, i + 2);
          if (!low || *low < 0xDC00 || *low > 0xDFFF)
            return std::nullopt;
          i += 6;
          *cp = 0x10000 + ((*cp - 0xD800) << 10) + (*low - 0xDC00);
        } else if (*cp >= 0xDC00 && *cp <= 0xDFFF) {
          return std::nullopt;
        }
        append_utf8(out, *cp);
        break;
      }
      default: out += e; break;
    }
    keep = out.size();
  }
  if (trim_end)
    out.resize(keep);
  return out;
}

config_error malformed(int line, const std::string& what) {
  return {errc::malformed_line, "line " + std::to_string(line) + ": " + what};
}

/// Splits one logical line (leading blanks removed, continuations joined) into key and value.
outcome<property> parse_logical_line(std::string_view s, int line) {
  std::size_t i = 0;
  while (i < s.size() && s[i] != '=' && s[i] != ':' && !is_blank(s[i]))
    i += s[i] == '\\' ? 2u : 1u; // an escaped character belongs to the key
  i = std::min(i, s.size());
  auto raw_key = s.substr(0, i);
  if (raw_key.empty())
    return malformed(line, "missing key before '" + std::string(1, s[0]) + "'");
  auto rest = skip_blanks(s.substr(i));
  bool has_separator = false;
  if (!rest.empty() && (rest[0] == '=' || rest[0] == ':')) {
    has_separator = true;
    rest = skip_blanks(rest.substr(1));
  }
  if (!has_separator && rest.empty())
    return malformed(line, "expected 'key=value', 'key: value' or 'key value', got '"
                               + std::string(s) + "'");
  auto key = unescape(raw_key, false);
  auto value = unescape(rest, true);
  if (!key || !value)
    return malformed(line, "malformed \\uXXXX escape");
  return property{std::move(*key), std::move(*value), line};
}

} // namespace

outcome<properties> parse_properties(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  properties result;
  line_reader lines{text};
  while (auto natural = lines.next()) {
    auto first = skip_blanks(*natural);
    if (first.empty() || first[0] == '#' || first[0] == '!')
      continue;
    int start = lines.number();
    std::string logical{first};
    while (ends_in_odd_backslashes(logical)) {
      logical.pop_back();
      auto next = lines.next();
      if (!next)
        break;
      logical += skip_blanks(*next);
    }
    auto entry = parse_logical_line(logical, start);
    if (!entry)
      return entry.error();
    result.set(std::move(entry->key), std::move(entry->value), entry->line);
  }
  return result;
}

outcome<properties> load_properties(const std::string& path) {
  auto unreadable = [&path] {
    return config_error{errc::unreadable_file,
                        "cannot read '" + path + "': " + std::strerror(errno)};
  };
  errno = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file{std::fopen(path.c_str(), "rb"), &std::fclose};
  if (!file)
    return unreadable();
  std::string text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, file.get())) > 0)
    text.append(buf, n);
  if (std::ferror(file.get()))
    return unreadable();
  auto parsed = parse_properties(text);
  if (!parsed)
    return config_error{parsed.error().code, path + ": " + parsed.error().message};
  return parsed;
}

} // namespace cafka::config
