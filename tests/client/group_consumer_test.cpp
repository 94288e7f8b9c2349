// Native group members end to end: a node in one actor system, members and their consumer
// actors in a second one, over loopback. Short group timings (session 2 s, heartbeat 200 ms,
// group.initial.rebalance.delay.ms 0). Every wait is bounded; nothing asserts on timing.

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <numeric>
#include <set>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/connect.hpp"
#include "client/group_consumer.hpp"
#include "client/producer.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

namespace {

// What one consumer actor saw.
struct group_log {
  std::mutex mtx;
  std::condition_variable cv;
  std::vector<partitions_assigned> assigned;
  size_t revocations = 0;
  std::vector<topic_partition> current; ///< assigned and not revoked
  std::multiset<std::string> values;
  std::vector<consumer_error> errors;
  /// at most once: (committed offset when the batch arrived, the batch's next offset)
  std::vector<std::pair<int64_t, int64_t>> commit_checks;

  bool wait_until(const std::function<bool(group_log&)>& pred, std::chrono::milliseconds timeout = 60s) {
    std::unique_lock<std::mutex> guard{mtx};
    return cv.wait_for(guard, timeout, [&] { return pred(*this); });
  }
  template <class F>
  auto with(F f) {
    std::lock_guard<std::mutex> guard{mtx};
    return f(*this);
  }
};

// A consumer actor for a group member. With `check` set, it first asks that group actor
// for the batch's partition's committed offset (at most once: it must be there already).
caf::behavior group_sink(caf::event_based_actor* self, std::shared_ptr<group_log> log, group_actor check) {
  auto note = [log](auto f) {
    {
      std::lock_guard<std::mutex> guard{log->mtx};
      f(*log);
    }
    log->cv.notify_all();
  };
  return {
    [=](partitions_assigned& a) {
      note([&](group_log& l) {
        l.current = a.partitions;
        l.assigned.push_back(a);
      });
    },
    [=](partitions_revoked&) {
      note([&](group_log& l) {
        l.current.clear();
        ++l.revocations;
      });
    },
    [=](consumer_records& recs) {
      auto rp = self->make_response_promise();
      auto take = [=](int64_t committed) mutable {
        auto decoded = records(recs);
        note([&](group_log& l) {
          if (check)
            l.commit_checks.emplace_back(committed, recs.next_offset);
          for (auto& r : decoded)
            l.values.insert(*r.value);
        });
        rp.deliver(caf::unit);
      };
      if (!check) {
        take(-1);
        return rp;
      }
      self->request(check, 10s, fetch_offsets_atom_v, group_offset_query{false, {recs.tp}})
        .then([=](std::vector<group_offset>& found) mutable { take(found.empty() ? -1 : found[0].offset); },
              [=](caf::error&) mutable { take(-2); });
      return rp;
    },
    [=](consumer_error& err) { note([&](group_log& l) { l.errors.push_back(err); }); },
  };
}

struct group_fixture {
  temp_dir dir;
  server srv{dir.path, 0, [](config::server_config& c) {
               c.group_initial_rebalance_delay_ms = 0;
               c.group_min_session_timeout_ms = 500;
             }};
  client_system cs;
  caf::actor_system& sys = cs.sys();
  node_actor node;

  group_fixture() {
    auto n = connect(sys, "127.0.0.1", srv.port(), 10s);
    BOOST_REQUIRE_MESSAGE(n, "connect: " << why(n));
    node = *n;
  }

  group_options options(std::string group, std::string topic) {
    group_options o;
    o.group_id = std::move(group);
    o.topics = {std::move(topic)};
    o.session_timeout = 2s;
    o.heartbeat_interval = 200ms;
    o.max_poll_interval = 5s;
    o.auto_offset_reset = offset_reset::earliest;
    o.auto_commit_interval = 200ms;
    o.fetch.max_wait = 100ms;
    o.fetch.request_timeout = 10s;
    return o;
  }

  // `n` records "<prefix>-<i>" with keys spreading them over the partitions.
  std::set<std::string> produce(const std::string& topic, int n, const std::string& prefix) {
    producer p{sys, node, producer_config{}};
    std::vector<producer::result_future> futs;
    std::set<std::string> values;
    for (int i = 0; i < n; ++i) {
      auto value = prefix + "-" + std::to_string(i);
      values.insert(value);
      futs.push_back(p.send(topic, "key-" + std::to_string(i), value));
    }
    BOOST_REQUIRE(!p.flush());
    for (auto& f : futs) {
      BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
      auto md = f.get();
      BOOST_REQUIRE_MESSAGE(md, "produce: " << why(md));
    }
    return values;
  }

