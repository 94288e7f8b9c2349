#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "config/secret_file.hpp"

using namespace cafka::config;

namespace {

std::string write_file(const std::string& name, const std::string& text) {
  auto path = "/tmp/cafka_secret_test_" + std::to_string(::getpid()) + "_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

} // namespace

BOOST_AUTO_TEST_SUITE(secret_file)

BOOST_AUTO_TEST_CASE(the_secret_is_the_file_without_trailing_whitespace) {
  auto path = write_file("ok", "  s3cret with spaces\n\n");
  auto got = read_secret_file("caf.secret.file", path);
  BOOST_TEST_REQUIRE(got.has_value());
  BOOST_TEST(*got == "  s3cret with spaces");
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_CASE(a_missing_or_empty_file_is_an_error_naming_the_key) {
  auto missing = read_secret_file("caf.secret.file", "/nonexistent/secret");
  BOOST_TEST_REQUIRE(!missing.has_value());
  BOOST_TEST(missing.error().message
             == "caf.secret.file: cannot use '/nonexistent/secret': No such file or directory");
  auto path = write_file("empty", " \n");
  auto empty = read_secret_file("caf.secret.file", path);
  BOOST_TEST_REQUIRE(!empty.has_value());
  BOOST_TEST(empty.error().message == "caf.secret.file: cannot use '" + path + "': the file holds no secret");
  std::remove(path.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
