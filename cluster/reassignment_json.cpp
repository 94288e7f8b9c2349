#include "cluster/reassignment_json.hpp"

#include <cctype>
#include <map>
#include <memory>
#include <stdexcept>

namespace cafka::cluster {

namespace {

// A parsed JSON value: just what the two files need.
struct json {
  enum class kind { null, boolean, number, string, array, object } type = kind::null;
  bool flag = false;
  int64_t number = 0;
  std::string text;
  std::vector<json> items;
  std::map<std::string, json> fields;
};

struct bad_json : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class reader {
public:
  explicit reader(std::string_view s) : s_(s) {}

  json document() {
    auto v = value(0);
    skip_space();
    if (at_ < s_.size())
      fail("text after the JSON value");
    return v;
  }

private:
  static constexpr int max_depth = 32;

  [[noreturn]] void fail(const std::string& why) { throw bad_json(why + " at byte " + std::to_string(at_)); }

  void skip_space() {
    while (at_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[at_])))
      ++at_;
  }

  char peek() {
    skip_space();
    if (at_ >= s_.size())
      fail("unexpected end");
    return s_[at_];
  }

  void expect(char c) {
    if (peek() != c)
      fail(std::string("expected '") + c + "'");
    ++at_;
  }

  bool word(std::string_view w) {
    if (s_.substr(at_, w.size()) != w)
      return false;
    at_ += w.size();
    return true;
  }

  std::string string() {
    expect('"');
    std::string out;
    while (at_ < s_.size() && s_[at_] != '"') {
      char c = s_[at_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= s_.size())
        break;
      char e = s_[at_++];
      switch (e) {
        case '"': case '\\': case '/': out += e; break;
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        default: fail("an escape cafka does not read (\\" + std::string(1, e) + ")");
      }
    }
    if (at_ >= s_.size())
      fail("unterminated string");
    ++at_;
    return out;
  }

  json value(int depth) {
    if (depth > max_depth)
      fail("nesting too deep");
    json v;
    char c = peek();
    if (c == '{') {
      ++at_;
      v.type = json::kind::object;
      if (peek() == '}') {
        ++at_;
        return v;
      }
      for (;;) {
        auto key = string();
        expect(':');
        v.fields[key] = value(depth + 1);
        if (peek() == ',') {
          ++at_;
          continue;
        }
        expect('}');
        return v;
      }
    }
    if (c == '[') {
      ++at_;
      v.type = json::kind::array;
      if (peek() == ']') {
        ++at_;
        return v;
      }
      for (;;) {
        v.items.push_back(value(depth + 1));
        if (peek() == ',') {
          ++at_;
          continue;
        }
        expect(']');
        return v;
      }
    }
    if (c == '"') {
      v.type = json::kind::string;
      v.text = string();
      return v;
    }
    if (word("true") || word("false")) {
      v.type = json::kind::boolean;
      v.flag = s_[at_ - 2] == 'u'; // t-r-u-e
      return v;
    }
    if (word("null"))
      return v;
    auto start = at_;
    if (at_ < s_.size() && s_[at_] == '-')
      ++at_;
    while (at_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_])))
      ++at_;
    if (at_ == start || (at_ == start + 1 && s_[start] == '-') || at_ - start > 12)
      fail("expected a value (integers only)");
    v.type = json::kind::number;
    v.number = std::stoll(std::string(s_.substr(start, at_ - start)));
    return v;
  }

  std::string_view s_;
  size_t at_ = 0;
};

const json& field(const json& object, const std::string& name, json::kind type, const std::string& where) {
  if (object.type != json::kind::object)
    throw bad_json(where + " is not an object");
  auto it = object.fields.find(name);
  if (it == object.fields.end())
    throw bad_json(where + " has no \"" + name + "\"");
  if (it->second.type != type)
    throw bad_json("\"" + name + "\" of " + where + " has the wrong type");
  return it->second;
}

