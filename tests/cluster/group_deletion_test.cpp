// DeleteGroups' and OffsetDelete's rules (cluster/group_deletion.hpp) on groups driven
// through cluster/group_state.
#include "cluster/group_deletion.hpp"

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"
#include "protocol/wire/consumer_protocol.hpp"

using namespace group_test;
using cafka::storage::topic_partition;

namespace {

// A consumer's JoinGroup whose "range" metadata is a real subscription to `topics`.
join_request subscriber(const std::string& client, const std::vector<std::string>& topics) {
  auto r = consumer_join("", client);
  cafka::wire::consumer_subscription s;
  s.topics = topics;
  group_bytes metadata;
  cafka::protocol::byte_writer w{metadata};
  cafka::wire::encode_consumer_subscription(s, w);
  r.protocols = {{"range", metadata}};
  return r;
}

// Lets the group's initial delay pass until `join` is answered.
void complete(driver& d, uint64_t join) {
  for (int i = 0; i < 10 && !d.answered(join); ++i) {
    BOOST_REQUIRE(d.g.next_deadline().has_value());
    d.tick(*d.g.next_deadline());
  }
  BOOST_REQUIRE(d.answered(join));
}

const std::vector<topic_partition> asked{{"orders", 0}, {"audit", 1}};

} // namespace

BOOST_AUTO_TEST_SUITE(group_deletion)

BOOST_AUTO_TEST_CASE(only_an_empty_group_may_be_deleted) {
  driver d;
  BOOST_TEST(cafka::cluster::group_deletion_error(d.g) == kafka_error::none);
  complete(d, d.join(subscriber("a", {"orders"}), 0));
  BOOST_TEST(cafka::cluster::group_deletion_error(d.g) == kafka_error::non_empty_group);
  d.mark_dead();
  BOOST_TEST(cafka::cluster::group_deletion_error(d.g) == kafka_error::group_id_not_found);
}

BOOST_AUTO_TEST_CASE(an_empty_group_loses_every_offset_asked_for) {
  driver d;
  auto plan = cafka::cluster::plan_offset_deletion(d.g, asked);
  BOOST_TEST(plan.group_error == kafka_error::none);
  BOOST_TEST(plan.to_delete == asked);
  BOOST_REQUIRE(plan.partitions.size() == 2u);
  BOOST_TEST(plan.partitions[1].second == kafka_error::none);
}

BOOST_AUTO_TEST_CASE(a_consumer_group_keeps_the_offsets_of_subscribed_topics) {
  driver d;
  complete(d, d.join(subscriber("a", {"orders"}), 0));
  BOOST_TEST((cafka::cluster::subscribed_topics(d.g) == std::set<std::string>{"orders"}));
  auto plan = cafka::cluster::plan_offset_deletion(d.g, asked);
  BOOST_TEST(plan.group_error == kafka_error::none);
  BOOST_REQUIRE(plan.partitions.size() == 2u);
  BOOST_TEST(plan.partitions[0].second == kafka_error::group_subscribed_to_topic);
  BOOST_TEST(plan.partitions[1].second == kafka_error::none);
  BOOST_TEST((plan.to_delete == std::vector<topic_partition>{{"audit", 1}}));
}

BOOST_AUTO_TEST_CASE(a_group_of_another_protocol_type_with_members_refuses) {
  driver d;
  auto join = consumer_join("", "a");
  join.protocol_type = "connect";
  complete(d, d.join(join, 0));
  auto plan = cafka::cluster::plan_offset_deletion(d.g, asked);
  BOOST_TEST(plan.group_error == kafka_error::non_empty_group);
  BOOST_TEST(plan.to_delete.empty());
  d.mark_dead();
  BOOST_TEST(cafka::cluster::plan_offset_deletion(d.g, asked).group_error == kafka_error::group_id_not_found);
}

BOOST_AUTO_TEST_SUITE_END()
