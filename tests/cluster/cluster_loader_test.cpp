// cluster_loader and cluster_writes against the embedded coordinator: one session writes
// brokers and topics, another loads them, watches fire on changes, reloads do not multiply
// watches, and conditional writes let only one of two controllers win.
#include "tests/cluster/fixtures.hpp"

#include "cluster/cluster_loader.hpp"
#include "cluster/cluster_writes.hpp"
#include "cluster/controller_decisions.hpp"
#include "cluster/errc.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"

using namespace cafka::test;

namespace {

broker_registration broker(int32_t id) {
  return {id, "127.0.0.1", static_cast<uint16_t>(9090 + id), static_cast<uint16_t>(9190 + id), ""};
}

void register_as(coordinator& c, int32_t id) {
  std::optional<result<registration_result>> out;
  register_broker(c, broker(id), [&](result<registration_result> r) { out = r; });
  BOOST_REQUIRE(out);
  BOOST_REQUIRE_MESSAGE(*out, out->error().message());
}

loaded_view load(cluster_loader& loader, coordinator& c) {
  std::optional<result<loaded_view>> out;
  loader.load(c, [&](result<loaded_view> r) { out.emplace(std::move(r)); });
  BOOST_REQUIRE_MESSAGE(out, "the load did not complete");
  BOOST_REQUIRE_MESSAGE(*out, out->error().message());
  return std::move(**out);
}

std::error_code load_error(cluster_loader& loader, coordinator& c) {
  std::optional<result<loaded_view>> out;
  loader.load(c, [&](result<loaded_view> r) { out.emplace(std::move(r)); });
  BOOST_REQUIRE(out);
  return out->error();
}

status publish(coordinator& c, const std::string& name, const new_topic& t,
               topic_config config = {}) {
  std::optional<status> out;
  publish_new_topic(c, name, t, config, [&](status st) { out = st; });
  BOOST_REQUIRE(out);
  return *out;
}

status write(coordinator& c, const std::vector<partition_state_write>& writes) {
  std::optional<status> out;
  write_partition_states(c, writes, [&](status st) { out = st; });
  BOOST_REQUIRE(out);
  return *out;
}

bool has_event(const recorder& r, watch_event_type type, const std::string& path) {
  for (auto& e : r.events)
    if (e.type == type && e.path == path)
      return true;
  return false;
}

// Three brokers, each with its own session; broker 0 is the controller (epoch 1).
struct cluster_fixture : store_fixture {
  // Before the sessions: closing them at the end still fires the reader's watches into it.
  recorder fired;
  std::vector<std::unique_ptr<embedded_coordinator>> brokers;
  std::unique_ptr<embedded_coordinator> reader = open();
  cluster_loader loader{fired.watch()};
  cluster_loader controller_loader{{}}; // one loader per session: a loader's watches are its own

  cluster_fixture() {
    for (int32_t id = 0; id < 3; ++id) {
      brokers.push_back(open());
      register_as(*brokers.back(), id);
    }
  }

