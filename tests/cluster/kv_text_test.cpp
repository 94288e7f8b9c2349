// The key=value text format of znode data.
#include "cluster/kv_text.hpp"

#include <boost/test/unit_test.hpp>

#include "cluster/errc.hpp"

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(kv_text)

BOOST_AUTO_TEST_CASE(writes_lines_and_escapes_values) {
  kv_writer w;
  w.add_int("version", 1).add("host", "a=b\\c\nd\re").add_ints("isr", {1, 2, 3}).add_ints("e", {});
  BOOST_TEST(w.text() == "version=1\nhost=a=b\\\\c\\nd\\re\nisr=1,2,3\ne=\n");
  auto f = kv_fields::parse(w.text());
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(*f->text("host") == "a=b\\c\nd\re");
  BOOST_TEST(*f->id_list("isr") == (std::vector<int32_t>{1, 2, 3}), boost::test_tools::per_element());
  BOOST_TEST(f->id_list("e")->empty());
  BOOST_TEST(!f->require_version(1).error());
  BOOST_TEST(f->require_version(2).error() == errc::malformed_data);
}

BOOST_AUTO_TEST_CASE(lenient_about_blank_lines_and_the_last_newline) {
  auto f = kv_fields::parse("\na=1\n\nb=2");
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(*f->integer("a", 0, 9) == 1);
  BOOST_TEST(*f->integer("b", 0, 9) == 2);
  BOOST_TEST(kv_fields::parse("")->all().empty());
}

BOOST_AUTO_TEST_CASE(rejects_malformed_text) {
  for (auto bad : {"novalue\n", "=1\n", "a b=1\n", "a=1\na=2\n", "a=\\x\n", "a=trailing\\\n",
                   "a=raw\rcr\n", "k\xc3\xa9y=1\n"})
    BOOST_TEST(kv_fields::parse(bad).error() == errc::malformed_data, bad);
}

BOOST_AUTO_TEST_CASE(typed_access_checks_ranges) {
  auto f = kv_fields::parse("n=-5\nbig=99999999999999999999\nsp= 1\nplus=+1\nlist=1,,2\n"
                            "dup=1,1\nneg=1,-2\nx=abc\n");
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(*f->integer("n", -10, 10) == -5);
  BOOST_TEST(f->integer("n", 0, 10).error() == errc::malformed_data);
  for (auto key : {"big", "sp", "plus", "x", "missing"})
    BOOST_TEST(f->integer(key, INT64_MIN, INT64_MAX).error() == errc::malformed_data, key);
  for (auto key : {"list", "dup", "neg", "x", "missing"})
    BOOST_TEST(f->id_list(key).error() == errc::malformed_data, key);
  BOOST_TEST(f->text("missing").error() == errc::malformed_data);
}

BOOST_AUTO_TEST_SUITE_END()
