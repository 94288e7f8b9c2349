// The group actor's membership in the coordinator (actors/group_actor.hpp), under the
// deterministic scheduler, on an embedded coordinator: the group has its own session, and a
// second session of the same store plays "someone else" (an operator, or a ZooKeeper whose
// session for that member ended). Each member is its own scoped actor with at most one
// request outstanding, so an empty mailbox means "not answered yet".
#include <boost/test/unit_test.hpp>

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "actors/memory_group_offsets.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/kv_text.hpp"
#include "cluster/renewing_session.hpp"
#include "cluster/znode_paths.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

constexpr int32_t session_ms = 10'000;
const std::string group_id = "g/1"; // a name that must be escaped in its path

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

struct membership_fixture : test::deterministic_fixture {
  std::shared_ptr<cluster::embedded_store> store = std::make_shared<cluster::embedded_store>();
  std::shared_ptr<cluster::embedded_coordinator> group_session =
    std::make_shared<cluster::embedded_coordinator>(store);
  cluster::embedded_coordinator other{store};
  group_actor group;
  caf::scoped_actor a{sys, true};
  caf::scoped_actor b{sys, true};

  membership_fixture() {
    cluster::group_config cfg;
    cfg.initial_rebalance_delay_ms = 3000;
    group = spawn_group(sys, group_context{group_id, cfg, std::make_shared<memory_group_offsets>(),
                                           group_session});
    run();
  }

  ~membership_fixture() { // a test may have closed the group already: then CAF answers an error
    auto closed = self->request(group, caf::infinite, caf::close_atom_v);
    run();
    if (!self->mailbox().empty())
      closed.receive([](bool) {}, [](caf::error&) {});
  }

  /// The member ids whose node is in /consumers/<group>/ids, as the other session reads them;
  /// nullopt if the folder does not exist.
  std::optional<std::set<std::string>> registered() {
    std::optional<std::set<std::string>> out;
    bool answered = false;
    other.children(cluster::consumer_ids_path(group_id), {}, [&](result<std::vector<std::string>> r) {
      answered = true;
      if (!r)
        return;
      out.emplace();
      for (auto& name : *r)
        out->insert(*cluster::unescape_name(name));
    });
    BOOST_TEST(answered); // the embedded store answers before the call returns
    return out;
  }

  bool is_registered(const std::string& member_id) {
    auto ids = registered();
    return ids && ids->count(member_id) != 0;
  }

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
  request.receive([&](Answer& x) { out = std::move(x); },
                  [](caf::error& e) { BOOST_FAIL("unexpected error: " << caf::to_string(e)); });
  return out;
}

/// Forms a Stable group of the members a (leader) and b, or of a alone when `with_b` is
/// false; returns their member ids.
std::vector<std::string> form_group(membership_fixture& f, bool with_b) {
  auto ja = f.a->request(f.group, caf::infinite, join_group_atom_v, consumer_join("", "client-a"));
  f.run();
  std::optional<decltype(ja)> jb;
  if (with_b) {
    jb.emplace(f.b->request(f.group, caf::infinite, join_group_atom_v, consumer_join("", "client-b")));
    f.run();
  }
  f.advance_until([&] { return !f.a->mailbox().empty() && (!with_b || !f.b->mailbox().empty()); }, 500ms,
                  30s);
  auto joined_a = answer_of<cluster::join_answer>(f.a, ja);
  BOOST_REQUIRE((joined_a.error == kafka_error::none));
  std::vector<std::string> ids{joined_a.member_id};
  std::vector<cluster::member_assignment> plan{{ids[0], bytes_of("for a")}};
  if (with_b) {
    auto joined_b = answer_of<cluster::join_answer>(f.b, *jb);
    BOOST_REQUIRE((joined_b.error == kafka_error::none));
    ids.push_back(joined_b.member_id);
    plan.push_back({ids[1], bytes_of("for b")});
    auto sb = f.b->request(f.group, caf::infinite, sync_group_atom_v, cluster::sync_request{ids[1], {}, 1, {}});
    auto sa = f.a->request(f.group, caf::infinite, sync_group_atom_v, cluster::sync_request{ids[0], {}, 1, plan});
    f.run();
    BOOST_REQUIRE((answer_of<cluster::sync_answer>(f.a, sa).error == kafka_error::none));
    BOOST_REQUIRE((answer_of<cluster::sync_answer>(f.b, sb).error == kafka_error::none));
  } else {
    auto sa = f.a->request(f.group, caf::infinite, sync_group_atom_v, cluster::sync_request{ids[0], {}, 1, plan});
    f.run();
    BOOST_REQUIRE((answer_of<cluster::sync_answer>(f.a, sa).error == kafka_error::none));
  }
  BOOST_REQUIRE((f.describe().state == cluster::group_phase::stable));
  return ids;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_membership)

