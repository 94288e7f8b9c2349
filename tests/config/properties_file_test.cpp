#include "config/properties_file.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <fstream>
#include <unistd.h>
#include <string>

using namespace cafka::config;

namespace {

properties parse_ok(std::string_view text) {
  auto parsed = parse_properties(text);
  BOOST_REQUIRE_MESSAGE(parsed.has_value(), (parsed ? std::string() : parsed.error().message));
  return *parsed;
}

std::string value_of(const properties& props, std::string_view key) {
  auto p = props.find(key);
  BOOST_REQUIRE_MESSAGE(p != nullptr, "missing key " << key);
  return p->value;
}

} // namespace

BOOST_AUTO_TEST_SUITE(properties_file)

BOOST_AUTO_TEST_CASE(three_separators) {
  auto props = parse_ok("a=1\nb: 2\nc 3\nd\t4\ne = 5\nf:6\ng  =  7");
  BOOST_TEST(props.size() == 7u);
  BOOST_TEST(value_of(props, "a") == "1");
  BOOST_TEST(value_of(props, "b") == "2");
  BOOST_TEST(value_of(props, "c") == "3");
  BOOST_TEST(value_of(props, "d") == "4");
  BOOST_TEST(value_of(props, "e") == "5");
  BOOST_TEST(value_of(props, "f") == "6");
  BOOST_TEST(value_of(props, "g") == "7");
}

BOOST_AUTO_TEST_CASE(only_the_first_separator_splits) {
  auto props = parse_ok("url=a=b:c\nx: y=z\nlisteners=PLAINTEXT://h:9092");
  BOOST_TEST(value_of(props, "url") == "a=b:c");
  BOOST_TEST(value_of(props, "x") == "y=z");
  BOOST_TEST(value_of(props, "listeners") == "PLAINTEXT://h:9092");
}

BOOST_AUTO_TEST_CASE(empty_values) {
  auto props = parse_ok("a=\nb:\nc =   \n");
  BOOST_TEST(value_of(props, "a") == "");
  BOOST_TEST(value_of(props, "b") == "");
  BOOST_TEST(value_of(props, "c") == "");
}

BOOST_AUTO_TEST_CASE(comments_and_blank_lines) {
  auto props = parse_ok("# comment\n! also a comment\n\n   \n\t# indented comment\n"
                        "a=1 # not a comment\n");
  BOOST_TEST(props.size() == 1u);
  BOOST_TEST(value_of(props, "a") == "1 # not a comment");
}

BOOST_AUTO_TEST_CASE(whitespace_is_trimmed) {
  auto props = parse_ok("   key   =   value with spaces   \t\n");
  BOOST_TEST(value_of(props, "key") == "value with spaces");
}

BOOST_AUTO_TEST_CASE(escaped_trailing_space_is_kept) {
  auto props = parse_ok("key=value\\ \n");
  BOOST_TEST(value_of(props, "key") == "value ");
}

BOOST_AUTO_TEST_CASE(line_continuation) {
  auto props = parse_ok("log.dirs=/a,\\\n         /b,\\\n   /c\nnext=1\n");
  BOOST_TEST(value_of(props, "log.dirs") == "/a,/b,/c");
  BOOST_TEST(value_of(props, "next") == "1");
}

BOOST_AUTO_TEST_CASE(even_backslashes_do_not_continue) {
  auto props = parse_ok("a=x\\\\\nb=2\n");
  BOOST_TEST(value_of(props, "a") == "x\\");
  BOOST_TEST(value_of(props, "b") == "2");
}

BOOST_AUTO_TEST_CASE(continuation_line_starting_with_hash_is_not_a_comment) {
  auto props = parse_ok("a=1\\\n#2\n");
  BOOST_TEST(value_of(props, "a") == "1#2");
}

BOOST_AUTO_TEST_CASE(comment_lines_do_not_continue) {
  auto props = parse_ok("# comment \\\na=1\n");
  BOOST_TEST(value_of(props, "a") == "1");
}

BOOST_AUTO_TEST_CASE(continuation_at_end_of_file) {
  auto props = parse_ok("a=1\\");
  BOOST_TEST(value_of(props, "a") == "1");
}

BOOST_AUTO_TEST_CASE(escapes) {
  auto props = parse_ok("a\\=b=c\\:d\nsp\\ ace=1\ntab=x\\ty\nu=\\u00e9\\u20AC\nother=\\q\n"
                        "pair=\\uD83D\\uDE00\n");
  BOOST_TEST(value_of(props, "a=b") == "c:d");
  BOOST_TEST(value_of(props, "sp ace") == "1");
  BOOST_TEST(value_of(props, "tab") == "x\ty");
  BOOST_TEST(value_of(props, "u") == "\xC3\xA9\xE2\x82\xAC");
  BOOST_TEST(value_of(props, "other") == "q");
  BOOST_TEST(value_of(props, "pair") == "\xF0\x9F\x98\x80");
}

