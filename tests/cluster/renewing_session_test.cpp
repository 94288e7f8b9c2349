// renewing_session over sessions of one embedded_store: an expired inner session is replaced
// (noticed through the state callback, a watch's session event, a failed completion or the
// next call), listeners are told lost/renewed once per expiry, calls go to the new session,
// the dead session's session_expired reaches the holder as connection_loss, and a failing
// factory leaves the outer session expired for good.
#include "tests/cluster/fixtures.hpp"

#include "cluster/renewing_session.hpp"

using namespace cafka::test;

namespace {

struct renewing_fixture : store_fixture {
  int opened = 0;
  bool pass_callback = true; ///< false: the factory ignores the state callback
  bool fail_next = false;
  std::vector<session_id> renewed;
  int lost = 0;

  renewing_session::factory factory() {
    return [this](session_callback cb) -> std::shared_ptr<coordinator> {
      if (fail_next)
        return nullptr;
      ++opened;
      return std::make_shared<embedded_coordinator>(store, pass_callback ? std::move(cb) : session_callback{});
    };
  }

  std::unique_ptr<renewing_session> make(session_callback on_state = {}) {
    auto s = std::make_unique<renewing_session>(factory(), std::move(on_state));
    s->set_listener({[this] { ++lost; }, [this](session_id id) { renewed.push_back(id); }});
    return s;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(renewing_session_suite, renewing_fixture)

BOOST_AUTO_TEST_CASE(expiry_opens_a_new_session_and_tells_the_listener) {
  recorder outer;
  auto s = make(outer.on_state());
  auto first = s->session();
  BOOST_TEST(first != 0);
  BOOST_TEST((s->state() == session_state::connected));
  BOOST_REQUIRE(create(*s, "/eph", "x", create_mode::ephemeral));
  BOOST_REQUIRE(store->expire_session(first));
  BOOST_TEST(opened == 2);
  BOOST_TEST(lost == 1);
  BOOST_TEST(s->renewals() == 1);
  auto second = s->session();
  BOOST_TEST(second != first);
  BOOST_TEST(renewed == std::vector<session_id>{second}, boost::test_tools::per_element());
  BOOST_TEST((s->state() == session_state::connected));
  BOOST_TEST((store->state_of(first) == session_state::expired));
  // The old ephemeral went with its session; the holder re-creates it in the new one.
  BOOST_TEST(!exists(*s, "/eph")->has_value());
  BOOST_REQUIRE(create(*s, "/eph", "x", create_mode::ephemeral));
  BOOST_TEST(get(*s, "/eph")->stat.ephemeral_owner == second);
  // The outer session never reported expired.
  for (auto st : outer.states)
    BOOST_TEST((st != session_state::expired));
}

BOOST_AUTO_TEST_CASE(watches_of_the_dead_session_get_the_session_event_and_rearm_on_the_new_one) {
  auto s = make();
  auto other = open();
  BOOST_REQUIRE(create(*s, "/brokers"));
  recorder w;
  BOOST_REQUIRE(children(*s, "/brokers", w.watch()));
  BOOST_REQUIRE(store->expire_session(s->session()));
  BOOST_TEST(w.events == (std::vector<watch_event>{{watch_event_type::session, ""}}),
             boost::test_tools::per_element());
  BOOST_REQUIRE(children(*s, "/brokers", w.watch())); // armed in the new session
  BOOST_REQUIRE(create(*other, "/brokers/1"));
  BOOST_REQUIRE(w.events.size() == 2u);
  BOOST_TEST(w.events[1] == (watch_event{watch_event_type::children_changed, "/brokers"}));
}

BOOST_AUTO_TEST_CASE(without_the_state_callback_a_watch_notices_the_expiry) {
  pass_callback = false; // as node_options::open_session: a factory that cannot pass it on
  auto s = make();
  auto first = s->session();
  BOOST_REQUIRE(create(*s, "/a"));
  recorder w;
  BOOST_REQUIRE(exists(*s, "/a", w.watch()));
  BOOST_REQUIRE(store->expire_session(first));
  BOOST_TEST(opened == 2);
  BOOST_TEST(lost == 1);
  BOOST_TEST(renewed.size() == 1u);
  BOOST_TEST(s->session() != first);
}

BOOST_AUTO_TEST_CASE(without_callback_or_watch_the_next_call_notices_the_expiry) {
  pass_callback = false;
  auto s = make();
  auto first = s->session();
  BOOST_REQUIRE(store->expire_session(first));
  BOOST_TEST(opened == 1); // nothing told us yet
  BOOST_TEST((s->state() == session_state::disconnected));
  BOOST_TEST(static_cast<bool>(create(*s, "/after"))); // renewed first, then served by the new session
  BOOST_TEST(opened == 2);
  BOOST_TEST(renewed.size() == 1u);
  BOOST_TEST(s->session() != first);
}

BOOST_AUTO_TEST_CASE(a_second_expiry_is_renewed_again_once) {
  auto s = make();
  BOOST_REQUIRE(store->expire_session(s->session()));
  auto second = s->session();
  BOOST_REQUIRE(store->expire_session(second));
  BOOST_TEST(opened == 3);
  BOOST_TEST(lost == 2);
  BOOST_TEST(renewed.size() == 2u);
  BOOST_TEST(s->renewals() == 2);
  BOOST_TEST(!store->expire_session(second)); // already dead: nothing happens
  BOOST_TEST(opened == 3);
}

BOOST_AUTO_TEST_CASE(connection_loss_is_not_an_expiry) {
  recorder outer;
  auto s = make(outer.on_state());
  auto id = s->session();
  BOOST_REQUIRE(store->disconnect_session(id));
  BOOST_TEST(create(*s, "/x").error() == errc::connection_loss);
  BOOST_TEST((s->state() == session_state::disconnected));
  BOOST_REQUIRE(store->reconnect_session(id));
  BOOST_TEST(static_cast<bool>(create(*s, "/x")));
  BOOST_TEST(opened == 1);
  BOOST_TEST(lost == 0);
  BOOST_TEST(renewed.empty());
  BOOST_TEST(s->session() == id);
  BOOST_TEST(outer.states
               == (std::vector<session_state>{session_state::connected, session_state::disconnected,
                                              session_state::connected}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_listener_set_after_a_renewal_hears_of_it_at_once) {
  auto s = std::make_unique<renewing_session>(factory());
  BOOST_REQUIRE(store->expire_session(s->session()));
  std::vector<session_id> late;
  s->set_listener({{}, [&](session_id id) { late.push_back(id); }});
  BOOST_TEST(late == std::vector<session_id>{s->session()}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_failing_factory_leaves_the_session_expired) {
  recorder outer;
  auto s = make(outer.on_state());
  fail_next = true;
  BOOST_REQUIRE(store->expire_session(s->session()));
  BOOST_TEST((s->state() == session_state::expired));
  BOOST_TEST(create(*s, "/x").error() == errc::session_expired);
  BOOST_TEST(renewed.empty());
  BOOST_REQUIRE(!outer.states.empty());
  BOOST_TEST((outer.states.back() == session_state::expired));
}

BOOST_AUTO_TEST_CASE(close_closes_the_current_session_and_later_calls_fail_closed) {
  auto s = make();
  auto other = open();
  BOOST_REQUIRE(create(*s, "/eph", "", create_mode::ephemeral));
  BOOST_REQUIRE(store->expire_session(s->session()));
  BOOST_REQUIRE(create(*s, "/eph", "", create_mode::ephemeral));
  auto id = s->session();
  s->close();
  BOOST_TEST((store->state_of(id) == session_state::closed));
  BOOST_TEST(!exists(*other, "/eph")->has_value());
  BOOST_TEST(create(*s, "/x").error() == errc::closed);
  BOOST_TEST((s->state() == session_state::closed));
  s->close(); // idempotent
}

BOOST_AUTO_TEST_CASE(a_call_from_a_watch_of_the_dead_session_goes_to_the_new_one) {
  // A call made from a watch of the dead session, while the expiry is being delivered: the
  // wrapper renews before the watcher runs, so the call goes to the new session.
  auto s = make();
  BOOST_REQUIRE(create(*s, "/w"));
  std::optional<std::error_code> seen;
  renewing_session* raw = s.get();
  BOOST_REQUIRE(exists(*s, "/w", [&](const watch_event&) {
    raw->create("/from-watch", "", create_mode::persistent,
                [&](result<std::string> r) { seen = r ? std::error_code{} : r.error(); });
  }));
  BOOST_REQUIRE(store->expire_session(s->session()));
  BOOST_REQUIRE(seen.has_value());
  BOOST_TEST(!*seen);
  BOOST_TEST(static_cast<bool>(get(*s, "/from-watch")));
}

// An inner session that still looks connected but fails every call with session_expired, as
// a ZooKeeper call in flight at the expiry completes before the session event arrives.
struct dying_session final : coordinator {
  session_id session() const override { return 99; }
  session_state state() const override { return session_state::connected; }
  void create(const std::string&, std::string_view, create_mode, create_callback done) override {
    done(errc::session_expired);
  }
  void remove(const std::string&, int32_t, status_callback done) override { done(errc::session_expired); }
  void exists(const std::string&, watcher, exists_callback done) override { done(errc::session_expired); }
  void get(const std::string&, watcher, get_callback done) override { done(errc::session_expired); }
  void set(const std::string&, std::string_view, int32_t, set_callback done) override {
    done(errc::session_expired);
  }
  void children(const std::string&, watcher, children_callback done) override { done(errc::session_expired); }
  void close() override {}
};

BOOST_AUTO_TEST_CASE(the_dead_sessions_expired_error_reaches_the_holder_as_connection_loss) {
  int calls = 0;
  renewing_session s{[&](session_callback) -> std::shared_ptr<coordinator> {
    if (calls++ == 0)
      return std::make_shared<dying_session>();
    return std::make_shared<embedded_coordinator>(store);
  }};
  BOOST_TEST(s.session() == 99);
  BOOST_TEST(create(s, "/x").error() == errc::connection_loss); // retry later, not "give up"
  BOOST_TEST(calls == 2);
  BOOST_TEST(s.renewals() == 1);
  BOOST_TEST(s.session() != 99);
  BOOST_TEST(static_cast<bool>(create(s, "/x"))); // the retry reaches the new session
}

BOOST_AUTO_TEST_SUITE_END()
