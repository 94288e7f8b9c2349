// __consumer_offsets' replication factor at creation and the errors a failed commit answers.
#include "cluster/offsets_replication.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;
using cafka::protocol::kafka_error;

BOOST_AUTO_TEST_SUITE(offsets_replication)

BOOST_AUTO_TEST_CASE(the_factor_is_capped_at_the_live_brokers) {
  auto three_of_five = replicas_for_offsets_topic(3, 5);
  BOOST_TEST(three_of_five.count == 3);
  BOOST_TEST(!three_of_five.capped);
  auto exactly = replicas_for_offsets_topic(3, 3);
  BOOST_TEST(exactly.count == 3);
  BOOST_TEST(!exactly.capped);
  auto one_node = replicas_for_offsets_topic(3, 1);
  BOOST_TEST(one_node.count == 1);
  BOOST_TEST(one_node.capped);
  auto two_nodes = replicas_for_offsets_topic(3, 2);
  BOOST_TEST(two_nodes.count == 2);
  BOOST_TEST(two_nodes.capped);
  auto factor_one = replicas_for_offsets_topic(1, 3);
  BOOST_TEST(factor_one.count == 1);
  BOOST_TEST(!factor_one.capped);
}

BOOST_AUTO_TEST_CASE(a_capped_creation_says_why) {
  BOOST_TEST(capped_replicas_warning(3, replicas_for_offsets_topic(3, 1))
             == "creating __consumer_offsets with replication factor 1: offsets.topic.replication.factor is 3, "
                "but only 1 broker(s) are live");
}

BOOST_AUTO_TEST_CASE(never_fewer_than_one_replica) {
  BOOST_TEST(replicas_for_offsets_topic(3, 0).count == 1);
  BOOST_TEST(replicas_for_offsets_topic(0, 3).count == 1);
}

BOOST_AUTO_TEST_CASE(append_errors_map_as_kafka_maps_them) {
  BOOST_TEST((offset_commit_error(kafka_error::not_enough_replicas) == kafka_error::coordinator_not_available));
  BOOST_TEST((offset_commit_error(kafka_error::not_enough_replicas_after_append)
             == kafka_error::coordinator_not_available));
  BOOST_TEST((offset_commit_error(kafka_error::unknown_topic_or_partition) == kafka_error::coordinator_not_available));
  BOOST_TEST((offset_commit_error(kafka_error::not_leader_or_follower) == kafka_error::not_coordinator));
  BOOST_TEST((offset_commit_error(kafka_error::kafka_storage_error) == kafka_error::not_coordinator));
  BOOST_TEST((offset_commit_error(kafka_error::message_too_large) == kafka_error::invalid_commit_offset_size));
  BOOST_TEST((offset_commit_error(kafka_error::record_list_too_large) == kafka_error::invalid_commit_offset_size));
  BOOST_TEST((offset_commit_error(kafka_error::request_timed_out) == kafka_error::request_timed_out));
  BOOST_TEST((offset_commit_error(kafka_error::none) == kafka_error::none));
}

BOOST_AUTO_TEST_SUITE_END()
