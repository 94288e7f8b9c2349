// embedded_coordinator: node operations — create/get/set/remove with versions, children,
// sequential names, ZooKeeper's error codes, stats.
#include "tests/cluster/fixtures.hpp"

#include <atomic>
#include <thread>

using namespace cafka::test;

BOOST_FIXTURE_TEST_SUITE(embedded_coordinator_nodes, store_fixture)

BOOST_AUTO_TEST_CASE(create_get_set_remove_with_versions) {
  auto c = open();
  BOOST_TEST(*create(*c, "/a", "x") == "/a");
  auto n = get(*c, "/a");
  BOOST_REQUIRE(n.has_value());
  BOOST_TEST(n->data == "x");
  BOOST_TEST(n->stat.version == 0);
  BOOST_TEST(n->stat.data_length == 1);
  BOOST_TEST(n->stat.ephemeral_owner == 0);

  BOOST_TEST(set(*c, "/a", "yy", 0)->version == 1);
  BOOST_TEST(set(*c, "/a", "zz", 0).error() == errc::bad_version);
  BOOST_TEST(get(*c, "/a")->data == "yy");
  BOOST_TEST(set(*c, "/a", "zzz", any_version)->version == 2);

  BOOST_TEST(remove(*c, "/a", 1).error() == errc::bad_version);
  BOOST_TEST(!remove(*c, "/a", 2).error());
  BOOST_TEST(get(*c, "/a").error() == errc::no_node);
  BOOST_TEST(set(*c, "/a", "", any_version).error() == errc::no_node);
  BOOST_TEST(remove(*c, "/a").error() == errc::no_node);
}

BOOST_AUTO_TEST_CASE(data_is_bytes) {
  auto c = open();
  std::string bytes("\0\xff\n=\\", 5);
  BOOST_REQUIRE(create(*c, "/bin", bytes));
  BOOST_TEST(get(*c, "/bin")->data == bytes);
}

BOOST_AUTO_TEST_CASE(create_errors) {
  auto c = open();
  BOOST_TEST(create(*c, "/missing/child").error() == errc::no_node);
  BOOST_REQUIRE(create(*c, "/a"));
  BOOST_TEST(create(*c, "/a").error() == errc::node_exists);
  BOOST_TEST(create(*c, "/").error() == errc::node_exists);
  for (auto bad : {"", "a", "/a/", "//", "/a//b", "/a/./b", "/a/..", "/x\x01", "/\xff"})
    BOOST_TEST(create(*c, bad).error() == errc::invalid_path, bad);
  BOOST_REQUIRE(create(*c, "/e", "", create_mode::ephemeral));
  BOOST_TEST(create(*c, "/e/child").error() == errc::no_children_for_ephemerals);
}

BOOST_AUTO_TEST_CASE(remove_errors) {
  auto c = open();
  BOOST_REQUIRE(create(*c, "/p"));
  BOOST_REQUIRE(create(*c, "/p/c"));
  BOOST_TEST(remove(*c, "/p").error() == errc::not_empty);
  BOOST_TEST(remove(*c, "/").error() == errc::invalid_path);
  BOOST_TEST(remove(*c, "p").error() == errc::invalid_path);
  BOOST_TEST(!remove(*c, "/p/c").error());
  BOOST_TEST(!remove(*c, "/p").error());
}

BOOST_AUTO_TEST_CASE(children_are_names_sorted) {
  auto c = open();
  BOOST_REQUIRE(create(*c, "/b"));
  BOOST_REQUIRE(create(*c, "/b/c"));
  BOOST_REQUIRE(create(*c, "/b/a"));
  BOOST_REQUIRE(create(*c, "/b/a/deeper"));
  BOOST_TEST(*children(*c, "/b") == (std::vector<std::string>{"a", "c"}),
             boost::test_tools::per_element());
  BOOST_TEST(*children(*c, "/") == std::vector<std::string>{"b"}, boost::test_tools::per_element());
  BOOST_TEST(children(*c, "/nope").error() == errc::no_node);
  BOOST_TEST(children(*c, "/b/").error() == errc::invalid_path);
  auto stat = **exists(*c, "/b");
  BOOST_TEST(stat.num_children == 2);
  BOOST_TEST(stat.cversion == 2);
}