  // The controller's way of creating a topic: decide over a fresh view, then publish.
  new_topic create_topic(const std::string& name, int32_t partitions, int32_t rf) {
    auto view = load(controller_loader, *brokers[0]).view;
    auto t = place_new_topic(view, name, partitions, rf, 1);
    BOOST_REQUIRE_MESSAGE(t, t.error().message());
    BOOST_REQUIRE(publish(*brokers[0], name, *t, topic_config{{{"retention.ms", "1000"}}}));
    return *t;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(cluster_loader_suite, cluster_fixture)

BOOST_AUTO_TEST_CASE(another_session_loads_brokers_controller_and_topics) {
  auto t = create_topic("orders", 6, 2);
  auto loaded = load(loader, *reader);
  auto& v = loaded.view;
  BOOST_TEST(loaded.malformed.empty());
  BOOST_TEST(v.broker_ids() == (std::vector<int32_t>{0, 1, 2}), boost::test_tools::per_element());
  BOOST_TEST(v.broker(2)->kafka_port == 9092);
  BOOST_REQUIRE(v.controller());
  BOOST_TEST(v.controller()->broker_id == 0);
  BOOST_TEST(v.controller()->epoch == 1);
  auto topic = v.topic("orders");
  BOOST_REQUIRE(topic);
  BOOST_TEST((topic->assignment == t.assignment));
  BOOST_REQUIRE(topic->partitions.size() == 6u);
  for (size_t p = 0; p < 6; ++p) {
    BOOST_TEST((topic->partitions[p].state == t.partition_states[p]));
    BOOST_TEST(topic->partitions[p].state_version == 0);
    BOOST_TEST(v.live_leader("orders", static_cast<int32_t>(p)) == t.partition_states[p].leader);
  }
  BOOST_TEST(topic->config.entries.at("retention.ms") == "1000");
}

BOOST_AUTO_TEST_CASE(topic_names_that_need_escaping_round_trip) {
  create_topic("a/b", 1, 1);
  auto v = load(loader, *reader).view;
  BOOST_TEST(v.topic_names() == std::vector<std::string>{"a/b"}, boost::test_tools::per_element());
  BOOST_TEST(v.live_leader("a/b", 0) != no_broker);
}

BOOST_AUTO_TEST_CASE(a_closed_broker_session_fires_the_watch_and_leaves_the_view) {
  load(loader, *reader);
  brokers[1]->close();
  BOOST_TEST(has_event(fired, watch_event_type::children_changed, broker_ids_path()));
  BOOST_TEST(load(loader, *reader).view.broker_ids() == (std::vector<int32_t>{0, 2}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_broker_registered_again_has_a_larger_epoch) {
  auto before = load(loader, *reader).view;
  BOOST_TEST(before.broker(1)->epoch > 0);
  brokers[1]->close();
  brokers[1] = open();
  register_as(*brokers[1], 1);
  auto after = load(loader, *reader).view;
  BOOST_TEST(after.broker(1)->epoch > before.broker(1)->epoch);
  BOOST_TEST(after.broker(2)->epoch == before.broker(2)->epoch);
}

BOOST_AUTO_TEST_CASE(the_controller_going_away_and_a_new_one_fire_the_watch) {
  load(loader, *reader);
  store->expire_session(brokers[0]->session());
  BOOST_TEST(has_event(fired, watch_event_type::deleted, controller_path()));
  auto v = load(loader, *reader).view;
  BOOST_TEST(!v.controller());
  fired.events.clear();
  auto next = open();
  register_as(*next, 3); // /controller is absent: broker 3 wins at epoch 2
  BOOST_TEST(has_event(fired, watch_event_type::created, controller_path()));
  v = load(loader, *reader).view;
  BOOST_TEST(v.controller()->broker_id == 3);
  BOOST_TEST(v.controller()->epoch == 2);
}

BOOST_AUTO_TEST_CASE(topic_creation_and_partition_state_changes_fire_watches) {
  load(loader, *reader);
  auto t = create_topic("orders", 2, 1);
  BOOST_TEST(has_event(fired, watch_event_type::children_changed, topics_path()));
  auto before = load(loader, *reader).view;
  fired.events.clear();
  auto w = on_brokers_changed(before, {0, 2}, 1); // broker 1 died (as the controller sees it)
  BOOST_REQUIRE(!w.empty());
  BOOST_REQUIRE(write(*brokers[0], w));
  BOOST_TEST(has_event(fired, watch_event_type::changed,
                       partition_state_path("orders", w.front().partition)));
  auto after = load(loader, *reader).view;
  auto& entry = after.topic("orders")->partitions[static_cast<size_t>(w.front().partition)];
  BOOST_TEST(entry.state.leader == no_broker);
  BOOST_TEST(entry.state_version == 1);
  auto change = leadership_changes(before, after, 1);
  BOOST_TEST(change.stop.size() == w.size());
  BOOST_TEST(change.start.empty());
}

BOOST_AUTO_TEST_CASE(reloading_does_not_multiply_watches) {
  create_topic("orders", 3, 1);
  auto base = store->watch_count();
  load(loader, *reader);
  auto armed = loader.armed_watches();
  // /brokers/ids, /brokers/topics, /controller, the assignment, 3 partition states, 1 config,
  // and the dynamic configs of the 3 brokers and of <default>.
  BOOST_TEST(armed == 12u);
  BOOST_TEST(store->watch_count() == base + armed);
  load(loader, *reader);
  load(loader, *reader);
  BOOST_TEST(loader.armed_watches() == armed);
  BOOST_TEST(store->watch_count() == base + armed);
  brokers[2]->close(); // fires /brokers/ids once; the reload re-arms exactly that one
  BOOST_TEST(fired.events.size() == 1u);
  BOOST_TEST(loader.armed_watches() == armed - 1);
  load(loader, *reader);
  BOOST_TEST(loader.armed_watches() == armed);
}

BOOST_AUTO_TEST_CASE(one_loader_over_two_sessions_keeps_their_watches_apart) {
  auto base = store->watch_count();
  load(loader, *reader);
  load(loader, *brokers[1]);
  auto both = store->watch_count();
  // 7 each: /brokers/ids, /brokers/topics, /controller, /config/brokers/<default> and of 0, 1, 2.
  BOOST_TEST(both == base + 14u);
  load(loader, *reader);
  load(loader, *brokers[1]);
  BOOST_TEST(store->watch_count() == both);
  BOOST_TEST(loader.armed_watches() == 14u);
}

BOOST_AUTO_TEST_CASE(a_state_written_after_the_load_is_picked_up_through_its_watch) {
  // The topic node exists but its states do not yet (a controller still publishing).
  BOOST_REQUIRE(create(*brokers[0], topic_path("late"), encode(topic_assignment{{{1}}, {}, {}})));
  auto v = load(loader, *reader).view;
  BOOST_REQUIRE(v.topic("late"));
  BOOST_TEST(v.topic("late")->partitions[0].state_version == no_state_version);
  BOOST_TEST(v.live_leader("late", 0) == no_broker);
  fired.events.clear();
  BOOST_REQUIRE(create(*brokers[0], partitions_path("late")));
  BOOST_REQUIRE(create(*brokers[0], partition_path("late", 0)));
  BOOST_REQUIRE(write(*brokers[0], {{"late", 0, partition_state{1, 0, 1, {1}}, no_state_version}}));
  BOOST_TEST(has_event(fired, watch_event_type::created, partition_state_path("late", 0)));
  BOOST_TEST(load(loader, *reader).view.live_leader("late", 0) == 1);
}

BOOST_AUTO_TEST_CASE(undecodable_nodes_are_skipped_and_named) {
  create_topic("good", 1, 1);
  BOOST_REQUIRE(create(*brokers[0], topic_path("bad"), "version=1\npartition.3=1\n"));
  BOOST_REQUIRE(create(*brokers[0], broker_path(7), "garbage", create_mode::ephemeral));
  BOOST_REQUIRE(create(*brokers[0], broker_ids_path() + "/x", "", create_mode::ephemeral));
  BOOST_REQUIRE(set(*brokers[0], partition_state_path("good", 0), "version=1\nleader=-5\n"));
  auto loaded = load(loader, *reader);
  std::vector<std::string> expected{broker_ids_path() + "/x", broker_path(7),
                                    topic_path("bad"), partition_state_path("good", 0)};
  std::sort(loaded.malformed.begin(), loaded.malformed.end());
  std::sort(expected.begin(), expected.end());
  BOOST_TEST(loaded.malformed == expected, boost::test_tools::per_element());
  BOOST_TEST(loaded.view.broker_ids().size() == 3u);
  BOOST_TEST(loaded.view.topic_names() == std::vector<std::string>{"good"},
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(missing_roots_and_dead_sessions_are_errors) {
  store_fixture empty;
  auto c = empty.open();
  cluster_loader fresh{{}};
  BOOST_TEST((load_error(fresh, *c) == errc::no_node));
  // Only exists(/controller) and exists(/config/brokers/<default>) arm on missing nodes.
  BOOST_TEST(fresh.armed_watches() == 2u);
  store->disconnect_session(reader->session());
  BOOST_TEST((load_error(loader, *reader) == errc::connection_loss));
  BOOST_TEST(loader.armed_watches() == 0u);
  store->reconnect_session(reader->session());
  load(loader, *reader);
  store->expire_session(reader->session());
  BOOST_TEST(has_event(fired, watch_event_type::session, ""));
  BOOST_TEST(loader.armed_watches() == 0u);
  BOOST_TEST((load_error(loader, *reader) == errc::session_expired));
  auto renewed = open(); // a new session arms everything again
  load(loader, *renewed);
  BOOST_TEST(loader.armed_watches() == 7u);
}

BOOST_AUTO_TEST_CASE(of_two_controllers_deciding_from_the_same_view_only_one_wins) {
  create_topic("orders", 3, 1);
  auto view = load(loader, *reader).view;
  auto old_controller = on_brokers_changed(view, {0, 2}, 1);
  auto new_controller = on_brokers_changed(view, {0, 2}, 2);
  BOOST_REQUIRE(!new_controller.empty());
  BOOST_REQUIRE(write(*brokers[2], new_controller));
  BOOST_TEST((write(*brokers[0], old_controller).error() == errc::bad_version));
  // The deposed controller reloads: the stored epoch is newer, so it decides nothing.
  auto reloaded = load(controller_loader, *brokers[0]).view;
  BOOST_TEST(on_brokers_changed(reloaded, {0, 2}, 1).empty());
}

BOOST_AUTO_TEST_CASE(a_topic_is_published_once) {
  auto t = create_topic("orders", 2, 1);
  BOOST_TEST((publish(*brokers[1], "orders", t).error() == errc::node_exists));
  new_topic bad = t;
  bad.partition_states.pop_back();
  BOOST_TEST((publish(*brokers[1], "other", bad).error() == errc::invalid_partitions));
  BOOST_TEST(!load(loader, *reader).view.topic("other"));
}

BOOST_AUTO_TEST_SUITE_END()
