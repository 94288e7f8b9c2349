// ZooKeeper's path rules.
#include "cluster/path_syntax.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(path_syntax)

BOOST_AUTO_TEST_CASE(valid_paths) {
  for (auto p : {"/", "/a", "/a/b", "/brokers/ids/1", "/a.b/c-d_e", "/...", "/.a", "/a b",
                 "/caf\xc3\xa9", "/\xe2\x82\xac"})
    BOOST_TEST(is_valid_path(p), p);
}

BOOST_AUTO_TEST_CASE(invalid_paths) {
  for (auto p : {"", "a", "a/b", "//", "/a/", "/a//b", "/.", "/..", "/a/./b", "/a/../b", "/\x01",
                 "/a\x7f", "/\xc2\x80", "/\xff", "/\xc3", "/\xc0\xaf", "/\xed\xa0\x80",
                 "/\xef\xbf\xbf", "/\xf0\x9f\x98\x80"})
    BOOST_TEST(!is_valid_path(p), p);
  BOOST_TEST(!is_valid_path(std::string("/a\0b", 4)));
}

BOOST_AUTO_TEST_CASE(sequential_create_paths) {
  BOOST_TEST(is_valid_create_path("/q/", true));
  BOOST_TEST(is_valid_create_path("/q/n-", true));
  BOOST_TEST(is_valid_create_path("/", true));
  BOOST_TEST(!is_valid_create_path("/q/", false));
  BOOST_TEST(!is_valid_create_path("q", true));
  BOOST_TEST(!is_valid_create_path("/q//", true));
}

BOOST_AUTO_TEST_CASE(parents_names_and_ancestors) {
  BOOST_TEST(parent_path("/a/b") == "/a");
  BOOST_TEST(parent_path("/a") == "/");
  BOOST_TEST(parent_path("/") == "");
  BOOST_TEST(parent_path("/a/") == "/a");
  BOOST_TEST(node_name("/a/b") == "b");
  BOOST_TEST(node_name("/") == "");
  BOOST_TEST(join_path("/", "b") == "/b");
  BOOST_TEST(join_path("/a", "b") == "/a/b");
  BOOST_TEST(ancestors("/a/b/c") == (std::vector<std::string>{"/a", "/a/b"}),
             boost::test_tools::per_element());
  BOOST_TEST(ancestors("/a").empty());
  BOOST_TEST(ancestors("/").empty());
}

BOOST_AUTO_TEST_SUITE_END()
