// The node goes away (its whole actor system is destroyed, which drops the connection)
// and comes back on the same port with the same log: producers retry, subscriptions
// resume from their next offset, connect() does not return the dead proxy.

#include <future>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/connect.hpp"
#include "client/partitioner.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(reconnect)

BOOST_AUTO_TEST_CASE(producer_and_subscriptions_survive_a_node_restart) {
  temp_dir dir;
  auto srv = std::make_unique<server>(dir.path);
  auto port = srv->port();
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", port, 10s);
  BOOST_REQUIRE_MESSAGE(node, "connect: " << why(node));
  create_topic(sys, *node, "re", 2);
  auto key_of = [](int i) { return "key-" + std::to_string(i % 13); };
  auto value_of = [](int i) { return "value-" + std::to_string(i); };

  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(port);
  pc.request_timeout = 5s;
  pc.delivery_timeout = 60s;
  pc.retries = 50;
  producer p{sys, pc};
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  // Partition 0 is told where to reconnect; partition 1 finds out from the middleman
  // where the connection of `node` goes.
  fetch_options opts;
  opts.request_timeout = 5s;
  std::vector<subscription> subs;
  for (int32_t part = 0; part < 2; ++part) {
    opts.bootstrap = part == 0 ? pc.bootstrap_servers : std::string{};
    subs.push_back(subscribe(sys, *node, sink, topic_partition{"re", part}, start_position::earliest(), opts));
  }

  for (int i = 0; i < 100; ++i)
    p.send("re", key_of(i), value_of(i));
  BOOST_TEST(!p.flush());
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 100u; }));

  // The node goes away; records sent meanwhile wait, and are sent after the restart.
  srv->stop();
  std::vector<producer::result_future> futs;
  for (int i = 100; i < 200; ++i)
    futs.push_back(p.send("re", key_of(i), value_of(i)));
  std::this_thread::sleep_for(300ms);
  srv = std::make_unique<server>(dir.path, port);
  for (auto& f : futs) {
    BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
    auto md = f.get();
    BOOST_REQUIRE_MESSAGE(md, "send after restart: " << why(md));
  }
  // And after the restart, as usual.
  for (int i = 200; i < 300; ++i)
    p.send("re", key_of(i), value_of(i));
  BOOST_TEST(!p.flush());
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 300u; }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->records == 300u); // nothing twice
    BOOST_TEST(log->errors.empty());
    for (int32_t part = 0; part < 2; ++part) {
      std::vector<std::string> expected;
      for (int i = 0; i < 300; ++i)
        if (partition_for_key(key_of(i), 2) == part)
          expected.push_back(value_of(i));
      auto& got = log->by_partition[part];
      BOOST_REQUIRE(got.size() == expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        BOOST_REQUIRE(got[i].offset == static_cast<int64_t>(i));
        BOOST_REQUIRE(*got[i].value == expected[i]);
      }
    }
  }

  // connect() right after a restart returns a live node actor, not the dead proxy.
  srv->stop();
  srv = std::make_unique<server>(dir.path, port);
  auto again = connect(sys, "127.0.0.1", port, 10s);
  BOOST_REQUIRE_MESSAGE(again, "connect after restart: " << why(again));
  caf::scoped_actor self{sys};
  std::vector<std::string> topics;
  self->request(*again, 5s, list_topics_atom_v)
    .receive([&](std::vector<std::string>& names) { topics = names; },
             [](caf::error& err) { BOOST_ERROR("list_topics: " << describe(err)); });
  BOOST_TEST((topics == std::vector<std::string>{"re"}));

  for (auto& s : subs)
    stop(s);
  stop_actor(sys, sink);
  p.close();
}

// connect() while the node is restarting: the middleman may still hold the proxy of the
// lost connection; connect() must wait for a live one.
BOOST_AUTO_TEST_CASE(connect_during_restarts_never_returns_a_dead_proxy) {
  temp_dir dir;
  auto srv = std::make_unique<server>(dir.path);
  auto port = srv->port();
  client_system cs;
  auto& sys = cs.sys();
  {
    auto node = connect(sys, "127.0.0.1", port, 10s);
    BOOST_REQUIRE(node);
    create_topic(sys, *node, "r", 1);
  }
  for (int round = 0; round < 5; ++round) {
    srv->stop();
    // Ask at once, while the old connection may not even be noticed as lost yet.
    auto pending = std::async(std::launch::async, [&] { return connect(sys, "127.0.0.1", port, 20s); });
    std::this_thread::sleep_for(std::chrono::milliseconds(50 * round));
    srv = std::make_unique<server>(dir.path, port);
    BOOST_REQUIRE(pending.wait_for(30s) == std::future_status::ready);
    auto node = pending.get();
    BOOST_REQUIRE_MESSAGE(node, "round " << round << ": " << why(node));
    caf::scoped_actor self{sys};
    bool ok = false;
    self->request(*node, 5s, list_topics_atom_v)
      .receive([&](std::vector<std::string>& names) { ok = names == std::vector<std::string>{"r"}; },
               [&](caf::error& err) { BOOST_ERROR("round " << round << ": list_topics: " << describe(err)); });
    BOOST_TEST(ok);
  }
}

BOOST_AUTO_TEST_CASE(a_subscription_gives_up_after_retry_timeout) {
  temp_dir dir;
  auto srv = std::make_unique<server>(dir.path);
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", srv->port(), 10s);
  BOOST_REQUIRE(node);
  create_topic(sys, *node, "gone", 1);
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  fetch_options opts;
  opts.request_timeout = 300ms;
  opts.retry_timeout = 1s;
  auto sub = subscribe(sys, *node, sink, topic_partition{"gone", 0}, start_position::earliest(), opts);
  caf::scoped_actor self{sys};
  int64_t pos = -1;
  for (int i = 0; i < 500 && pos < 0; ++i) {
    self->request(sub, 5s, caf::get_atom_v).receive([&](int64_t p) { pos = p; }, [](caf::error&) {});
    if (pos < 0)
      std::this_thread::sleep_for(10ms);
  }
  BOOST_REQUIRE(pos == 0);
  srv->stop(); // and never comes back
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return !l.errors.empty(); }, 30s));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    auto e = to_kafka_error(log->errors[0].error);
    BOOST_TEST_INFO("error: " << describe(log->errors[0].error));
    BOOST_TEST((e == kafka_error::network_exception || e == kafka_error::request_timed_out
                || e == kafka_error::leader_not_available));
  }
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_SUITE_END()
