// The coordinator contract (cluster/coordinator.hpp), checked against both implementations:
// the embedded coordinator and the ZooKeeper coordinator on a real server (each ZooKeeper test
// in its own chroot). Where a check needs "no further event arrived", it relies on ZooKeeper's
// guarantee that a session sees a watch event before it sees the data that triggered it: once
// the watching session has read the final data, every event it will ever get has arrived.
#include "tests/cluster/async_fixtures.hpp"

#include <atomic>
#include <thread>

#include <boost/mpl/list.hpp>

using namespace cafka::test::async;
namespace tt = boost::test_tools;

namespace {

watch_event ev(watch_event_type type, std::string path) {
  return {type, std::move(path)};
}

using sources = boost::mpl::list<embedded_source, zookeeper_source>;

/// Ordered strings from callbacks on another thread.
struct trace {
  std::mutex m;
  std::vector<std::string> lines;
  void add(std::string s) {
    std::lock_guard<std::mutex> guard{m};
    lines.push_back(std::move(s));
  }
  std::vector<std::string> get() {
    std::lock_guard<std::mutex> guard{m};
    return lines;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(coordinator_contract)

BOOST_AUTO_TEST_CASE_TEMPLATE(create_get_set_remove_with_versions, Source, sources) {
  Source src;
  auto c = src.open();
  BOOST_TEST(*create(*c, "/a", "x") == "/a");
  auto n = get(*c, "/a");
  BOOST_REQUIRE(n.has_value());
  BOOST_TEST(n->data == "x");
  BOOST_TEST(n->stat.version == 0);
  BOOST_TEST(n->stat.data_length == 1);
  BOOST_TEST(n->stat.ephemeral_owner == 0);
  BOOST_TEST(n->stat.czxid > 0);
  BOOST_TEST(n->stat.mzxid == n->stat.czxid);

  BOOST_TEST(set(*c, "/a", "yy", 0)->version == 1);
  BOOST_TEST(set(*c, "/a", "zz", 0).error() == errc::bad_version);
  BOOST_TEST(get(*c, "/a")->data == "yy");
  BOOST_TEST(get(*c, "/a")->stat.mzxid > n->stat.mzxid);
  BOOST_TEST(set(*c, "/a", "zzz", any_version)->version == 2);

  BOOST_TEST(remove(*c, "/a", 1).error() == errc::bad_version);
  BOOST_TEST(!remove(*c, "/a", 2).error());
  BOOST_TEST(get(*c, "/a").error() == errc::no_node);
  BOOST_TEST(set(*c, "/a", "", any_version).error() == errc::no_node);
  BOOST_TEST(remove(*c, "/a").error() == errc::no_node);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(data_is_bytes, Source, sources) {
  Source src;
  auto c = src.open();
  std::string bytes("\0\xff\n=\\", 5);
  BOOST_REQUIRE(create(*c, "/bin", bytes));
  BOOST_TEST(get(*c, "/bin")->data == bytes);
  BOOST_REQUIRE(create(*c, "/empty"));
  BOOST_TEST(get(*c, "/empty")->data.empty());
  BOOST_TEST(get(*c, "/empty")->stat.data_length == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(create_errors, Source, sources) {
  Source src;
  auto c = src.open();
  BOOST_TEST(create(*c, "/missing/child").error() == errc::no_node);
  BOOST_REQUIRE(create(*c, "/a"));
  BOOST_TEST(create(*c, "/a").error() == errc::node_exists);
  BOOST_TEST(create(*c, "/").error() == errc::node_exists);
  for (auto bad : {"", "a", "/a/", "//", "/a//b", "/a/./b", "/a/..", "/x\x01"})
    BOOST_TEST(create(*c, bad).error() == errc::invalid_path, "path '" << bad << "'");
  BOOST_REQUIRE(create(*c, "/e", "", create_mode::ephemeral));
  BOOST_TEST(create(*c, "/e/child").error() == errc::no_children_for_ephemerals);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(remove_errors, Source, sources) {
  Source src;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/p"));
  BOOST_REQUIRE(create(*c, "/p/c"));
  BOOST_TEST(remove(*c, "/p").error() == errc::not_empty);
  BOOST_TEST(remove(*c, "p").error() == errc::invalid_path);
  BOOST_TEST(remove(*c, "/").error() == errc::invalid_path);
  BOOST_TEST(!remove(*c, "/p/c").error());
  BOOST_TEST(!remove(*c, "/p").error());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(children_are_names_sorted, Source, sources) {
  Source src;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/b"));
  BOOST_REQUIRE(create(*c, "/b/c"));
  BOOST_REQUIRE(create(*c, "/b/a"));
  BOOST_REQUIRE(create(*c, "/b/a/deeper"));
  BOOST_TEST(*children(*c, "/b") == (std::vector<std::string>{"a", "c"}), tt::per_element());
  BOOST_TEST(children(*c, "/nope").error() == errc::no_node);
  BOOST_TEST(children(*c, "/b/").error() == errc::invalid_path);
  auto stat = **exists(*c, "/b");
  BOOST_TEST(stat.num_children == 2);
  BOOST_TEST(stat.cversion == 2);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exists_reports_absence_as_a_value, Source, sources) {
  Source src;
  auto c = src.open();
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

BOOST_AUTO_TEST_CASE_TEMPLATE(sequential_names_count_the_parents_child_changes, Source, sources) {
  Source src;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/brokers"));
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::sequential)
             == "/brokers/seq-0000000000");
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::ephemeral_sequential)
             == "/brokers/seq-0000000001");
  BOOST_REQUIRE(create(*c, "/brokers/x")); // plain creates count too
  BOOST_TEST(*create(*c, "/brokers/seq-", "", create_mode::sequential)
             == "/brokers/seq-0000000003");
  BOOST_TEST(get(*c, "/brokers/seq-0000000001")->stat.ephemeral_owner == c->session());
  BOOST_REQUIRE(create(*c, "/q"));
  BOOST_TEST(*create(*c, "/q/", "", create_mode::sequential) == "/q/0000000000");
  BOOST_TEST(create(*c, "/q/", "", create_mode::persistent).error() == errc::invalid_path);
  BOOST_TEST(create(*c, "/none/s-", "", create_mode::sequential).error() == errc::no_node);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(empty_callbacks_are_allowed, Source, sources) {
  Source src;
  auto c = src.open();
  c->create("/quiet", "", create_mode::persistent, {});
  c->set("/quiet", "v", any_version, {});
  // One session's calls are served in order: this get sees both.
  BOOST_TEST(get(*c, "/quiet")->data == "v");
  c->remove("/quiet", any_version, {});
  BOOST_TEST(!exists(*c, "/quiet")->has_value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(data_watch_fires_once_per_arm, Source, sources) {
  Source src;
  event_log r;
  auto writer = src.open();
  auto reader = src.open();
  BOOST_REQUIRE(create(*writer, "/d", "0"));
  BOOST_REQUIRE(get(*reader, "/d", r.watch()));
  BOOST_REQUIRE(set(*writer, "/d", "1"));
  BOOST_REQUIRE(set(*writer, "/d", "2"));
  BOOST_REQUIRE(r.wait_events(1));
  BOOST_TEST(get(*reader, "/d")->data == "2"); // every event for "2" has arrived by now
  BOOST_TEST(r.events() == std::vector<watch_event>{ev(watch_event_type::changed, "/d")},
             tt::per_element());
  BOOST_REQUIRE(get(*reader, "/d", r.watch())); // re-arm
  BOOST_REQUIRE(set(*writer, "/d", "3"));
  BOOST_REQUIRE(r.wait_events(2));
  BOOST_TEST(get(*reader, "/d")->data == "3");
  BOOST_TEST(r.events().size() == 2u);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(each_call_arms_its_own_watch, Source, sources) {
  Source src;
  event_log r;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/d"));
  BOOST_REQUIRE(get(*c, "/d", r.watch()));
  BOOST_REQUIRE(exists(*c, "/d", r.watch()));
  BOOST_REQUIRE(set(*c, "/d", "x"));
  BOOST_REQUIRE(r.wait_events(2));
  BOOST_TEST(r.events()[0] == ev(watch_event_type::changed, "/d"));
  BOOST_TEST(r.events()[1] == ev(watch_event_type::changed, "/d"));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exists_watch_on_missing_node_fires_on_create, Source, sources) {
  Source src;
  event_log r;
  auto c = src.open();
  auto writer = src.open();
  BOOST_REQUIRE(exists(*c, "/later", r.watch()));
  BOOST_REQUIRE(create(*writer, "/later"));
  BOOST_REQUIRE(r.wait_events(1));
  BOOST_TEST(r.events() == std::vector<watch_event>{ev(watch_event_type::created, "/later")},
             tt::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(child_watch_fires_on_child_create_and_delete, Source, sources) {
  Source src;
  event_log r;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/p"));
  BOOST_REQUIRE(children(*c, "/p", r.watch()));
  BOOST_REQUIRE(create(*c, "/p/c1"));
  BOOST_REQUIRE(create(*c, "/p/c2"));
  BOOST_REQUIRE(r.wait_events(1));
  BOOST_REQUIRE(children(*c, "/p", r.watch()));
  BOOST_REQUIRE(set(*c, "/p/c1", "data changes are not child changes"));
  BOOST_REQUIRE(set(*c, "/p", "nor are the parent's own"));
  BOOST_TEST(r.events().size() == 1u); // the sets' completions came after any event of theirs
  BOOST_REQUIRE(!remove(*c, "/p/c1").error());
  BOOST_REQUIRE(r.wait_events(2));
  BOOST_TEST(r.events() == (std::vector<watch_event>{ev(watch_event_type::children_changed, "/p"),
                                                     ev(watch_event_type::children_changed, "/p")}),
             tt::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(deletion_fires_data_exists_and_child_watches, Source, sources) {
  Source src;
  event_log data, existence, kids;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/gone"));
  BOOST_REQUIRE(get(*c, "/gone", data.watch()));
  BOOST_REQUIRE(exists(*c, "/gone", existence.watch()));
  BOOST_REQUIRE(children(*c, "/gone", kids.watch()));
  BOOST_REQUIRE(!remove(*c, "/gone").error());
  auto deleted = std::vector<watch_event>{ev(watch_event_type::deleted, "/gone")};
  for (auto* log : {&data, &existence, &kids}) {
    BOOST_REQUIRE(log->wait_events(1));
    BOOST_TEST(log->events() == deleted, tt::per_element());
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(failed_get_and_children_arm_nothing, Source, sources) {
  Source src;
  event_log r;
  auto c = src.open();
  BOOST_TEST(get(*c, "/none", r.watch()).error() == errc::no_node);
  BOOST_TEST(children(*c, "/none", r.watch()).error() == errc::no_node);
  BOOST_TEST(exists(*c, "bad", r.watch()).error() == errc::invalid_path);
  BOOST_REQUIRE(create(*c, "/none"));
  BOOST_REQUIRE(get(*c, "/none")); // an armed watch would have fired before this completes
  BOOST_TEST(r.events().empty());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(own_watch_event_comes_before_the_completion, Source, sources) {
  Source src;
  trace order;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/o"));
  BOOST_REQUIRE(get(*c, "/o", [&](const watch_event&) { order.add("watch"); }));
  BOOST_REQUIRE(await<node_stat>([&](auto cb) {
    c->set("/o", "x", any_version, [&order, cb](result<node_stat> r) {
      order.add("set done");
      cb(std::move(r));
    });
  }));
  BOOST_TEST(order.get() == (std::vector<std::string>{"watch", "set done"}), tt::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ephemerals_vanish_on_close_firing_other_sessions_watches, Source,
                              sources) {
  Source src;
  event_log r;
  auto a = src.open();
  auto b = src.open();
  BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(create(*a, "/persistent"));
  BOOST_TEST(get(*b, "/eph")->stat.ephemeral_owner == a->session());
  BOOST_REQUIRE(exists(*b, "/eph", r.watch()));
  a->close();
  BOOST_REQUIRE(r.wait_events(1));
  BOOST_TEST(r.events() == std::vector<watch_event>{ev(watch_event_type::deleted, "/eph")},
             tt::per_element());
  BOOST_TEST(!exists(*b, "/eph")->has_value());
  BOOST_TEST(exists(*b, "/persistent")->has_value());
  BOOST_TEST((a->state() == session_state::closed));
  BOOST_TEST(create(*a, "/after").error() == errc::closed);
  a->close(); // idempotent
}

BOOST_AUTO_TEST_CASE_TEMPLATE(destroying_the_coordinator_closes_the_session, Source, sources) {
  Source src;
  auto b = src.open();
  {
    auto a = src.open();
    BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  }
  BOOST_TEST(!exists(*b, "/eph")->has_value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(callback_may_rearm_its_watch, Source, sources) {
  Source src;
  trace seen;
  auto c = src.open();
  auto writer = src.open();
  BOOST_REQUIRE(create(*c, "/cfg", "0"));
  // A watcher that re-arms itself from inside its own callback, as a cluster actor would.
  std::function<void(const watch_event&)> rearm = [&](const watch_event&) {
    c->get("/cfg", rearm, [&](result<node_data> r) {
      if (r)
        seen.add(r->data);
    });
  };
  BOOST_REQUIRE(get(*c, "/cfg", rearm));
  for (auto v : {"1", "2", "3"}) {
    BOOST_REQUIRE(set(*writer, "/cfg", v));
    // Wait (bounded) until the re-armed get has read v before the next write.
    auto deadline = std::chrono::steady_clock::now() + wait_limit;
    while (seen.get().size() < std::stoul(v) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  BOOST_TEST(seen.get() == (std::vector<std::string>{"1", "2", "3"}), tt::per_element());
  c->close(); // before `rearm` goes out of scope
}

BOOST_AUTO_TEST_CASE_TEMPLATE(calls_from_callbacks_complete_in_call_order, Source, sources) {
  Source src;
  trace order;
  latch last;
  auto c = src.open();
  BOOST_REQUIRE(create(*c, "/o"));
  BOOST_REQUIRE(get(*c, "/o", [&](const watch_event&) {
    order.add("watch");
    c->get("/o", {}, [&](result<node_data>) { order.add("get from watch done"); });
    order.add("watch returns");
  }));
  c->set("/o", "x", any_version, [&](result<node_stat>) {
    order.add("set done");
    c->create("/o/child", "", create_mode::persistent, [&](result<std::string> r) {
      order.add(r ? "create from set done" : "?");
      last.set();
    });
  });
  BOOST_REQUIRE(last.wait());
  BOOST_TEST(order.get() == (std::vector<std::string>{"watch", "watch returns", "set done",
                                                       "get from watch done",
                                                       "create from set done"}),
             tt::per_element());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(concurrent_callers_are_serialised, Source, sources) {
  Source src;
  auto setup = src.open();
  BOOST_REQUIRE(create(*setup, "/seq"));
  constexpr int threads = 4;
  constexpr int per_thread = 25;
  std::mutex m;
  std::condition_variable cv;
  int completed = 0;
  int created = 0;
  std::vector<std::unique_ptr<coordinator>> sessions;
  for (int t = 0; t < threads; ++t)
    sessions.push_back(src.open());
  std::vector<std::thread> workers;
  for (auto& session : sessions)
    workers.emplace_back([&, c = session.get()] {
      for (int i = 0; i < per_thread; ++i)
        c->create("/seq/n-", "", create_mode::ephemeral_sequential, [&](result<std::string> r) {
          std::lock_guard<std::mutex> guard{m};
          ++completed;
          created += r ? 1 : 0;
          cv.notify_all();
        });
    });
  for (auto& w : workers)
    w.join();
  {
    std::unique_lock<std::mutex> lock{m};
    BOOST_REQUIRE(cv.wait_for(lock, wait_limit, [&] { return completed == threads * per_thread; }));
    BOOST_TEST(created == threads * per_thread);
  }
  BOOST_TEST(children(*setup, "/seq")->size() == std::size_t{threads * per_thread});
  sessions.clear(); // closing deletes their ephemerals
  BOOST_TEST(children(*setup, "/seq")->empty());
}

BOOST_AUTO_TEST_SUITE_END()