  caf::actor sink(std::shared_ptr<group_log> log, group_actor check = {}) {
    return sys.spawn(group_sink, std::move(log), std::move(check));
  }

  group_actor group_of(const std::string& id) {
    caf::scoped_actor self{sys};
    group_actor out;
    self->request(node, 10s, group_coordinator_atom_v, id)
      .receive([&](group_actor& g) { out = g; },
               [&](caf::error& err) { BOOST_FAIL("group_coordinator: " << describe(err)); });
    return out;
  }

  // The committed offsets of `id` (bounded).
  std::vector<group_offset> committed(const std::string& id) {
    caf::scoped_actor self{sys};
    std::vector<group_offset> out;
    self->request(group_of(id), 10s, fetch_offsets_atom_v, group_offset_query{true, {}})
      .receive([&](std::vector<group_offset>& found) { out = std::move(found); },
               [&](caf::error& err) { BOOST_FAIL("fetch_offsets: " << describe(err)); });
    return out;
  }

  // Sends stop and waits (bounded) until the member is gone.
  void stop_member(const caf::actor& member) {
    caf::scoped_actor self{sys};
    self->monitor(member);
    self->send(member, stop_atom_v);
    bool down = false;
    self->receive_while([&] { return !down; })([&](caf::down_msg&) { down = true; },
                                               caf::after(30s) >> [&] {
                                                 BOOST_ERROR("member did not stop within 30 s");
                                                 down = true;
                                               });
  }
};

bool has_all(group_log& l, const std::set<std::string>& want) {
  return std::all_of(want.begin(), want.end(), [&](auto& v) { return l.values.count(v) > 0; });
}

int64_t sum_offsets(const std::vector<group_offset>& offsets) {
  return std::accumulate(offsets.begin(), offsets.end(), int64_t{0},
                         [](int64_t acc, const group_offset& o) { return acc + o.offset; });
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(group_consumer, group_fixture)

BOOST_AUTO_TEST_CASE(two_members_share_four_partitions_and_one_takes_over_when_the_other_stops) {
  create_topic(sys, node, "shared", 4);
  auto before = produce("shared", 200, "before");
  auto log_a = std::make_shared<group_log>();
  auto log_b = std::make_shared<group_log>();
  auto sink_a = sink(log_a);
  auto member_a = join_group(sys, node, sink_a, options("pair", "shared"));
  BOOST_REQUIRE(log_a->wait_until([](group_log& l) { return l.current.size() == 4u; }));
  auto sink_b = sink(log_b);
  auto member_b = join_group(sys, node, sink_b, options("pair", "shared"));
  // The rebalance: A revokes its 4, then each gets 2 of the same generation.
  auto split = [&] {
    return log_a->with([](group_log& a) { return a.current.size() == 2u; })
           && log_b->with([](group_log& b) { return b.current.size() == 2u; });
  };
  for (int i = 0; i < 600 && !split(); ++i)
    std::this_thread::sleep_for(50ms);
  BOOST_REQUIRE_MESSAGE(split(), "no 2/2 split");
  auto gen_a = log_a->with([](group_log& l) { return l.assigned.back().generation; });
  auto gen_b = log_b->with([](group_log& l) { return l.assigned.back().generation; });
  BOOST_TEST(gen_a == gen_b);
  BOOST_TEST(log_a->with([](group_log& l) { return l.revocations; }) >= 1u);
  std::set<topic_partition> both;
  for (auto* log : {log_a.get(), log_b.get()})
    log->with([&](group_log& l) { both.insert(l.current.begin(), l.current.end()); });
  BOOST_TEST(both.size() == 4u);

  auto during = produce("shared", 200, "during");
  auto everything = before;
  everything.insert(during.begin(), during.end());
  auto union_has_all = [&](const std::set<std::string>& want) {
    std::set<std::string> seen;
    for (auto* log : {log_a.get(), log_b.get()})
      log->with([&](group_log& l) { seen.insert(l.values.begin(), l.values.end()); });
    return std::includes(seen.begin(), seen.end(), want.begin(), want.end());
  };
  for (int i = 0; i < 600 && !union_has_all(everything); ++i)
    std::this_thread::sleep_for(50ms);
  BOOST_TEST(union_has_all(everything)); // at least once, across the rebalance

  // B stops (commit, leave): A gets all four again.
  stop_member(member_b);
  BOOST_TEST(log_b->with([](group_log& l) { return l.current.empty(); })); // revoked on stop
  BOOST_REQUIRE(log_a->wait_until([&](group_log& l) { return l.current.size() == 4u && l.assigned.back().generation > gen_a; }));
  auto after = produce("shared", 100, "after");
  BOOST_TEST(log_a->wait_until([&](group_log& l) { return has_all(l, after); }));
  BOOST_TEST(log_a->with([](group_log& l) { return l.errors.empty(); }));
  BOOST_TEST(log_b->with([](group_log& l) { return l.errors.empty(); }));
  stop_member(member_a);
  stop_actor(sys, sink_a);
  stop_actor(sys, sink_b);
}

BOOST_AUTO_TEST_CASE(a_new_member_continues_from_the_committed_offset) {
  create_topic(sys, node, "resume", 2);
  auto first = produce("resume", 100, "first");
  auto opts = options("resumers", "resume");
  opts.enable_auto_commit = false;
  {
    auto log = std::make_shared<group_log>();
    auto s = sink(log);
    auto member = join_group(sys, node, s, opts);
    BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, first); }));
    caf::scoped_actor self{sys};
    bool ok = false;
    self->request(member, 10s, commit_atom_v)
      .receive([&]() { ok = true; }, [&](caf::error& err) { BOOST_ERROR("commit: " << describe(err)); });
    BOOST_TEST(ok);
    BOOST_TEST(sum_offsets(committed("resumers")) == 100);
    stop_member(member);
    stop_actor(sys, s);
  }
  auto second = produce("resume", 50, "second");
  auto log = std::make_shared<group_log>();
  auto s = sink(log);
  auto member = join_group(sys, node, s, opts);
  BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, second); }));
  log->with([&](group_log& l) {
    for (auto& v : first)
      BOOST_TEST(l.values.count(v) == 0u, v << " delivered again");
    BOOST_TEST(l.values.size() == 50u);
  });
  // Explicit offsets are committed as given.
  caf::scoped_actor self{sys};
  bool ok = false;
  self->request(member, 10s, commit_atom_v, std::vector<group_offset>{{{"resume", 0}, 1, -1, {}}})
    .receive([&]() { ok = true; }, [&](caf::error& err) { BOOST_ERROR("commit: " << describe(err)); });
  BOOST_TEST(ok);
  auto offsets = committed("resumers");
  BOOST_REQUIRE(!offsets.empty());
  BOOST_TEST(offsets[0].offset == 1);
  stop_member(member);
  stop_actor(sys, s);
}