int32_t int32_of(const json& v, const std::string& what) {
  if (v.type != json::kind::number || v.number < 0 || v.number > 2147483647)
    throw bad_json(what + " must be an integer from 0 to 2147483647");
  return static_cast<int32_t>(v.number);
}

template <class F>
auto parsed(std::string_view text, std::string& error, F&& read) -> std::optional<decltype(read(json{}))> {
  try {
    return read(reader{text}.document());
  } catch (const bad_json& e) {
    error = e.what();
    return std::nullopt;
  }
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

} // namespace

std::optional<std::vector<partition_target>> parse_reassignment_json(std::string_view text, std::string& error) {
  return parsed(text, error, [](const json& doc) {
    std::vector<partition_target> out;
    auto& partitions = field(doc, "partitions", json::kind::array, "the file");
    for (size_t i = 0; i < partitions.items.size(); ++i) {
      auto where = "partitions[" + std::to_string(i) + "]";
      auto& p = partitions.items[i];
      partition_target t;
      t.topic = field(p, "topic", json::kind::string, where).text;
      t.partition = int32_of(field(p, "partition", json::kind::number, where), where + ".partition");
      for (auto& r : field(p, "replicas", json::kind::array, where).items)
        t.replicas.push_back(int32_of(r, where + ".replicas[]"));
      if (auto dirs = p.fields.find("log_dirs"); dirs != p.fields.end()) {
        if (dirs->second.type != json::kind::array || dirs->second.items.size() != t.replicas.size())
          throw bad_json(where + ".log_dirs must list one directory per replica");
        for (auto& d : dirs->second.items)
          if (d.type != json::kind::string || d.text != "any")
            throw bad_json(where + ".log_dirs: only \"any\" is supported (cafka picks the log dir)");
      }
      out.push_back(std::move(t));
    }
    return out;
  });
}

std::optional<std::vector<std::string>> parse_topics_json(std::string_view text, std::string& error) {
  return parsed(text, error, [](const json& doc) {
    std::vector<std::string> out;
    auto& topics = field(doc, "topics", json::kind::array, "the file");
    for (size_t i = 0; i < topics.items.size(); ++i)
      out.push_back(field(topics.items[i], "topic", json::kind::string, "topics[" + std::to_string(i) + "]").text);
    return out;
  });
}

std::optional<std::vector<records_cutoff>> parse_offsets_json(std::string_view text, std::string& error) {
  return parsed(text, error, [](const json& doc) {
    std::vector<records_cutoff> out;
    auto& partitions = field(doc, "partitions", json::kind::array, "the file");
    for (size_t i = 0; i < partitions.items.size(); ++i) {
      auto where = "partitions[" + std::to_string(i) + "]";
      auto& p = partitions.items[i];
      records_cutoff o;
      o.topic = field(p, "topic", json::kind::string, where).text;
      o.partition = int32_of(field(p, "partition", json::kind::number, where), where + ".partition");
      o.offset = field(p, "offset", json::kind::number, where).number;
      if (o.offset < -1)
        throw bad_json(where + ".offset must be -1 (the high watermark) or an offset");
      out.push_back(std::move(o));
    }
    return out;
  });
}

std::string reassignment_json(const std::vector<partition_target>& targets) {
  std::string out = R"({"version":1,"partitions":[)";
  for (size_t i = 0; i < targets.size(); ++i) {
    auto& t = targets[i];
    std::string replicas, dirs;
    for (size_t k = 0; k < t.replicas.size(); ++k) {
      replicas += (k ? "," : "") + std::to_string(t.replicas[k]);
      dirs += k ? R"(,"any")" : R"("any")";
    }
    out += (i ? "," : "") + std::string(R"({"topic":)") + quoted(t.topic) + R"(,"partition":)"
           + std::to_string(t.partition) + R"(,"replicas":[)" + replicas + R"(],"log_dirs":[)" + dirs + "]}";
  }
  return out + "]}";
}

} // namespace cafka::cluster
