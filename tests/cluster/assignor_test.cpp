// The common assignor pieces, the lookup by protocol name, and Kafka's range and round-robin
// assignors against the examples of their javadoc.
#include "cluster/assignor.hpp"

#include <algorithm>

#include <boost/test/unit_test.hpp>

#include "assignor_fixtures.hpp"
#include "cluster/assignor_lookup.hpp"
#include "cluster/range_assignor.hpp"
#include "cluster/round_robin_assignor.hpp"
#include "cluster/sticky_assignor.hpp"
#include "protocol/wire/consumer_protocol.hpp"

using namespace cafka::cluster;
using namespace cafka::cluster::testing;

namespace {

const std::vector<std::string> t0_t1{"t0", "t1"};

} // namespace

BOOST_AUTO_TEST_SUITE(assignor)

BOOST_AUTO_TEST_CASE(java_order_is_byte_order_except_above_u_ffff) {
  BOOST_TEST(java_string_less("C0", "C1"));
  BOOST_TEST(java_string_less("C", "C0"));
  BOOST_TEST(!java_string_less("C0", "C0"));
  BOOST_TEST(java_string_less("Z", "a"));
  const std::string smiley = "\xF0\x9F\x98\x80";      // U+1F600: UTF-16 D83D DE00
  const std::string replacement = "\xEF\xBF\xBD";     // U+FFFD
  const std::string hangul = "\xED\x9F\xBB";          // U+D7FB
  BOOST_TEST(java_string_less("x" + smiley, "x" + replacement));
  BOOST_TEST(!java_string_less("x" + replacement, "x" + smiley));
  BOOST_TEST(std::string("x" + replacement) < std::string("x" + smiley)); // bytes disagree
  BOOST_TEST(java_string_less(hangul, smiley));
  BOOST_TEST(java_string_less("\xF0\x9F\x98\x80", "\xF0\x9F\x98\x81"));
}

BOOST_AUTO_TEST_CASE(static_members_sort_first_by_instance_id) {
  std::vector<assignor_member> ms{member("a", {}), static_member("z", "I1", {}),
                                  static_member("b", "I0", {}), member("A", {}),
                                  member("a", {"repeat"})};
  std::vector<std::string> order;
  for (auto* m : sorted_members(ms))
    order.push_back(m->member_id);
  BOOST_TEST(order == (std::vector<std::string>{"b", "z", "A", "a"}));
  BOOST_TEST(sorted_members(ms)[3]->topics.empty()); // the first "a" counts
}

BOOST_AUTO_TEST_CASE(lookup_by_kafka_protocol_name) {
  BOOST_TEST(find_assignor("range") == &assign_range);
  BOOST_TEST(find_assignor("roundrobin") == &assign_round_robin);
  BOOST_TEST(find_assignor("sticky") == &assign_sticky);
  BOOST_TEST(find_assignor("cooperative-sticky") == &assign_sticky);
  BOOST_TEST(!find_assignor("RoundRobinAssigner")); // kafkajs: not Kafka's name
  BOOST_TEST(!find_assignor("Range"));
  BOOST_TEST(!find_assignor(""));
  auto names = assignor_names();
  BOOST_TEST(names.size() == 4u);
  BOOST_TEST(names.front() == "range");
  for (auto name : names)
    BOOST_TEST(find_assignor(name) != nullptr);
}