BOOST_AUTO_TEST_CASE(auto_commit_stores_what_was_consumed) {
  create_topic(sys, node, "auto", 3);
  auto values = produce("auto", 90, "auto");
  auto log = std::make_shared<group_log>();
  auto s = sink(log);
  auto member = join_group(sys, node, s, options("autos", "auto"));
  BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, values); }));
  // Every 200 ms; poll the group (bounded) until the consumed offsets are all there.
  int64_t sum = 0;
  for (int i = 0; i < 300 && sum != 90; ++i) {
    sum = sum_offsets(committed("autos"));
    if (sum != 90)
      std::this_thread::sleep_for(50ms);
  }
  BOOST_TEST(sum == 90);
  stop_actor(sys, s); // the member notices, commits and leaves by itself
}

BOOST_AUTO_TEST_CASE(at_most_once_commits_before_the_consumer_sees_a_batch) {
  create_topic(sys, node, "amo", 2);
  auto values = produce("amo", 60, "amo");
  auto opts = options("amos", "amo");
  opts.delivery = delivery_mode::at_most_once;
  opts.enable_auto_commit = false;
  auto log = std::make_shared<group_log>();
  auto s = sink(log, group_of("amos"));
  auto member = join_group(sys, node, s, opts);
  BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, values); }));
  log->with([](group_log& l) {
    BOOST_TEST(!l.commit_checks.empty());
    for (auto& [committed, next] : l.commit_checks)
      BOOST_TEST(committed == next); // stored before the handler ran
  });
  BOOST_TEST(sum_offsets(committed("amos")) == 60);
  stop_member(member);
  stop_actor(sys, s);
}

BOOST_AUTO_TEST_CASE(an_unnamed_group_is_the_default_group) {
  create_topic(sys, node, "plain", 1);
  auto log = std::make_shared<group_log>();
  auto s = sink(log);
  auto member = join_group(sys, node, s, options("", "plain"));
  BOOST_REQUIRE(log->wait_until([](group_log& l) { return l.current.size() == 1u; }));
  caf::scoped_actor self{sys};
  std::vector<std::string> groups;
  self->request(node, 10s, list_groups_atom_v).receive([&](std::vector<std::string>& g) { groups = g; },
                                                       [&](caf::error&) {});
  BOOST_TEST((std::find(groups.begin(), groups.end(), std::string{default_group_id}) != groups.end()));
  cluster::group_description d;
  self->request(group_of(default_group_id), 10s, describe_atom_v)
    .receive([&](cluster::group_description& x) { d = x; }, [&](caf::error&) {});
  BOOST_TEST(d.members.size() == 1u);
  BOOST_TEST(d.protocol_type == "consumer");
  BOOST_TEST(d.protocol == "range");
  stop_member(member);
  stop_actor(sys, s);
}

