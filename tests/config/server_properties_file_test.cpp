// config/server.properties, the file shipped with cafka: it lists every supported key, set
// to its default (or commented out where the default is "unset"), and parses to the defaults.

#include "config/server_config.hpp"

#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace cafka::config;

namespace {

/// The source tree: CAFKA_SOURCE_DIR from CMake, else found from this file's path
/// (tests/config/<this file>).
std::string source_dir() {
#ifdef CAFKA_SOURCE_DIR
  return CAFKA_SOURCE_DIR;
#else
  std::string here = __FILE__;
  auto pos = here.rfind("/tests/config/");
  return pos == std::string::npos ? "." : here.substr(0, pos);
#endif
}

const std::string path = source_dir() + "/config/server.properties";

std::string read_text() {
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in, "cannot open " << path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

} // namespace

BOOST_AUTO_TEST_SUITE(server_properties_file)

BOOST_AUTO_TEST_CASE(parses_with_no_warnings_to_the_defaults) {
  auto loaded = load_server_config(path);
  BOOST_REQUIRE_MESSAGE(loaded.has_value(), (loaded ? std::string() : loaded.error().message));
  BOOST_TEST(loaded->warnings.empty());
  for (auto& w : loaded->warnings)
    BOOST_TEST_MESSAGE(w);
  BOOST_TEST((loaded->config == server_config{}));
}

BOOST_AUTO_TEST_CASE(sets_every_key_with_a_default_and_comments_out_the_unset_ones) {
  auto parsed = parse_properties(read_text());
  BOOST_REQUIRE(parsed.has_value());
  std::set<std::string> set_keys;
  for (auto& p : *parsed)
    set_keys.insert(p.key);
  auto lines = lines_of(read_text());
  for (auto& key : known_keys()) {
    if (!key.default_value.empty()) {
      auto p = parsed->find(key.name);
      BOOST_REQUIRE_MESSAGE(p != nullptr, key.name << " is not set in server.properties");
      BOOST_TEST(p->value == key.default_value, key.name);
    } else {
      BOOST_TEST(set_keys.count(key.name) == 0u, key.name << " should be commented out");
      bool commented = false;
      for (auto& line : lines)
        commented = commented || line.rfind("#" + key.name + "=", 0) == 0;
      BOOST_TEST(commented, key.name << " is not listed (commented out) in server.properties");
    }
  }
}

BOOST_AUTO_TEST_CASE(every_key_has_a_comment_line_above_it) {
  auto lines = lines_of(read_text());
  for (auto& key : known_keys()) {
    bool found = false;
    for (std::size_t i = 1; i < lines.size(); ++i) {
      auto& line = lines[i];
      if (line.rfind(key.name + "=", 0) == 0 || line.rfind("#" + key.name + "=", 0) == 0) {
        found = true;
        BOOST_TEST(lines[i - 1].rfind("# ", 0) == 0, key.name << " has no comment above it");
      }
    }
    BOOST_TEST(found, key.name);
  }
}

BOOST_AUTO_TEST_CASE(commented_out_keys_are_valid_when_uncommented) {
  // Uncommenting any line must give a working configuration; caf.secret.file's example
  // path names a file the operator creates, here a temporary one.
  auto secret = "/tmp/cafka_properties_test_secret_" + std::to_string(::getpid());
  std::ofstream(secret) << "s3cret\n";
  std::string text;
  for (auto& line : lines_of(read_text())) {
    auto uncommented = line.rfind("#", 0) == 0 && line.find('=') != std::string::npos && line[1] != ' ';
    if (uncommented && line.rfind("#caf.secret.file=", 0) == 0)
      text += "caf.secret.file=" + secret + "\n";
    else
      text += (uncommented ? line.substr(1) : line) + "\n";
  }
  auto parsed = parse_properties(text);
  BOOST_REQUIRE(parsed.has_value());
  auto built = make_server_config(*parsed);
  BOOST_REQUIRE_MESSAGE(built.has_value(), (built ? std::string() : built.error().message));
  // log.dir is listed beside log.dirs, which wins.
  BOOST_TEST(built->warnings.size() == 1u);
  std::remove(secret.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
