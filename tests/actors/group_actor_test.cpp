// The group actor under the deterministic scheduler: held JoinGroup and SyncGroup answers,
// session expiry on the actor's one timer in simulated time, and the committed offsets.
// Each member is its own scoped actor with at most one request outstanding, so an empty
// mailbox means "not answered yet".
#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>
#include <vector>

#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "actors/memory_group_offsets.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

constexpr int32_t session_ms = 10'000;

cluster::group_bytes bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

cluster::join_request consumer_join(const std::string& member_id, const std::string& client_id) {
  cluster::join_request r;
  r.member_id = member_id;
  r.client_id = client_id;
  r.client_host = "/127.0.0.1";
  r.session_timeout_ms = session_ms;
  r.rebalance_timeout_ms = 30'000;
  r.protocol_type = "consumer";
  r.protocols = {{"range", bytes_of("subscription of " + client_id)}};
  return r;
}

struct group_fixture : test::deterministic_fixture {
  group_actor group;
  caf::scoped_actor a{sys, true};
  caf::scoped_actor b{sys, true};

  group_fixture() {
    cluster::group_config cfg;
    cfg.initial_rebalance_delay_ms = 3000;
    group = spawn_group(sys, group_context{"g", cfg, std::make_shared<memory_group_offsets>()});
    run();
  }

  ~group_fixture() { // a test may have closed the group already: then CAF answers an error
    auto closed = self->request(group, caf::infinite, caf::close_atom_v);
    run();
    if (!self->mailbox().empty())
      closed.receive([](bool) {}, [](caf::error&) {});
  }

  /// Moves simulated time in steps of `step` until `done()`, at most `limit`.
  template <class Done>
  void advance_until(Done done, std::chrono::milliseconds step, std::chrono::milliseconds limit) {
    for (auto waited = 0ms; !done() && waited < limit; waited += step)
      advance(step);
  }

  kafka_error heartbeat(caf::scoped_actor& member, const std::string& id, int32_t generation) {
    auto hb = member->request(group, caf::infinite, heartbeat_atom_v, cluster::heartbeat_request{id, {}, generation});
    run();
    BOOST_REQUIRE_MESSAGE(!member->mailbox().empty(), "heartbeat not answered");
    kafka_error out = kafka_error::unknown_server_error;
    hb.receive([&] { out = kafka_error::none; }, [&](caf::error& e) { out = to_kafka_error(e); });
    return out;
  }

  cluster::group_description describe() {
    cluster::group_description out;
    auto d = self->request(group, caf::infinite, describe_atom_v);
    run();
    expect_reply(d, [&](cluster::group_description& x) { out = std::move(x); });
    return out;
  }

  std::vector<std::string> member_ids() {
    std::vector<std::string> out;
    for (auto& m : describe().members)
      out.push_back(m.member_id);
    return out;
  }
};

template <class Answer, class Handle>
Answer answer_of(caf::scoped_actor& member, Handle& request) {
  BOOST_REQUIRE_MESSAGE(!member->mailbox().empty(), "not answered");
  Answer out;
  request.receive([&](Answer& a) { out = std::move(a); },
                  [](caf::error& e) { BOOST_FAIL("unexpected error: " << caf::to_string(e)); });
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_actor_behaviour)

