// zookeeper_coordinator against a real ZooKeeper server: what the contract tests cannot show
// with the embedded store — session ids and states, a chroot, session expiry forced by taking
// the session over from a second handle, and connection loss while the server is stopped and
// started again. Everything the C client reports arrives on its completion thread; the tests
// wait for it with bounded waits (async_fixtures.hpp).
#include "tests/cluster/async_fixtures.hpp"

#include "cluster/renewing_session.hpp"

#include <algorithm>
#include <atomic>

using namespace cafka::test::async;
namespace tt = boost::test_tools;

namespace {

watch_event ev(watch_event_type type, std::string path) {
  return {type, std::move(path)};
}

const watch_event session_event{watch_event_type::session, ""};

} // namespace

BOOST_AUTO_TEST_SUITE(zookeeper_coordinator_sessions)

BOOST_AUTO_TEST_CASE(error_codes_map_onto_errc) {
  // The values of ZooKeeper's ZOO_ERRORS enum (zookeeper.h), spelled out so this file stays
  // free of the C client's header.
  BOOST_TEST(!zookeeper_error(0));
  BOOST_TEST(zookeeper_error(-101) == errc::no_node);
  BOOST_TEST(zookeeper_error(-110) == errc::node_exists);
  BOOST_TEST(zookeeper_error(-103) == errc::bad_version);
  BOOST_TEST(zookeeper_error(-111) == errc::not_empty);
  BOOST_TEST(zookeeper_error(-108) == errc::no_children_for_ephemerals);
  BOOST_TEST(zookeeper_error(-4) == errc::connection_loss);
  BOOST_TEST(zookeeper_error(-7) == errc::connection_loss); // operation timeout
  BOOST_TEST(zookeeper_error(-112) == errc::session_expired);
  BOOST_TEST(zookeeper_error(-9) == errc::session_expired); // invalid state: expired handle
  BOOST_TEST(zookeeper_error(-8) == errc::invalid_path);
  BOOST_TEST(zookeeper_error(-116) == errc::closed);
  auto no_auth = zookeeper_error(-102);
  BOOST_TEST((no_auth.category() == zookeeper_category()));
  BOOST_TEST(no_auth.message() == "not authenticated");
}

BOOST_AUTO_TEST_CASE(states_ids_and_close) {
  auto connect = fresh_chroot();
  event_log log;
  auto c = open_zookeeper(connect, log.on_state());
  BOOST_TEST((c->state() == session_state::connected));
  BOOST_TEST(log.states() == std::vector<session_state>{session_state::connected},
             tt::per_element());
  BOOST_TEST(c->session() != 0);
  BOOST_TEST(c->session_password().size() == 16u);
  auto other = open_zookeeper(connect);
  BOOST_TEST(other->session() != c->session());

  // A call the C client refuses at once completes before the call returns.
  bool refused = false;
  c->create("no-slash", "", create_mode::persistent, [&](result<std::string> r) {
    refused = r.error() == errc::invalid_path;
  });
  BOOST_TEST(refused);

  c->close();
  BOOST_TEST((c->state() == session_state::closed));
  BOOST_TEST(get(*c, "/").error() == errc::closed);
  BOOST_TEST(log.states().size() == 1u); // close is not reported
}

BOOST_AUTO_TEST_CASE(close_drops_pending_callbacks_and_watches) {
  auto connect = fresh_chroot();
  event_log r;
  std::atomic<int> completions{0};
  auto writer = open_zookeeper(connect);
  auto c = open_zookeeper(connect);
  BOOST_REQUIRE(create(*c, "/x"));
  BOOST_REQUIRE(exists(*c, "/y", r.watch()));
  for (int i = 0; i < 200; ++i)
    c->get("/x", r.watch(), [&](result<node_data>) { ++completions; });
  c->close();
  auto after_close = completions.load();
  BOOST_TEST(after_close <= 200);
  // Nothing of c's runs any more, even when its watches would fire.
  BOOST_REQUIRE(create(*writer, "/y"));
  BOOST_REQUIRE(set(*writer, "/x", "changed"));
  BOOST_REQUIRE(get(*writer, "/x"));
  BOOST_TEST(completions.load() == after_close);
  BOOST_TEST(r.events().empty());
}

BOOST_AUTO_TEST_CASE(calls_before_the_session_is_connected_fail_with_connection_loss) {
  // Nothing listens on port 1: the session never connects.
  zookeeper_coordinator c{"127.0.0.1:1", std::chrono::seconds(2)};
  BOOST_TEST((c.state() == session_state::disconnected));
  BOOST_TEST(c.session() == 0);
  BOOST_TEST(create(c, "/x").error() == errc::connection_loss);
  BOOST_TEST(zookeeper_coordinator::ensure_chroot("127.0.0.1:1/x", std::chrono::milliseconds(500))
               .error()
             == errc::connection_loss);
}

