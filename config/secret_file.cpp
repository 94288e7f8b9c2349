#include "config/secret_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace cafka::config {

outcome<std::string> read_secret_file(std::string_view key, const std::string& path) {
  auto fail = [&](const std::string& why) {
    return config_error{errc::unreadable_file, std::string(key) + ": cannot use '" + path + "': " + why};
  };
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  auto secret = text.str();
  while (!secret.empty() && (secret.back() == '\n' || secret.back() == '\r' || secret.back() == ' '
                             || secret.back() == '\t'))
    secret.pop_back();
  if (secret.empty())
    return fail("the file holds no secret");
  return secret;
}

} // namespace cafka::config