BOOST_FIXTURE_TEST_CASE(two_members_join_and_sync_and_a_silent_one_expires_after_exactly_its_session,
                        group_fixture) {
  // Both joins are held through the initial rebalance delay, then answered together.
  auto ja = a->request(group, caf::infinite, join_group_atom_v, consumer_join("", "client-a"));
  run();
  auto jb = b->request(group, caf::infinite, join_group_atom_v, consumer_join("", "client-b"));
  run();
  BOOST_TEST(a->mailbox().empty());
  BOOST_TEST(b->mailbox().empty());
  advance_until([&] { return !a->mailbox().empty() && !b->mailbox().empty(); }, 500ms, 30s);
  auto joined_a = answer_of<cluster::join_answer>(a, ja);
  auto joined_b = answer_of<cluster::join_answer>(b, jb);
  BOOST_TEST((joined_a.error == kafka_error::none));
  BOOST_TEST((joined_b.error == kafka_error::none));
  BOOST_TEST(joined_a.generation == 1);
  BOOST_TEST(joined_b.generation == 1);
  auto id_a = joined_a.member_id;
  auto id_b = joined_b.member_id;
  BOOST_TEST(id_a.rfind("client-a-", 0) == 0u, id_a); // "<client id>-<uuid>"
  BOOST_TEST(id_a.size() == std::string("client-a-").size() + 36u, id_a);
  BOOST_TEST(id_b.rfind("client-b-", 0) == 0u, id_b);
  BOOST_TEST(joined_a.leader == id_a); // the first to join leads and gets every member
  BOOST_TEST(joined_b.leader == id_a);
  BOOST_TEST(joined_a.members.size() == 2u);
  BOOST_TEST(joined_b.members.empty());

  // The follower's sync waits for the leader's, which carries both assignments.
  auto sb = b->request(group, caf::infinite, sync_group_atom_v, cluster::sync_request{id_b, {}, 1, {}});
  run();
  BOOST_TEST(b->mailbox().empty());
  std::vector<cluster::member_assignment> plan{{id_a, bytes_of("for a")}, {id_b, bytes_of("for b")}};
  auto sa = a->request(group, caf::infinite, sync_group_atom_v, cluster::sync_request{id_a, {}, 1, plan});
  run();
  BOOST_TEST((answer_of<cluster::sync_answer>(a, sa).assignment == bytes_of("for a")));
  BOOST_TEST((answer_of<cluster::sync_answer>(b, sb).assignment == bytes_of("for b")));
  BOOST_TEST((describe().state == cluster::group_phase::stable));

  // b falls silent at its sync; a keeps heartbeating. b's session ends exactly 10 s later.
  for (int i = 0; i < 3; ++i) {
    advance(3000ms);
    BOOST_TEST((heartbeat(a, id_a, 1) == kafka_error::none));
  }
  advance(999ms); // 9,999 ms after b's sync
  BOOST_TEST((member_ids() == std::vector<std::string>{id_a, id_b}));
  BOOST_TEST((describe().state == cluster::group_phase::stable));
  advance(1ms); // 10,000 ms
  BOOST_TEST((member_ids() == std::vector<std::string>{id_a}));
  BOOST_TEST((describe().state == cluster::group_phase::preparing_rebalance));
  BOOST_TEST((heartbeat(b, id_b, 1) == kafka_error::unknown_member_id));

  // a learns of the rebalance from its heartbeat and rejoins: a generation of its own.
  BOOST_TEST((heartbeat(a, id_a, 1) == kafka_error::rebalance_in_progress));
  auto rejoin = a->request(group, caf::infinite, join_group_atom_v, consumer_join(id_a, "client-a"));
  run();
  auto again = answer_of<cluster::join_answer>(a, rejoin);
  BOOST_TEST((again.error == kafka_error::none));
  BOOST_TEST(again.generation == 2);
  BOOST_TEST(again.leader == id_a);
  BOOST_TEST(again.members.size() == 1u);
  std::vector<cluster::member_assignment> alone{{id_a, bytes_of("all for a")}};
  auto resync = a->request(group, caf::infinite, sync_group_atom_v, cluster::sync_request{id_a, {}, 2, alone});
  run();
  BOOST_TEST((answer_of<cluster::sync_answer>(a, resync).assignment == bytes_of("all for a")));
  BOOST_TEST((heartbeat(a, id_a, 2) == kafka_error::none));
}

BOOST_FIXTURE_TEST_CASE(a_v4_join_first_gets_member_id_required_with_its_id, group_fixture) {
  auto req = consumer_join("", "rdkafka");
  req.require_known_member_id = true;
  auto first = a->request(group, caf::infinite, join_group_atom_v, req);
  run();
  auto refused = answer_of<cluster::join_answer>(a, first);
  BOOST_TEST((refused.error == kafka_error::member_id_required));
  BOOST_TEST(refused.member_id.rfind("rdkafka-", 0) == 0u, refused.member_id);
  req.member_id = refused.member_id;
  auto second = a->request(group, caf::infinite, join_group_atom_v, req);
  run();
  advance_until([&] { return !a->mailbox().empty(); }, 500ms, 30s);
  auto joined = answer_of<cluster::join_answer>(a, second);
  BOOST_TEST((joined.error == kafka_error::none));
  BOOST_TEST(joined.member_id == refused.member_id);
}

