// embedded_coordinator: sessions — ephemerals, expiry, connection loss and heal, close, and
// callbacks that call back into the coordinator.
#include "tests/cluster/fixtures.hpp"

using namespace cafka::test;

namespace {

watch_event ev(watch_event_type type, std::string path) {
  return {type, std::move(path)};
}

const watch_event session_event{watch_event_type::session, ""};

} // namespace

BOOST_FIXTURE_TEST_SUITE(embedded_coordinator_sessions, store_fixture)

BOOST_AUTO_TEST_CASE(connected_is_reported_on_open) {
  recorder r;
  auto c = open(r.on_state());
  BOOST_TEST(r.states == std::vector<session_state>{session_state::connected},
             boost::test_tools::per_element());
  BOOST_TEST((c->state() == session_state::connected));
  BOOST_TEST((store->state_of(c->session()) == session_state::connected));
  BOOST_TEST(!store->state_of(12345).has_value());
}

BOOST_AUTO_TEST_CASE(ephemerals_vanish_on_close) {
  auto a = open();
  auto b = open();
  recorder r;
  BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(create(*a, "/persistent"));
  BOOST_TEST(get(*b, "/eph")->stat.ephemeral_owner == a->session());
  BOOST_REQUIRE(exists(*b, "/eph", r.watch()));
  a->close();
  BOOST_TEST(r.events == std::vector<watch_event>{ev(watch_event_type::deleted, "/eph")},
             boost::test_tools::per_element());
  BOOST_TEST(!exists(*b, "/eph")->has_value());
  BOOST_TEST(exists(*b, "/persistent")->has_value());
  BOOST_TEST((a->state() == session_state::closed));
  BOOST_TEST(create(*a, "/after").error() == errc::closed);
  a->close(); // idempotent
}

BOOST_AUTO_TEST_CASE(destroying_the_coordinator_closes_the_session) {
  auto b = open();
  {
    auto a = open();
    BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  }
  BOOST_TEST(!exists(*b, "/eph")->has_value());
}

