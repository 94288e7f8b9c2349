#include "apps/tool_args.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <optional>
#include <sstream>

#include <caf/message.hpp>

#include "client/bootstrap.hpp"

namespace cafka::tools {

namespace {

std::string quoted(std::string_view s) {
  return "'" + std::string{s} + "'";
}

} // namespace

bool args::has(std::string_view name) const {
  return found.find(name) != found.end();
}

std::string args::value_or(std::string_view name, std::string fallback) const {
  auto it = found.find(name);
  if (it == found.end() || it->second.empty())
    return fallback;
  return it->second.back();
}

std::vector<std::string> args::values(std::string_view name) const {
  auto it = found.find(name);
  return it == found.end() ? std::vector<std::string>{} : it->second;
}

int64_t args::integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) const {
  if (!has(name))
    return fallback;
  return parse_integer(value_or(name, ""), "--" + std::string{name}, min, max);
}

args parse(int argc, char** argv, const std::vector<option>& options) {
  args out;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg{argv[i]};
    if (arg.size() < 3 || arg.substr(0, 2) != "--")
      throw usage_error("unexpected argument " + quoted(arg));
    auto body = arg.substr(2);
    std::optional<std::string_view> inline_value;
    if (auto eq = body.find('='); eq != std::string_view::npos) {
      inline_value = body.substr(eq + 1);
      body = body.substr(0, eq);
    }
    auto spec = std::find_if(options.begin(), options.end(), [&](const option& o) { return o.name == body; });
    if (spec == options.end())
      throw usage_error("unknown option --" + std::string{body});
    auto& slot = out.found[spec->name];
    if (!slot.empty() && !spec->repeatable)
      throw usage_error("option --" + spec->name + " given twice");
    if (spec->value_name.empty()) {
      if (inline_value)
        throw usage_error("option --" + spec->name + " takes no value");
      slot.emplace_back();
    } else if (inline_value) {
      slot.emplace_back(*inline_value);
    } else if (i + 1 < argc) {
      slot.emplace_back(argv[++i]);
    } else {
      throw usage_error("option --" + spec->name + " needs a value (" + spec->value_name + ")");
    }
  }
  return out;
}

std::string usage(std::string_view tool, std::string_view synopsis, const std::vector<option>& options) {
  std::string out = "usage: " + std::string{tool} + " " + std::string{synopsis} + "\n\noptions:\n";
  for (auto& o : options) {
    std::string left = "  --" + o.name;
    if (!o.value_name.empty())
      left += " " + o.value_name;
    if (left.size() < 32)
      left.resize(32, ' ');
    else
      left += "  ";
    out += left + o.help + (o.repeatable ? " (repeatable)" : "") + "\n";
  }
  return out;
}

std::vector<std::string> comma_list(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    auto comma = text.find(',');
    auto item = text.substr(0, comma);
    if (!item.empty())
      out.emplace_back(item);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return out;
}

std::pair<std::string, std::string> split_key_value(std::string_view text, std::string_view option) {
  auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw usage_error("option --" + std::string{option} + " expects key=value, got " + quoted(text));
  return {std::string{text.substr(0, eq)}, std::string{text.substr(eq + 1)}};
}

std::map<std::string, std::string> key_values(const args& a, std::string_view option) {
  std::map<std::string, std::string> out;
  for (auto& kv : a.values(option)) {
    auto [k, v] = split_key_value(kv, option);
    out[k] = v;
  }
  return out;
}

int64_t parse_integer(std::string_view text, std::string_view what, int64_t min, int64_t max) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < min || value > max)
    throw usage_error("invalid value for " + std::string{what} + ": " + quoted(text) + " (expected an integer in "
                      + std::to_string(min) + ".." + std::to_string(max) + ")");
  return value;
}

bool parse_bool(std::string_view text, std::string_view what) {
  std::string lower{text};
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == "true")
    return true;
  if (lower == "false")
    return false;
  throw usage_error("invalid value for " + std::string{what} + ": " + quoted(text) + " (expected true or false)");
}

std::string read_file(const std::string& path) {
  std::ifstream in{path, std::ios::binary};
  if (!in)
    throw usage_error("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void check_bootstrap(std::string_view text) {
  auto eps = client::parse_bootstrap(text);
  if (eps)
    return;
  auto& ctx = eps.error().context();
  if (ctx.match_elements<std::string>())
    throw usage_error(ctx.get_as<std::string>(0));
  throw usage_error("bad --bootstrap-server " + quoted(text));
}

int run(const char* tool, std::string_view synopsis, int argc, char** argv, std::vector<option> options,
        const std::function<int(const args&)>& body) {
  options.push_back({"help", "", "print this help and exit"});
  try {
    auto a = parse(argc, argv, options);
    if (a.has("help")) {
      std::fputs(usage(tool, synopsis, options).c_str(), stdout);
      return 0;
    }
    auto code = body(a);
    std::fflush(stdout);
    return code;
  } catch (const usage_error& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s (see --help)\n", tool, e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s: %s\n", tool, e.what());
    return 1;
  }
}

void exit_now(int code) {
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}

void fail(const char* tool, const std::string& what) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: %s\n", tool, what.c_str());
  exit_now(1);
}

} // namespace cafka::tools