BOOST_AUTO_TEST_CASE(chroot_is_created_and_used) {
  auto& zk = shared_zookeeper();
  BOOST_TEST(!zookeeper_coordinator::ensure_chroot(zk.hosts(), wait_limit).error()); // no chroot
  BOOST_TEST(zookeeper_coordinator::ensure_chroot(zk.hosts() + "/a//b", wait_limit).error()
             == errc::invalid_path);
  auto connect = zk.hosts() + "/cafka/deep";
  BOOST_REQUIRE(zookeeper_coordinator::ensure_chroot(connect, wait_limit));
  BOOST_REQUIRE(zookeeper_coordinator::ensure_chroot(connect, wait_limit)); // idempotent

  event_log r;
  auto rooted = open_zookeeper(connect);
  auto plain = open_zookeeper(zk.hosts());
  BOOST_TEST(*create(*rooted, "/x", "in chroot") == "/x");
  BOOST_TEST(get(*plain, "/cafka/deep/x")->data == "in chroot");
  BOOST_TEST(*children(*rooted, "/") == std::vector<std::string>{"x"}, tt::per_element());
  BOOST_REQUIRE(exists(*rooted, "/y", r.watch()));
  BOOST_REQUIRE(create(*plain, "/cafka/deep/y"));
  BOOST_REQUIRE(r.wait_events(1));
  BOOST_TEST(r.events() == std::vector<watch_event>{ev(watch_event_type::created, "/y")},
             tt::per_element());
  BOOST_TEST(*create(*rooted, "/s-", "", create_mode::sequential) == "/s-0000000002");
}

BOOST_AUTO_TEST_CASE(a_delete_counts_in_the_parents_cversion) {
  // As in the embedded store. (The sequential name created right after a delete was observed
  // one lower than the cversion with ZooKeeper 3.8.0, so no test relies on that name.)
  auto c = open_zookeeper(fresh_chroot());
  BOOST_REQUIRE(create(*c, "/p"));
  BOOST_REQUIRE(create(*c, "/p/x"));
  BOOST_REQUIRE(!remove(*c, "/p/x").error());
  BOOST_TEST((*exists(*c, "/p"))->cversion == 2);
}