BOOST_AUTO_TEST_CASE(expiry_deletes_ephemerals_and_ends_the_session) {
  recorder a_log, b_log;
  auto a = open(a_log.on_state());
  auto b = open();
  BOOST_REQUIRE(create(*a, "/brokers"));
  BOOST_REQUIRE(create(*a, "/brokers/1", "", create_mode::ephemeral));
  BOOST_REQUIRE(children(*b, "/brokers", b_log.watch()));
  BOOST_REQUIRE(get(*a, "/brokers", a_log.watch()));

  BOOST_TEST(store->expire_session(a->session()));
  BOOST_TEST(a_log.states == (std::vector<session_state>{session_state::connected,
                                                          session_state::expired}),
             boost::test_tools::per_element());
  // a's own watch can never fire now: it is told so, once.
  BOOST_TEST(a_log.events == std::vector<watch_event>{session_event},
             boost::test_tools::per_element());
  BOOST_TEST(b_log.events
               == std::vector<watch_event>{ev(watch_event_type::children_changed, "/brokers")},
             boost::test_tools::per_element());
  BOOST_TEST(children(*b, "/brokers")->empty());
  BOOST_TEST(exists(*b, "/brokers")->has_value()); // persistent nodes stay

  // The expired session refuses every call; the owner opens a new session.
  BOOST_TEST((a->state() == session_state::expired));
  BOOST_TEST(create(*a, "/brokers/1").error() == errc::session_expired);
  BOOST_TEST(get(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(exists(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(children(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(set(*a, "/brokers", "").error() == errc::session_expired);
  BOOST_TEST(remove(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(needs_new_session(create(*a, "/x").error()));
  BOOST_TEST(!store->expire_session(a->session()));
  BOOST_TEST(!store->disconnect_session(a->session()));

  auto again = open();
  BOOST_TEST(*create(*again, "/brokers/1", "", create_mode::ephemeral) == "/brokers/1");
  a->close(); // closing an expired session deletes nothing more
  BOOST_TEST(exists(*b, "/brokers/1")->has_value());
}

BOOST_AUTO_TEST_CASE(connection_loss_and_heal) {
  recorder a_log;
  auto a = open(a_log.on_state());
  auto b = open();
  BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(create(*b, "/watched"));
  BOOST_REQUIRE(get(*a, "/watched", a_log.watch()));

  BOOST_TEST(store->disconnect_session(a->session()));
  BOOST_TEST(!store->disconnect_session(a->session()));
  BOOST_TEST((a->state() == session_state::disconnected));
  BOOST_TEST(create(*a, "/new").error() == errc::connection_loss);
  BOOST_TEST(is_retriable(get(*a, "/eph").error()));
  BOOST_TEST(!exists(*b, "/new")->has_value()); // a failed call takes no effect here
  BOOST_TEST(exists(*b, "/eph")->has_value());  // ephemerals survive a connection loss

  BOOST_REQUIRE(set(*b, "/watched", "while a is away"));
  BOOST_TEST(a_log.events.empty()); // held until a reconnects
  BOOST_TEST(store->watch_count() == 1u);

  BOOST_TEST(store->reconnect_session(a->session()));
  BOOST_TEST(!store->reconnect_session(a->session()));
  BOOST_TEST(a_log.states == (std::vector<session_state>{session_state::connected,
                                                          session_state::disconnected,
                                                          session_state::connected}),
             boost::test_tools::per_element());
  BOOST_TEST(a_log.events == std::vector<watch_event>{ev(watch_event_type::changed, "/watched")},
             boost::test_tools::per_element());
  BOOST_TEST(get(*a, "/eph").has_value());
}

BOOST_AUTO_TEST_CASE(reconnect_reports_connected_before_the_held_events) {
  std::vector<std::string> order;
  auto a = open([&](session_state s) { order.push_back(to_string(s)); });
  auto b = open();
  BOOST_REQUIRE(exists(*a, "/x", [&](const watch_event& e) { order.push_back(to_string(e.type)); }));
  store->disconnect_session(a->session());
  BOOST_REQUIRE(create(*b, "/x"));
  store->reconnect_session(a->session());
  BOOST_TEST(order == (std::vector<std::string>{"connected", "disconnected", "connected", "created"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(expiry_while_disconnected) {
  recorder a_log;
  auto a = open(a_log.on_state());
  auto b = open();
  BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(exists(*a, "/x", a_log.watch()));
  BOOST_REQUIRE(exists(*a, "/y", a_log.watch()));
  store->disconnect_session(a->session());
  BOOST_REQUIRE(create(*b, "/x")); // held for a
  BOOST_TEST(store->expire_session(a->session()));
  // Both the held and the armed watch learn that they will never fire.
  BOOST_TEST(a_log.events == (std::vector<watch_event>{session_event, session_event}),
             boost::test_tools::per_element());
  BOOST_TEST(!exists(*b, "/eph")->has_value());
  BOOST_TEST(!store->reconnect_session(a->session()));
  BOOST_TEST(store->watch_count() == 0u);
}

BOOST_AUTO_TEST_CASE(close_drops_watches_uncalled) {
  recorder r;
  auto a = open(r.on_state());
  auto b = open();
  BOOST_REQUIRE(exists(*a, "/x", r.watch()));
  BOOST_REQUIRE(exists(*a, "/y", r.watch()));
  store->disconnect_session(a->session());
  BOOST_REQUIRE(create(*b, "/x")); // held
  a->close();
  BOOST_TEST(store->watch_count() == 0u);
  BOOST_REQUIRE(create(*b, "/y"));
  BOOST_TEST(r.events.empty());
  BOOST_TEST(!store->reconnect_session(a->session()));
  BOOST_TEST(!store->expire_session(a->session()));
  BOOST_TEST(r.states.size() == 2u); // connected, disconnected; nothing after close
}

BOOST_AUTO_TEST_CASE(queued_callbacks_of_a_session_closed_meanwhile_are_skipped) {
  auto a = open();
  auto b = open();
  auto writer = open();
  int b_calls = 0;
  // a's watch runs first and closes b (another session: allowed); b's watch was already queued.
  BOOST_REQUIRE(exists(*a, "/x", [&](const watch_event&) { b->close(); }));
  BOOST_REQUIRE(exists(*b, "/x", [&](const watch_event&) { ++b_calls; }));
  BOOST_REQUIRE(create(*writer, "/x"));
  BOOST_TEST(b_calls == 0);
}

BOOST_AUTO_TEST_CASE(callback_may_call_back_into_the_coordinator) {
  auto c = open();
  auto writer = open();
  BOOST_REQUIRE(create(*c, "/cfg", "0"));
  // A watcher that re-arms itself from inside its own callback, as a cluster actor would.
  std::vector<std::string> seen;
  std::function<void(const watch_event&)> rearm = [&](const watch_event&) {
    c->get("/cfg", rearm, [&](result<node_data> r) {
      if (r)
        seen.push_back(r->data);
    });
  };
  c->get("/cfg", rearm, {});
  for (auto v : {"1", "2", "3"})
    BOOST_REQUIRE(set(*writer, "/cfg", v));
  BOOST_TEST(seen == (std::vector<std::string>{"1", "2", "3"}), boost::test_tools::per_element());
  BOOST_TEST(store->watch_count() == 1u);
}

BOOST_AUTO_TEST_CASE(calls_from_callbacks_complete_in_call_order) {
  auto c = open();
  std::vector<std::string> order;
  BOOST_REQUIRE(create(*c, "/o"));
  BOOST_REQUIRE(get(*c, "/o", [&](const watch_event&) {
    order.push_back("watch");
    c->get("/o", {}, [&](result<node_data>) { order.push_back("get from watch done"); });
    order.push_back("watch returns");
  }));
  c->set("/o", "x", any_version, [&](result<node_stat>) {
    order.push_back("set done");
    c->create("/o/child", "", create_mode::persistent,
              [&](result<std::string> r) { order.push_back(r ? "create from set done" : "?"); });
  });
  // Nothing nests: a call made in a callback completes after the callbacks queued before it.
  BOOST_TEST(order == (std::vector<std::string>{"watch", "watch returns", "set done",
                                                 "get from watch done", "create from set done"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(session_callback_may_recreate_ephemerals_on_reconnect) {
  std::unique_ptr<embedded_coordinator> a;
  int recreated = 0;
  a = open([&](session_state s) {
    if (s == session_state::connected && a) // a is unset during the first, synchronous report
      a->create("/eph", "", create_mode::ephemeral, [&](result<std::string> r) {
        if (r || r.error() == errc::node_exists)
          ++recreated;
      });
  });
  store->disconnect_session(a->session());
  store->reconnect_session(a->session());
  BOOST_TEST(recreated == 1);
  BOOST_TEST(exists(*a, "/eph")->has_value());
}

BOOST_AUTO_TEST_SUITE_END()