BOOST_AUTO_TEST_CASE(bad_options_are_a_consumer_error) {
  auto log = std::make_shared<group_log>();
  auto s = sink(log);
  auto opts = options("bad", "t");
  opts.assignor = "nope";
  auto member = join_group(sys, node, s, opts);
  BOOST_REQUIRE(log->wait_until([](group_log& l) { return !l.errors.empty(); }));
  log->with([](group_log& l) {
    BOOST_TEST((l.errors[0].error == caf::sec::invalid_argument));
    BOOST_TEST(describe(l.errors[0].error).find("unknown assignor 'nope'") != std::string::npos);
  });
  stop_actor(sys, s);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(group_consumer_restart)

// The node goes away and comes back on the same port with the same log: the member loses
// the group actor's proxy, revokes, backs off, reconnects through its node link, joins the
// reloaded group (as a new member) and resumes from the committed offsets.
BOOST_AUTO_TEST_CASE(a_member_survives_a_node_restart) {
  auto tweak = [](config::server_config& c) {
    c.group_initial_rebalance_delay_ms = 0;
    c.group_min_session_timeout_ms = 500;
  };
  temp_dir dir;
  auto srv = std::make_unique<server>(dir.path, 0, tweak);
  auto port = srv->port();
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", port, 10s);
  BOOST_REQUIRE_MESSAGE(node, "connect: " << why(node));
  create_topic(sys, *node, "re", 2);
  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(port);
  pc.request_timeout = 5s;
  pc.delivery_timeout = 60s;
  pc.retries = 50;
  auto produce = [&](const std::string& prefix) {
    producer p{sys, pc};
    std::set<std::string> values;
    for (int i = 0; i < 50; ++i) {
      auto value = prefix + "-" + std::to_string(i);
      auto off = p.send_sync("re", "k" + std::to_string(i), value);
      BOOST_REQUIRE_MESSAGE(off, "produce: " << why(off));
      values.insert(value);
    }
    return values;
  };
  auto committed_sum = [&]() -> int64_t {
    caf::scoped_actor self{sys};
    int64_t sum = -1;
    self->request(*node, 5s, group_coordinator_atom_v, std::string{"survivors"})
      .receive(
        [&](group_actor& g) {
          self->request(g, 5s, fetch_offsets_atom_v, group_offset_query{true, {}})
            .receive([&](std::vector<group_offset>& found) { sum = sum_offsets(found); }, [](caf::error&) {});
        },
        [](caf::error&) {});
    return sum;
  };
  auto before = produce("before");
  group_options opts;
  opts.group_id = "survivors";
  opts.topics = {"re"};
  opts.session_timeout = 2s;
  opts.heartbeat_interval = 200ms;
  opts.max_poll_interval = 5s;
  opts.auto_offset_reset = offset_reset::earliest;
  opts.auto_commit_interval = 200ms;
  opts.fetch.max_wait = 100ms;
  opts.fetch.request_timeout = 5s;
  opts.fetch.bootstrap = pc.bootstrap_servers;
  auto log = std::make_shared<group_log>();
  auto s = sys.spawn(group_sink, log, group_actor{});
  auto member = join_group(sys, *node, s, opts);
  BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, before); }));
  int64_t sum = 0;
  for (int i = 0; i < 300 && sum != 50; ++i) {
    sum = committed_sum();
    if (sum != 50)
      std::this_thread::sleep_for(50ms);
  }
  BOOST_REQUIRE(sum == 50);

  srv->stop();
  std::this_thread::sleep_for(300ms);
  srv = std::make_unique<server>(dir.path, port, tweak);
  BOOST_REQUIRE(log->wait_until([](group_log& l) { return l.assigned.size() >= 2u && l.current.size() == 2u; }));
  BOOST_TEST(log->with([](group_log& l) { return l.revocations; }) >= 1u);
  auto after = produce("after");
  BOOST_REQUIRE(log->wait_until([&](group_log& l) { return has_all(l, after); }));
  log->with([&](group_log& l) {
    for (auto& v : before)
      BOOST_TEST(l.values.count(v) == 1u, v); // the commits survived the restart
    BOOST_TEST(l.errors.empty());
  });
  stop_actor(sys, s); // the member leaves while the node is still there (cs goes first)
}

BOOST_AUTO_TEST_SUITE_END()