BOOST_FIXTURE_TEST_CASE(closing_answers_held_joins_with_not_coordinator, group_fixture) {
  auto held = a->request(group, caf::infinite, join_group_atom_v, consumer_join("", "client-a"));
  run();
  BOOST_TEST(a->mailbox().empty());
  auto closed = self->request(group, caf::infinite, caf::close_atom_v);
  run();
  expect_reply(closed, [](bool) {});
  BOOST_TEST((answer_of<cluster::join_answer>(a, held).error == kafka_error::not_coordinator));
}

BOOST_FIXTURE_TEST_CASE(offsets_are_committed_outside_a_group_and_checked_inside_one, group_fixture) {
  auto commit = [&](group_offset_commit c) {
    auto req = self->request(group, caf::infinite, commit_offsets_atom_v, std::move(c));
    run();
    kafka_error out = kafka_error::unknown_server_error;
    BOOST_REQUIRE(!self->mailbox().empty());
    req.receive([&] { out = kafka_error::none; }, [&](caf::error& e) { out = to_kafka_error(e); });
    return out;
  };
  auto fetch = [&](group_offset_query q) {
    std::vector<group_offset> out;
    auto req = self->request(group, caf::infinite, fetch_offsets_atom_v, std::move(q));
    run();
    expect_reply(req, [&](std::vector<group_offset>& found) { out = std::move(found); });
    return out;
  };
  // generation -1 and no member id: a commit from outside any group, accepted while Empty.
  group_offset_commit simple{"", {}, -1, {{{"t", 0}, 42, -1, "meta"}, {{"t", 2}, 7, 3, ""}}};
  BOOST_TEST((commit(simple) == kafka_error::none));
  auto some = fetch(group_offset_query{false, {{"t", 2}, {"t", 1}, {"t", 0}}});
  BOOST_REQUIRE(some.size() == 2u); // t-1 has none: the listener answers -1 for it
  BOOST_TEST((some[0].tp == storage::topic_partition{"t", 2}));
  BOOST_TEST(some[0].offset == 7);
  BOOST_TEST(some[0].leader_epoch == 3);
  BOOST_TEST(some[1].offset == 42);
  BOOST_TEST(some[1].metadata == "meta");
  BOOST_TEST(fetch(group_offset_query{true, {}}).size() == 2u);
  // A member id the group does not know is refused, and nothing is stored.
  group_offset_commit stranger{"nobody", {}, 1, {{{"t", 0}, 99, -1, ""}}};
  BOOST_TEST((commit(stranger) == kafka_error::unknown_member_id));
  BOOST_TEST(fetch(group_offset_query{false, {{"t", 0}}}).front().offset == 42);
}

BOOST_FIXTURE_TEST_CASE(groups_with_one_member_id_seed_give_the_same_ids, group_fixture) {
  // What a simulation replays: the member id a join gets comes from the seeded generator.
  auto id_from = [&](uint64_t seed, const std::string& group_id) {
    auto g = spawn_group(sys, group_context{group_id, cluster::group_config{}, std::make_shared<memory_group_offsets>(),
                                            nullptr, seed});
    run();
    auto req = consumer_join("", "client");
    req.require_known_member_id = true;
    auto first = a->request(g, caf::infinite, join_group_atom_v, req);
    run();
    auto refused = answer_of<cluster::join_answer>(a, first);
    BOOST_TEST((refused.error == kafka_error::member_id_required));
    auto closed = self->request(g, caf::infinite, caf::close_atom_v);
    run();
    BOOST_REQUIRE_MESSAGE(!self->mailbox().empty(), "close not answered");
    closed.receive([](bool) {}, [](caf::error&) {});
    return refused.member_id;
  };
  auto x = id_from(99, "g1");
  BOOST_TEST(x.rfind("client-", 0) == 0u, x);
  BOOST_TEST(id_from(99, "g2") == x);
  BOOST_TEST(id_from(100, "g3") != x);
}

BOOST_AUTO_TEST_SUITE_END()
