// The routing view without actors: leaders and broker addresses from a metadata answer,
// which brokers to ask for partition actors, filling them in, marking the rest
// unavailable, and the decision per error. (fill_actors needs real handles: a throwaway
// actor stands in for a partition actor, nothing is sent to it.)
#include "client/routing_view.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"

using namespace cafka;
using namespace cafka::client;

namespace {

constexpr int16_t leader_not_available = 5;

// Three brokers; topic "t" with partitions led by 1, 2, 3, 1 (the answer of broker 1, so
// only partitions 0 and 3 would carry actors); "gone" is an unknown topic.
cluster_metadata sample() {
  cluster_metadata md;
  md.controller_id = 1;
  md.brokers = {{1, "127.0.0.1", 9092, 9192}, {2, "127.0.0.1", 9093, 9193}, {3, "127.0.0.1", 9094, 9194}};
  topic_metadata t{"t", 0, {}};
  for (int32_t p = 0; p < 4; ++p)
    t.partitions.push_back(partition_metadata{p, 0, p % 3 + 1, {p % 3 + 1}, partition_actor{}});
  md.topics.push_back(t);
  md.topics.push_back(topic_metadata{"gone", 3, {}});
  return md;
}

} // namespace

BOOST_AUTO_TEST_SUITE(routing_view_suite)

BOOST_AUTO_TEST_CASE(leaders_and_addresses_come_from_the_metadata) {
  auto md = sample();
  md.topics[0].partitions[2].error = leader_not_available;
  md.topics[0].partitions[2].leader = -1;
  md.brokers.push_back(broker_info{4, "127.0.0.1", 9095, 0}); // no caf.port: not routable
  auto v = routing_view::from(md);
  BOOST_TEST(v.leader_of({"t", 0}).value_or(-9) == 1);
  BOOST_TEST(v.leader_of({"t", 1}).value_or(-9) == 2);
  BOOST_TEST(!v.leader_of({"t", 2}));
  BOOST_TEST(!v.leader_of({"t", 7}));
  BOOST_TEST(!v.leader_of({"gone", 0}));
  BOOST_REQUIRE(v.address_of(2));
  BOOST_TEST(to_string(*v.address_of(2)) == "127.0.0.1:9193");
  BOOST_TEST(!v.address_of(4));
  BOOST_TEST(!v.address_of(5));
}

BOOST_AUTO_TEST_CASE(brokers_are_asked_only_for_partitions_without_actors) {
  auto md = sample();
  auto wanted = actors_to_fetch(md);
  BOOST_TEST(wanted.size() == 3u);
  BOOST_TEST((wanted[1] == std::vector<std::string>{"t"}));
  BOOST_TEST((wanted[3] == std::vector<std::string>{"t"}));
  // A leader without an address (left the cluster) is not asked.
  md.brokers.pop_back();
  BOOST_TEST(actors_to_fetch(md).count(3) == 0u);
}

BOOST_AUTO_TEST_CASE(a_leaders_actors_fill_its_partitions_and_the_rest_become_unavailable) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto stand_in = caf::actor_cast<partition_actor>(sys.spawn([] { return caf::behavior{[](int) {}}; }));
  auto md = sample();
  // What broker 2 answers: its own partition 1 with an actor; partition 0 (not its own)
  // with one too, which must not be taken, since broker 1 leads it.
  auto from2 = sample();
  from2.topics[0].partitions[1].actor = stand_in;
  from2.topics[0].partitions[0].actor = stand_in;
  BOOST_TEST(fill_actors(md, 2, from2) == 1u);
  BOOST_TEST((md.topics[0].partitions[1].actor == stand_in));
  BOOST_TEST(!md.topics[0].partitions[0].actor);
  BOOST_TEST(actors_to_fetch(md).count(2) == 0u);
  // Partitions 0, 2 and 3 got no actor: unavailable, so that the caller retries.
  BOOST_TEST(mark_unrouted(md) == 3u);
  BOOST_TEST(md.topics[0].partitions[0].error == leader_not_available);
  BOOST_TEST(md.topics[0].partitions[0].leader == -1);
  BOOST_TEST(md.topics[0].partitions[1].error == 0);
  BOOST_TEST(md.topics[1].error == 3); // the topic's own error is kept
  caf::anon_send_exit(stand_in, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_CASE(a_single_node_answer_needs_nothing_more) {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  auto stand_in = caf::actor_cast<partition_actor>(sys.spawn([] { return caf::behavior{[](int) {}}; }));
  cluster_metadata md;
  md.brokers = {{0, "127.0.0.1", 9092, 9192}};
  topic_metadata t{"t", 0, {}};
  for (int32_t p = 0; p < 3; ++p)
    t.partitions.push_back(partition_metadata{p, 0, 0, {0}, stand_in});
  md.topics.push_back(t);
  BOOST_TEST(actors_to_fetch(md).empty());
  BOOST_TEST(mark_unrouted(md) == 0u);
  caf::anon_send_exit(stand_in, caf::exit_reason::user_shutdown);
}

BOOST_AUTO_TEST_CASE(errors_decide_between_refreshing_and_failing) {
  auto refresh = route_action::refresh_and_retry;
  auto fail = route_action::fail;
  BOOST_TEST((routing_decision(caf::make_error(kafka_error::not_leader_or_follower), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(kafka_error::leader_not_available), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(caf::sec::request_receiver_down), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(caf::sec::request_timeout), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(caf::exit_reason::remote_link_unreachable), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(caf::exit_reason::user_shutdown), false) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(kafka_error::unknown_topic_or_partition), false) == fail));
  BOOST_TEST((routing_decision(caf::make_error(kafka_error::unknown_topic_or_partition), true) == refresh));
  BOOST_TEST((routing_decision(caf::make_error(kafka_error::message_too_large), true) == fail));
  BOOST_TEST((routing_decision(caf::error{}, false) == fail));
}

BOOST_AUTO_TEST_SUITE_END()