BOOST_FIXTURE_TEST_CASE(a_members_node_appears_when_it_joins, membership_fixture) {
  BOOST_TEST((registered() == std::set<std::string>{})); // the folder exists from the start
  auto ja = a->request(group, caf::infinite, join_group_atom_v, consumer_join("", "client-a"));
  run();
  BOOST_TEST(a->mailbox().empty()); // held through the initial rebalance delay, yet registered
  auto ids = member_ids();
  BOOST_REQUIRE(ids.size() == 1u);
  BOOST_TEST((registered() == std::set<std::string>{ids[0]}));
  // An ephemeral node of the group's session, holding who the member is.
  std::optional<result<cluster::node_data>> node; // checked out here: callbacks must not throw
  other.get(cluster::consumer_member_path(group_id, ids[0]), {},
            [&](result<cluster::node_data> r) { node.emplace(std::move(r)); });
  BOOST_REQUIRE(node.has_value());
  BOOST_REQUIRE(node->has_value());
  BOOST_TEST((*node)->stat.ephemeral_owner == group_session->session());
  auto fields = cluster::kv_fields::parse((*node)->data);
  BOOST_REQUIRE(fields.has_value());
  BOOST_TEST(*fields->text("member_id") == ids[0]);
  BOOST_TEST(*fields->text("client_id") == "client-a");
  BOOST_TEST(*fields->integer("session_timeout_ms", 0, 1 << 30) == session_ms);
  advance_until([&] { return !a->mailbox().empty(); }, 500ms, 30s);
  BOOST_TEST(answer_of<cluster::join_answer>(a, ja).member_id == ids[0]);
  BOOST_TEST((registered() == std::set<std::string>{ids[0]})); // completing the join changes nothing
}

BOOST_FIXTURE_TEST_CASE(a_silent_members_node_goes_when_its_session_ends, membership_fixture) {
  auto ids = form_group(*this, false);
  BOOST_TEST(is_registered(ids[0]));
  advance(9999ms); // a's session runs from its sync
  BOOST_TEST(is_registered(ids[0]));
  advance(1ms);
  BOOST_TEST(member_ids().empty());
  BOOST_TEST((registered() == std::set<std::string>{}));
}

BOOST_FIXTURE_TEST_CASE(a_node_removed_by_someone_else_drops_its_member_and_rebalances,
                        membership_fixture) {
  auto ids = form_group(*this, true);
  BOOST_TEST((registered() == std::set<std::string>{ids[0], ids[1]}));
  bool removed = false;
  other.remove(cluster::consumer_member_path(group_id, ids[1]), cluster::any_version,
               [&](status s) { removed = static_cast<bool>(s); });
  BOOST_REQUIRE(removed);
  run(); // the group's watch fired: it reads the folder again
  BOOST_TEST((member_ids() == std::vector<std::string>{ids[0]}));
  BOOST_TEST((describe().state == cluster::group_phase::preparing_rebalance));
  BOOST_TEST((heartbeat(a, ids[0], 1) == kafka_error::rebalance_in_progress));
  BOOST_TEST((heartbeat(b, ids[1], 1) == kafka_error::unknown_member_id));
  auto rejoin = a->request(group, caf::infinite, join_group_atom_v, consumer_join(ids[0], "client-a"));
  run();
  auto again = answer_of<cluster::join_answer>(a, rejoin);
  BOOST_TEST((again.error == kafka_error::none));
  BOOST_TEST(again.generation == 2);
  BOOST_TEST(again.leader == ids[0]);
  BOOST_REQUIRE(again.members.size() == 1u);
  BOOST_TEST(again.members[0].member_id == ids[0]);
  BOOST_TEST((registered() == std::set<std::string>{ids[0]}));
  // The watch is armed again: removing a's node too empties the group.
  other.remove(cluster::consumer_member_path(group_id, ids[0]), cluster::any_version, {});
  run();
  BOOST_TEST(member_ids().empty());
}

