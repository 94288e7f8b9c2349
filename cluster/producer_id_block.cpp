#include "cluster/producer_id_block.hpp"

#include <limits>
#include <map>
#include <system_error>

#include "cluster/errc.hpp"
#include "cluster/kv_text.hpp"

namespace cafka::cluster {
namespace {

constexpr int64_t int64_max = std::numeric_limits<int64_t>::max();
constexpr int64_t int64_min = std::numeric_limits<int64_t>::min();

// One value of a flat JSON object: the text of a string (escapes kept as written: the fields
// read here are digits, so an escape in them makes them malformed anyway) or of a scalar token.
struct flat_value {
  bool quoted = false;
  std::string_view text;
};

using flat_object = std::map<std::string_view, flat_value, std::less<>>;

// A reader for one flat JSON object, all this znode needs. (cluster/reassignment_json.cpp has a
// full reader, but private to that file and reporting with text rather than errc.) Integers go
// through the kv_text rules (parse_kv_int); nested objects, arrays, fractions and exponents are
// malformed; a repeated key is malformed. Never reads out of bounds.
class flat_reader {
public:
  explicit flat_reader(std::string_view s) : s_(s) {}

  result<flat_object> object() {
    flat_object out;
    if (!eat('{'))
      return errc::malformed_data;
    if (!eat('}')) {
      do {
        auto key = string();
        if (!key || !eat(':'))
          return errc::malformed_data;
        auto value = scalar();
        if (!value || !out.emplace(*key, *value).second)
          return errc::malformed_data;
      } while (eat(','));
      if (!eat('}'))
        return errc::malformed_data;
    }
    skip_space();
    if (at_ != s_.size())
      return errc::malformed_data;
    return out;
  }

private:
  void skip_space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r'))
      ++at_;
  }

  bool eat(char c) {
    skip_space();
    if (at_ < s_.size() && s_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }

  std::optional<std::string_view> string() {
    if (!eat('"'))
      return std::nullopt;
    auto start = at_;
    while (at_ < s_.size() && s_[at_] != '"')
      at_ += s_[at_] == '\\' ? 2 : 1; // an escaped quote does not end the string
    if (at_ >= s_.size())
      return std::nullopt;
    return s_.substr(start, at_++ - start);
  }

  std::optional<flat_value> scalar() {
    skip_space();
    if (at_ < s_.size() && s_[at_] == '"') {
      auto text = string();
      return text ? std::optional<flat_value>{{true, *text}} : std::nullopt;
    }
    auto start = at_;
    while (at_ < s_.size() && is_token_char(s_[at_]))
      ++at_;
    auto token = s_.substr(start, at_ - start);
    bool word = token == "true" || token == "false" || token == "null";
    if (word || parse_kv_int(token, int64_min, int64_max))
      return flat_value{false, token};
    return std::nullopt;
  }

  static bool is_token_char(char c) { return c == '-' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); }

  std::string_view s_;
  size_t at_ = 0;
};

// The integer of field `key`, written as a JSON string (`quoted`) or number, in [min, max].
result<int64_t> integer(const flat_object& fields, std::string_view key, bool quoted, int64_t min,
                        int64_t max) {
  auto it = fields.find(key);
  if (it == fields.end() || it->second.quoted != quoted)
    return errc::malformed_data;
  return parse_kv_int(it->second.text, min, max);
}

} // namespace

std::string encode_producer_id_block(const producer_id_block& b) {
  return R"({"version":1,"broker":)" + std::to_string(b.broker) + R"(,"block_start":")"
         + std::to_string(b.start) + R"(","block_end":")" + std::to_string(b.end) + R"("})";
}

result<producer_id_block> decode_producer_id_block(std::string_view text) {
  auto fields = flat_reader{text}.object();
  if (!fields)
    return fields.error();
  auto version = integer(*fields, "version", false, 1, 1);
  auto broker = integer(*fields, "broker", false, 0, std::numeric_limits<int32_t>::max());
  auto start = integer(*fields, "block_start", true, 0, int64_max);
  auto end = integer(*fields, "block_end", true, 0, int64_max);
  if (!version || !broker || !start || !end || *start > *end)
    return errc::malformed_data;
  return producer_id_block{static_cast<int32_t>(*broker), *start, *end};
}

result<producer_id_block> next_block(const std::optional<producer_id_block>& previous, int32_t broker,
                                     int64_t block_size) {
  if (block_size < 1)
    return std::make_error_code(std::errc::invalid_argument);
  if (!previous)
    return producer_id_block{broker, 0, block_size - 1};
  if (previous->end > int64_max - block_size) // ProducerIdManager: "exhausted all producerIds"
    return std::make_error_code(std::errc::value_too_large);
  return producer_id_block{broker, previous->end + 1, previous->end + block_size};
}

} // namespace cafka::cluster
