// embedded_coordinator: one-shot watches on data, existence and children.
#include "tests/cluster/fixtures.hpp"

using namespace cafka::test;

namespace {

watch_event ev(watch_event_type type, std::string path) {
  return {type, std::move(path)};
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(embedded_coordinator_watches, store_fixture)

BOOST_AUTO_TEST_CASE(data_watch_fires_once_per_arm) {
  auto writer = open();
  auto reader = open();
  recorder r;
  BOOST_REQUIRE(create(*writer, "/d", "0"));
  BOOST_REQUIRE(get(*reader, "/d", r.watch()));
  BOOST_REQUIRE(set(*writer, "/d", "1"));
  BOOST_REQUIRE(set(*writer, "/d", "2"));
  BOOST_TEST(r.events == std::vector<watch_event>{ev(watch_event_type::changed, "/d")},
             boost::test_tools::per_element());
  BOOST_TEST(store->watch_count() == 0u);
  BOOST_REQUIRE(get(*reader, "/d", r.watch())); // re-arm
  BOOST_REQUIRE(set(*writer, "/d", "3"));
  BOOST_TEST(r.events.size() == 2u);
}

BOOST_AUTO_TEST_CASE(each_call_arms_its_own_watch) {
  auto c = open();
  recorder r;
  BOOST_REQUIRE(create(*c, "/d"));
  BOOST_REQUIRE(get(*c, "/d", r.watch()));
  BOOST_REQUIRE(exists(*c, "/d", r.watch()));
  BOOST_TEST(store->watch_count() == 2u);
  BOOST_REQUIRE(set(*c, "/d", "x"));
  BOOST_TEST(r.events.size() == 2u);
}

BOOST_AUTO_TEST_CASE(exists_watch_on_missing_node_fires_on_create) {
  auto c = open();
  recorder r;
  BOOST_REQUIRE(exists(*c, "/later", r.watch()));
  BOOST_TEST(store->watch_count() == 1u);
  BOOST_REQUIRE(create(*c, "/later"));
  BOOST_TEST(r.events == std::vector<watch_event>{ev(watch_event_type::created, "/later")},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(child_watch_fires_on_child_create_and_delete) {
  auto c = open();
  recorder r;
  BOOST_REQUIRE(create(*c, "/p"));
  BOOST_REQUIRE(children(*c, "/p", r.watch()));
  BOOST_REQUIRE(create(*c, "/p/c1"));
  BOOST_REQUIRE(create(*c, "/p/c2"));
  BOOST_TEST(r.events.size() == 1u);
  BOOST_REQUIRE(children(*c, "/p", r.watch()));
  BOOST_REQUIRE(set(*c, "/p/c1", "data changes are not child changes"));
  BOOST_REQUIRE(set(*c, "/p", "nor are the parent's own"));
  BOOST_TEST(r.events.size() == 1u);
  BOOST_REQUIRE(!remove(*c, "/p/c1").error());
  BOOST_TEST(r.events == (std::vector<watch_event>{ev(watch_event_type::children_changed, "/p"),
                                                   ev(watch_event_type::children_changed, "/p")}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(deletion_fires_data_exists_and_child_watches) {
  auto c = open();
  recorder data, existence, kids;
  BOOST_REQUIRE(create(*c, "/gone"));
  BOOST_REQUIRE(get(*c, "/gone", data.watch()));
  BOOST_REQUIRE(exists(*c, "/gone", existence.watch()));
  BOOST_REQUIRE(children(*c, "/gone", kids.watch()));
  BOOST_REQUIRE(!remove(*c, "/gone").error());
  auto deleted = std::vector<watch_event>{ev(watch_event_type::deleted, "/gone")};
  BOOST_TEST(data.events == deleted, boost::test_tools::per_element());
  BOOST_TEST(existence.events == deleted, boost::test_tools::per_element());
  BOOST_TEST(kids.events == deleted, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(failed_get_and_children_arm_nothing) {
  auto c = open();
  recorder r;
  BOOST_TEST(get(*c, "/none", r.watch()).error() == errc::no_node);
  BOOST_TEST(children(*c, "/none", r.watch()).error() == errc::no_node);
  BOOST_TEST(exists(*c, "bad", r.watch()).error() == errc::invalid_path);
  BOOST_TEST(store->watch_count() == 0u);
  BOOST_REQUIRE(create(*c, "/none"));
  BOOST_TEST(r.events.empty());
}

BOOST_AUTO_TEST_CASE(own_watch_event_comes_before_the_completion) {
  auto c = open();
  std::vector<std::string> order;
  BOOST_REQUIRE(create(*c, "/o"));
  BOOST_REQUIRE(get(*c, "/o", [&](const watch_event&) { order.push_back("watch"); }));
  c->set("/o", "x", any_version, [&](result<node_stat>) { order.push_back("set done"); });
  BOOST_TEST(order == (std::vector<std::string>{"watch", "set done"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(watch_of_another_session_runs_on_the_writers_call) {
  auto a = open();
  auto b = open();
  recorder r;
  BOOST_REQUIRE(exists(*b, "/x", r.watch()));
  BOOST_REQUIRE(create(*a, "/x")); // b's watch ran before a's create returned
  BOOST_TEST(r.events.size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