BOOST_AUTO_TEST_CASE(expiry_deletes_ephemerals_and_ends_the_session) {
  auto connect = fresh_chroot();
  event_log a_log, b_log;
  auto a = open_zookeeper(connect, a_log.on_state());
  auto b = open_zookeeper(connect);
  BOOST_REQUIRE(create(*a, "/brokers"));
  BOOST_REQUIRE(create(*a, "/brokers/1", "", create_mode::ephemeral));
  BOOST_REQUIRE(children(*b, "/brokers", b_log.watch()));
  BOOST_REQUIRE(get(*a, "/brokers", a_log.watch()));

  BOOST_REQUIRE(force_session_expiry(shared_zookeeper().hosts(), a->session(),
                                     a->session_password()));
  BOOST_REQUIRE(a_log.wait_state(session_state::expired));
  BOOST_TEST((a->state() == session_state::expired));
  // a's own watch can never fire now: it is told so, once.
  BOOST_REQUIRE(a_log.wait_events(1));
  BOOST_TEST(a_log.events() == std::vector<watch_event>{session_event}, tt::per_element());
  BOOST_REQUIRE(b_log.wait_events(1));
  BOOST_TEST(b_log.events()
               == std::vector<watch_event>{ev(watch_event_type::children_changed, "/brokers")},
             tt::per_element());
  BOOST_TEST(children(*b, "/brokers")->empty());

  // The expired session refuses every call; the owner opens a new session.
  BOOST_TEST(create(*a, "/brokers/1").error() == errc::session_expired);
  BOOST_TEST(get(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(exists(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(children(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(set(*a, "/brokers", "").error() == errc::session_expired);
  BOOST_TEST(remove(*a, "/brokers").error() == errc::session_expired);
  BOOST_TEST(needs_new_session(create(*a, "/x").error()));

  auto again = open_zookeeper(connect);
  BOOST_TEST(*create(*again, "/brokers/1", "", create_mode::ephemeral) == "/brokers/1");
  a->close(); // closing an expired session deletes nothing more
  BOOST_TEST(exists(*b, "/brokers/1")->has_value());
  auto states = a_log.states();
  BOOST_TEST((states.front() == session_state::connected));
  BOOST_TEST((states.back() == session_state::expired));
}

BOOST_AUTO_TEST_SUITE_END()

// Its own server: this suite stops and restarts it.
BOOST_AUTO_TEST_SUITE(zookeeper_coordinator_connection_loss)

BOOST_AUTO_TEST_CASE(session_survives_a_server_restart_shorter_than_its_timeout) {
  cafka::test::zookeeper_server zk;
  event_log a_log;
  // The timeout must outlast a JVM restart on a busy machine; the server allows up to 60 s.
  auto a = open_zookeeper(zk.hosts(), a_log.on_state(), std::chrono::seconds(40));
  auto id = a->session();
  BOOST_REQUIRE(create(*a, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(create(*a, "/watched"));
  BOOST_REQUIRE(get(*a, "/watched", a_log.watch()));

  zk.stop();
  BOOST_REQUIRE(a_log.wait_state(session_state::disconnected));
  BOOST_TEST((a->state() == session_state::disconnected));
  BOOST_TEST(create(*a, "/new").error() == errc::connection_loss);
  BOOST_TEST(is_retriable(get(*a, "/eph").error()));

  zk.start();
  BOOST_REQUIRE(a_log.wait_state(session_state::connected));
  BOOST_TEST(a->session() == id);
  auto states = a_log.states();
  BOOST_TEST(states.size() >= 3u);
  BOOST_TEST((states.front() == session_state::connected));
  BOOST_TEST(std::count(states.begin(), states.end(), session_state::expired) == 0);
  BOOST_TEST(get(*a, "/eph")->stat.ephemeral_owner == id); // ephemerals survive
  BOOST_TEST(!exists(*a, "/new")->has_value());            // the refused call took no effect

  // The watch armed before the loss still fires, once.
  auto b = open_zookeeper(zk.hosts());
  BOOST_REQUIRE(set(*b, "/watched", "after the restart"));
  BOOST_REQUIRE(a_log.wait_events(1));
  BOOST_TEST(get(*a, "/watched")->data == "after the restart");
  BOOST_TEST(a_log.events() == std::vector<watch_event>{ev(watch_event_type::changed, "/watched")},
             tt::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

// renewing_session (cluster/renewing_session.hpp) over real ZooKeeper sessions, as cafka-server
// uses it: after a forced expiry a new session is opened on the completion thread, connects,
// and the listener is told; ephemerals are created again by the holder.
BOOST_AUTO_TEST_SUITE(renewing_zookeeper_session)

BOOST_AUTO_TEST_CASE(an_expired_session_is_replaced_by_a_connected_one) {
  auto connect = fresh_chroot();
  std::mutex m;
  std::vector<zookeeper_coordinator*> opened; // to learn the password of the current one
  latch first_connected, renewed, lost;
  renewing_session s{[&](session_callback cb) -> std::shared_ptr<coordinator> {
    auto c = std::make_shared<zookeeper_coordinator>(connect, std::chrono::seconds(10), std::move(cb));
    std::lock_guard<std::mutex> guard{m};
    opened.push_back(c.get());
    return c;
  }, [&](session_state st) {
    if (st == session_state::connected)
      first_connected.set();
  }};
  std::atomic<session_id> renewed_id{0};
  s.set_listener({[&] { lost.set(); }, [&](session_id id) {
                    renewed_id = id;
                    renewed.set();
                  }});
  BOOST_REQUIRE(first_connected.wait());
  auto first = s.session();
  BOOST_REQUIRE(first != 0);
  BOOST_REQUIRE(create(s, "/eph", "", create_mode::ephemeral));
  std::string password;
  {
    std::lock_guard<std::mutex> guard{m};
    BOOST_REQUIRE(opened.size() == 1u);
    password = opened[0]->session_password();
  }
  BOOST_REQUIRE(force_session_expiry(shared_zookeeper().hosts(), first, password));
  BOOST_REQUIRE(lost.wait());
  BOOST_REQUIRE(renewed.wait());
  BOOST_TEST(renewed_id.load() == s.session());
  BOOST_TEST(s.session() != first);
  BOOST_TEST(s.renewals() == 1);
  BOOST_TEST((s.state() == session_state::connected));
  BOOST_TEST(!exists(s, "/eph")->has_value()); // it went with the old session
  BOOST_REQUIRE(create(s, "/eph", "", create_mode::ephemeral));
  BOOST_TEST(get(s, "/eph")->stat.ephemeral_owner == s.session());
  s.close(); // closes the retired session too (from this thread, not from a callback)
  BOOST_TEST((s.state() == session_state::closed));
}

BOOST_AUTO_TEST_SUITE_END()
