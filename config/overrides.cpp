#include "config/overrides.hpp"

namespace cafka::config {
namespace {

constexpr std::string_view flag = "--override";

std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\f'; };
  while (!s.empty() && blank(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && blank(s.back()))
    s.remove_suffix(1);
  return s;
}

config_error malformed(std::string what) {
  return {errc::malformed_override, std::move(what)};
}

} // namespace

outcome<properties> parse_overrides(const std::vector<std::string_view>& args) {
  properties result;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string_view pair;
    if (args[i] == flag) {
      if (i + 1 == args.size())
        return malformed("--override: missing key=value after it");
      pair = args[++i];
    } else if (args[i].substr(0, flag.size() + 1) == "--override=") {
      pair = args[i].substr(flag.size() + 1);
    } else {
      return malformed("unexpected argument '" + std::string(args[i])
                       + "': expected --override key=value");
    }
    auto eq = pair.find('=');
    auto key = trim(pair.substr(0, eq));
    if (eq == std::string_view::npos || key.empty())
      return malformed("--override '" + std::string(pair) + "': expected key=value");
    result.set(std::string(key), std::string(trim(pair.substr(eq + 1))), 0);
  }
  return result;
}

} // namespace cafka::config