BOOST_FIXTURE_TEST_CASE(leaving_removes_the_node_and_closing_removes_the_rest, membership_fixture) {
  auto ids = form_group(*this, true);
  auto leave = b->request(group, caf::infinite, leave_group_atom_v,
                          std::vector<cluster::member_identity>{{ids[1], std::nullopt}});
  run();
  auto left = answer_of<cluster::leave_answer>(b, leave);
  BOOST_REQUIRE(left.members.size() == 1u);
  BOOST_TEST((left.members[0].second == kafka_error::none));
  BOOST_TEST((registered() == std::set<std::string>{ids[0]}));
  BOOST_TEST((member_ids() == std::vector<std::string>{ids[0]})); // our own removal's watch is harmless
  auto closed = self->request(group, caf::infinite, caf::close_atom_v);
  run();
  expect_reply(closed, [](bool) {});
  BOOST_TEST((registered() == std::set<std::string>{}));
}

BOOST_FIXTURE_TEST_CASE(the_group_keeps_its_members_when_its_session_expires, membership_fixture) {
  auto ids = form_group(*this, false);
  BOOST_REQUIRE(store->expire_session(group_session->session()));
  run();
  BOOST_TEST((registered() == std::set<std::string>{})); // the ephemeral went with the session
  BOOST_TEST((member_ids() == std::vector<std::string>{ids[0]}));
  BOOST_TEST((heartbeat(a, ids[0], 1) == kafka_error::none));
}

// As a cluster node runs it: the group's session renews itself after expiry
// (cluster/renewing_session.hpp) and the node's listener tells the group (node_actor.cpp).
BOOST_FIXTURE_TEST_CASE(members_are_registered_again_when_the_session_is_renewed, membership_fixture) {
  const std::string renewed_group = "renewed";
  auto session = std::make_shared<cluster::renewing_session>([this](cluster::session_callback cb) {
    return std::make_shared<cluster::embedded_coordinator>(store, std::move(cb));
  });
  cluster::group_config cfg;
  cfg.initial_rebalance_delay_ms = 0;
  auto g = spawn_group(sys, group_context{renewed_group, cfg, std::make_shared<memory_group_offsets>(), session});
  auto weak = caf::actor_cast<caf::weak_actor_ptr>(g);
  auto tell = [weak] {
    if (auto strong = weak.lock())
      caf::anon_send(caf::actor_cast<group_actor>(strong), membership_atom_v, caf::reset_atom_v);
  };
  session->set_listener({tell, [tell](cluster::session_id) { tell(); }});
  run();
  auto ja = a->request(g, caf::infinite, join_group_atom_v, consumer_join("", "client-a"));
  run();
  advance_until([&] { return !a->mailbox().empty(); }, 500ms, 30s);
  auto joined = answer_of<cluster::join_answer>(a, ja);
  BOOST_REQUIRE((joined.error == kafka_error::none));
  auto path = cluster::consumer_member_path(renewed_group, joined.member_id);
  // The owner of the member's node as the other session sees it (0: no node).
  auto owner = [&] {
    cluster::session_id out = 0;
    other.get(path, {}, [&](result<cluster::node_data> r) {
      if (r)
        out = r->stat.ephemeral_owner;
    });
    return out;
  };
  auto first = session->session();
  BOOST_REQUIRE(owner() == first);

  BOOST_REQUIRE(store->expire_session(first));
  run();
  auto second = session->session();
  BOOST_TEST(second != first);
  BOOST_TEST(session->renewals() == 1);
  BOOST_TEST(owner() == second); // created again, in the new session
  auto d = self->request(g, caf::infinite, describe_atom_v);
  run();
  expect_reply(d, [&](cluster::group_description& x) {
    BOOST_REQUIRE(x.members.size() == 1u);
    BOOST_TEST(x.members[0].member_id == joined.member_id);
  });

  // The children watch is armed again: a node removed by someone else removes its member.
  bool removed = false;
  other.remove(path, cluster::any_version, [&](status st) { removed = static_cast<bool>(st); });
  BOOST_REQUIRE(removed);
  run();
  auto after = self->request(g, caf::infinite, describe_atom_v);
  run();
  expect_reply(after, [&](cluster::group_description& x) { BOOST_TEST(x.members.empty()); });
  auto closed = self->request(g, caf::infinite, caf::close_atom_v);
  run();
  expect_reply(closed, [](bool) {});
  session->close();
}

BOOST_AUTO_TEST_SUITE_END()