// -- range ------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(range_javadoc_example) {
  auto plan = assign_range({member("C0", t0_t1), member("C1", t0_t1)}, {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C0 [t0p0 t0p1 t1p0 t1p1] C1 [t0p2 t1p2]");
}

BOOST_AUTO_TEST_CASE(range_orders_members_by_id_not_input_order) {
  auto plan = assign_range({member("C1", t0_t1), member("C0", t0_t1)}, {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C0 [t0p0 t0p1 t1p0 t1p1] C1 [t0p2 t1p2]");
}

BOOST_AUTO_TEST_CASE(range_static_members_keep_their_ranges_across_new_member_ids) {
  // The javadoc: after a bounce C0 became C3 and C1 became C2; instance ids I0, I1 hold.
  auto plan = assign_range({static_member("C3", "I0", t0_t1), static_member("C2", "I1", t0_t1)},
                           {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C2 [t0p2 t1p2] C3 [t0p0 t0p1 t1p0 t1p1]");
  // Without instance ids the ranges follow the new member ids.
  plan = assign_range({member("C3", t0_t1), member("C2", t0_t1)}, {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C2 [t0p0 t0p1 t1p0 t1p1] C3 [t0p2 t1p2]");
}

BOOST_AUTO_TEST_CASE(range_uneven_counts) {
  auto plan = assign_range({member("a", {"t"}), member("b", {"t"}), member("c", {"t"})},
                           {{"t", 7}});
  BOOST_TEST(show(plan) == "a [tp0 tp1 tp2] b [tp3 tp4] c [tp5 tp6]");
  plan = assign_range({member("a", {"t"}), member("b", {"t"}), member("c", {"t"})}, {{"t", 2}});
  BOOST_TEST(show(plan) == "a [tp0] b [tp1] c []");
}

BOOST_AUTO_TEST_CASE(range_splits_each_topic_among_its_own_subscribers) {
  auto plan = assign_range({member("a", {"t0"}), member("b", t0_t1), member("c", {"t1"})},
                           {{"t0", 4}, {"t1", 3}});
  BOOST_TEST(show(plan) == "a [t0p0 t0p1] b [t0p2 t0p3 t1p0 t1p1] c [t1p2]");
}

BOOST_AUTO_TEST_CASE(range_ignores_topics_that_do_not_exist) {
  auto plan = assign_range({member("a", {"t0", "gone"}), member("b", {"gone", "empty"}),
                            member("c", {})},
                           {{"t0", 2}, {"empty", 0}, {"unsubscribed", 5}});
  BOOST_TEST(show(plan) == "a [t0p0 t0p1] b [] c []");
}

BOOST_AUTO_TEST_CASE(range_of_nobody_is_empty) {
  BOOST_TEST(assign_range({}, {{"t0", 3}}).empty());
}

// -- round robin ------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(round_robin_javadoc_example) {
  auto plan = assign_round_robin({member("C0", t0_t1), member("C1", t0_t1)},
                                 {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C0 [t0p0 t0p2 t1p1] C1 [t0p1 t1p0 t1p2]");
}

BOOST_AUTO_TEST_CASE(round_robin_javadoc_example_with_different_subscriptions) {
  auto plan = assign_round_robin(
      {member("C0", {"t0"}), member("C1", {"t0", "t1"}), member("C2", {"t0", "t1", "t2"})},
      {{"t0", 1}, {"t1", 2}, {"t2", 3}});
  BOOST_TEST(show(plan) == "C0 [t0p0] C1 [t1p0] C2 [t1p1 t2p0 t2p1 t2p2]");
}

BOOST_AUTO_TEST_CASE(round_robin_javadoc_static_membership_example) {
  auto plan = assign_round_robin({member("C0", t0_t1), member("C1", t0_t1), member("C2", t0_t1)},
                                 {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C0 [t0p0 t1p0] C1 [t0p1 t1p1] C2 [t0p2 t1p2]");
  // After a bounce: C0 -> C5, C1 -> C3, C2 -> C4; the plan is shuffled ...
  plan = assign_round_robin({member("C5", t0_t1), member("C3", t0_t1), member("C4", t0_t1)},
                            {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C3 [t0p0 t1p0] C4 [t0p1 t1p1] C5 [t0p2 t1p2]");
  // ... unless instance ids I0, I1, I2 carry the order.
  plan = assign_round_robin({static_member("C5", "I0", t0_t1), static_member("C3", "I1", t0_t1),
                             static_member("C4", "I2", t0_t1)},
                            {{"t0", 3}, {"t1", 3}});
  BOOST_TEST(show(plan) == "C3 [t0p1 t1p1] C4 [t0p2 t1p2] C5 [t0p0 t1p0]");
}

BOOST_AUTO_TEST_CASE(round_robin_deal_continues_across_topics) {
  auto plan = assign_round_robin({member("a", t0_t1), member("b", t0_t1), member("c", t0_t1)},
                                 {{"t0", 2}, {"t1", 2}});
  BOOST_TEST(show(plan) == "a [t0p0 t1p1] b [t0p1] c [t1p0]");
}

BOOST_AUTO_TEST_CASE(round_robin_ignores_topics_that_do_not_exist) {
  auto plan = assign_round_robin(
      {member("a", {"gone"}), member("b", {"t0", "gone"}), member("c", {"t0", "t0"})},
      {{"t0", 3}, {"unsubscribed", 4}, {"empty", 0}});
  BOOST_TEST(show(plan) == "a [] b [t0p0 t0p2] c [t0p1]");
}

BOOST_AUTO_TEST_CASE(round_robin_does_not_depend_on_input_order) {
  std::vector<assignor_member> ms{member("C0", {"t0"}), member("C1", {"t1", "t0"}),
                                  member("C2", {"t2", "t0", "t1"}), member("C3", {"t2"})};
  partition_counts counts{{"t0", 3}, {"t1", 5}, {"t2", 4}};
  auto expected = show(assign_round_robin(ms, counts));
  std::sort(ms.begin(), ms.end(), [](auto& a, auto& b) { return a.member_id < b.member_id; });
  do {
    BOOST_TEST(show(assign_round_robin(ms, counts)) == expected);
  } while (std::next_permutation(ms.begin(), ms.end(), [](auto& a, auto& b) {
    return a.member_id < b.member_id;
  }));
}

// -- with the consumer protocol's bytes -------------------------------------------------------

BOOST_AUTO_TEST_CASE(plan_round_trips_through_the_consumer_protocol) {
  // What the group sees: member ids and subscription bytes (JoinGroup metadata).
  std::vector<std::pair<std::string, std::vector<char>>> joined;
  for (std::string id : {"C1", "C0"}) {
    cafka::wire::consumer_subscription s;
    s.version = 1;
    s.topics = t0_t1;
    std::vector<char> bytes;
    cafka::wire::byte_writer w{bytes};
    encode_consumer_subscription(s, w);
    joined.emplace_back(id, std::move(bytes));
  }
  std::vector<assignor_member> ms;
  for (auto& [id, bytes] : joined) {
    auto s = cafka::wire::decode_consumer_subscription({bytes.data(), bytes.size()});
    BOOST_REQUIRE(s.has_value());
    ms.push_back(member(id, s->topics));
  }
  auto plan = find_assignor("range")(ms, {{"t0", 3}, {"t1", 3}});
  // SyncGroup assignment bytes per member, read back as a client would.
  for (auto& [id, partitions] : plan) {
    cafka::wire::consumer_assignment a;
    for (auto& tp : partitions) {
      if (a.assigned_partitions.empty() || a.assigned_partitions.back().topic != tp.topic)
        a.assigned_partitions.push_back({tp.topic, {}});
      a.assigned_partitions.back().partitions.push_back(tp.partition);
    }
    std::vector<char> bytes;
    cafka::wire::byte_writer w{bytes};
    encode_consumer_assignment(a, w);
    auto read = cafka::wire::decode_consumer_assignment({bytes.data(), bytes.size()});
    BOOST_REQUIRE(read.has_value());
    std::string text;
    for (auto& topic : read->assigned_partitions)
      for (auto p : topic.partitions)
        text += topic.topic + "p" + std::to_string(p) + " ";
    BOOST_TEST(text == (id == "C0" ? "t0p0 t0p1 t1p0 t1p1 " : "t0p2 t1p2 "));
  }
}

BOOST_AUTO_TEST_SUITE_END()