BOOST_AUTO_TEST_CASE(line_endings_and_bom) {
  auto props = parse_ok("\xEF\xBB\xBF" "a=1\r\nb=2\rc=3\n");
  BOOST_TEST(props.size() == 3u);
  BOOST_TEST(value_of(props, "a") == "1");
  BOOST_TEST(value_of(props, "b") == "2");
  BOOST_TEST(value_of(props, "c") == "3");
}

BOOST_AUTO_TEST_CASE(duplicate_key_last_wins) {
  auto props = parse_ok("a=1\nb=2\na=3\n");
  BOOST_TEST(props.size() == 2u);
  BOOST_TEST(value_of(props, "a") == "3");
  BOOST_TEST(props.find("a")->line == 3);
  BOOST_TEST(props.begin()->key == "a"); // keeps the position of its first appearance
}

BOOST_AUTO_TEST_CASE(line_numbers) {
  auto props = parse_ok("# c\n\na=1\nb=x\\\n  y\nc=2\n");
  BOOST_TEST(props.find("a")->line == 3);
  BOOST_TEST(props.find("b")->line == 4);
  BOOST_TEST(props.find("c")->line == 6);
}

BOOST_AUTO_TEST_CASE(key_without_value_is_malformed) {
  auto parsed = parse_properties("a=1\n# comment\nlonely.key\nb=2\n");
  BOOST_REQUIRE(!parsed);
  BOOST_TEST(parsed.error().code == errc::malformed_line);
  BOOST_TEST(parsed.error().message.rfind("line 3: ", 0) == 0, parsed.error().message);
  BOOST_TEST(parsed.error().message.find("lonely.key") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(empty_key_is_malformed) {
  auto parsed = parse_properties("a=1\n\n=value\n");
  BOOST_REQUIRE(!parsed);
  BOOST_TEST(parsed.error().message.rfind("line 3: ", 0) == 0, parsed.error().message);
}

BOOST_AUTO_TEST_CASE(bad_unicode_escape_is_malformed) {
  for (auto text : {"a=\\u12\n", "a=\\uZZZZ\n", "a=\\uD83D\n", "a=\\uDE00\n"}) {
    auto parsed = parse_properties(std::string("x=1\n") + text);
    BOOST_REQUIRE(!parsed);
    BOOST_TEST(parsed.error().message.rfind("line 2: ", 0) == 0, parsed.error().message);
  }
}

BOOST_AUTO_TEST_CASE(malformed_line_reports_where_a_continued_line_starts) {
  auto parsed = parse_properties("a=1\nb=2\\\n  3\nbad\\\nkey\n");
  BOOST_REQUIRE(!parsed);
  BOOST_TEST(parsed.error().message.rfind("line 4: ", 0) == 0, parsed.error().message);
}

BOOST_AUTO_TEST_CASE(load_from_file) {
  std::string path = "/tmp/cafka_config_test_" + std::to_string(::getpid()) + ".properties";
  {
    std::ofstream out(path);
    out << "a=1\nb : two\n";
  }
  auto loaded = load_properties(path);
  std::remove(path.c_str());
  BOOST_REQUIRE(loaded.has_value());
  BOOST_TEST(value_of(*loaded, "b") == "two");
}

BOOST_AUTO_TEST_CASE(load_reports_malformed_line_with_path) {
  std::string path = "/tmp/cafka_config_test_bad_" + std::to_string(::getpid()) + ".properties";
  {
    std::ofstream out(path);
    out << "a=1\noops\n";
  }
  auto loaded = load_properties(path);
  std::remove(path.c_str());
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().code == errc::malformed_line);
  BOOST_TEST(loaded.error().message.rfind(path + ": line 2: ", 0) == 0, loaded.error().message);
}

BOOST_AUTO_TEST_CASE(unreadable_file_names_the_path) {
  auto loaded = load_properties("/nonexistent/dir/server.properties");
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().code == errc::unreadable_file);
  BOOST_TEST(loaded.error().message.find("'/nonexistent/dir/server.properties'")
               != std::string::npos,
             loaded.error().message);
  BOOST_TEST(loaded.error().message.find("No such file") != std::string::npos,
             loaded.error().message);
}

BOOST_AUTO_TEST_CASE(a_directory_is_unreadable) {
  auto loaded = load_properties("/tmp");
  BOOST_REQUIRE(!loaded);
  BOOST_TEST(loaded.error().code == errc::unreadable_file);
  BOOST_TEST(loaded.error().message.find("'/tmp'") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