BOOST_AUTO_TEST_CASE(exists_reports_absence_as_a_value) {
  auto c = open();
  auto absent = exists(*c, "/x");
  BOOST_REQUIRE(absent.has_value());
  BOOST_TEST(!absent->has_value());
  BOOST_REQUIRE(create(*c, "/x", "abc"));
  auto present = exists(*c, "/x");
  BOOST_REQUIRE(present.has_value());
  BOOST_REQUIRE(present->has_value());
  BOOST_TEST((*present)->data_length == 3);
  BOOST_TEST(exists(*c, "x").error() == errc::invalid_path);
}

BOOST_AUTO_TEST_CASE(sequential_names_count_the_parents_child_changes) {
  auto c = open();
  BOOST_REQUIRE(create(*c, "/brokers"));
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::sequential) == "/brokers/seq-0000000000");
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::ephemeral_sequential)
             == "/brokers/seq-0000000001");
  // Like ZooKeeper, the counter is the parent's cversion: plain creates and deletes count too.
  BOOST_REQUIRE(create(*c, "/brokers/x"));
  BOOST_REQUIRE(!remove(*c, "/brokers/x").error());
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::sequential) == "/brokers/seq-0000000004");
  BOOST_TEST(get(*c, "/brokers/seq-0000000001")->stat.ephemeral_owner == c->session());
  // A prefix may end in '/': the counter is the whole name.
  BOOST_REQUIRE(create(*c, "/q"));
  BOOST_TEST(*create(*c, "/q/", "", create_mode::sequential) == "/q/0000000000");
  BOOST_TEST(*create(*c, "/", "", create_mode::sequential) == "/0000000002");
  BOOST_TEST(create(*c, "/q/", "", create_mode::persistent).error() == errc::invalid_path);
  BOOST_TEST(create(*c, "/none/s-", "", create_mode::sequential).error() == errc::no_node);
}

BOOST_AUTO_TEST_CASE(stats_track_transactions) {
  auto c = open();
  auto before = get(*c, "/")->stat;
  BOOST_REQUIRE(create(*c, "/s"));
  auto created = get(*c, "/s")->stat;
  BOOST_TEST(created.czxid > 0);
  BOOST_TEST(created.mzxid == created.czxid);
  BOOST_REQUIRE(set(*c, "/s", "v"));
  auto changed = get(*c, "/s")->stat;
  BOOST_TEST(changed.czxid == created.czxid);
  BOOST_TEST(changed.mzxid > created.mzxid);
  auto root = get(*c, "/")->stat;
  BOOST_TEST(root.cversion == before.cversion + 1);
  BOOST_TEST(root.pzxid == created.czxid);
  BOOST_TEST(store->node_count() == 2u);
}

BOOST_AUTO_TEST_CASE(empty_callbacks_are_allowed) {
  auto c = open();
  c->create("/quiet", "", create_mode::persistent, {});
  c->set("/quiet", "v", any_version, {});
  BOOST_TEST(get(*c, "/quiet")->data == "v");
  c->remove("/quiet", any_version, {});
  BOOST_TEST(!exists(*c, "/quiet")->has_value());
}

BOOST_AUTO_TEST_CASE(sessions_share_one_tree) {
  auto a = open();
  auto b = open();
  BOOST_TEST(a->session() != b->session());
  BOOST_REQUIRE(create(*a, "/shared", "from a"));
  BOOST_TEST(get(*b, "/shared")->data == "from a");
}

BOOST_AUTO_TEST_CASE(concurrent_callers_are_serialised) {
  // The store is deterministic when driven from one thread; from several it must still be safe.
  auto setup = open();
  BOOST_REQUIRE(create(*setup, "/seq"));
  constexpr int threads = 4;
  constexpr int per_thread = 50;
  std::atomic<int> created{0};
  std::vector<std::unique_ptr<embedded_coordinator>> sessions;
  for (int t = 0; t < threads; ++t)
    sessions.push_back(open());
  std::vector<std::thread> workers;
  for (auto& session : sessions)
    workers.emplace_back([&created, c = session.get()] {
      for (int i = 0; i < per_thread; ++i)
        c->create("/seq/n-", "", create_mode::ephemeral_sequential, [&](result<std::string> r) {
          if (r)
            ++created;
        });
    });
  for (auto& w : workers)
    w.join();
  BOOST_TEST(created.load() == threads * per_thread);
  BOOST_TEST(children(*setup, "/seq")->size() == std::size_t{threads * per_thread});
  sessions.clear(); // closing deletes their ephemerals
  BOOST_TEST(children(*setup, "/seq")->empty());
}

BOOST_AUTO_TEST_SUITE_END()
