// The embedded consumer protocol (subscription v0-v3, assignment v0-v1) against the
// bytes real clients send (kafka-wire-notes.md §2d) and hand-written newer layouts.
#include <boost/test/unit_test.hpp>

#include "protocol/wire/consumer_protocol.hpp"
#include "test_support.hpp"
#include "wire_group_hex.hpp"

using namespace cafka::wire;
using namespace cafka::wire::test;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;

namespace {

std::vector<char> encoded(const consumer_subscription& s) {
  std::vector<char> out;
  byte_writer w{out};
  encode_consumer_subscription(s, w);
  return out;
}

std::vector<char> encoded(const consumer_assignment& a) {
  std::vector<char> out;
  byte_writer w{out};
  encode_consumer_assignment(a, w);
  return out;
}

// "test" partition 3, the owned / assigned partitions of the examples below.
const std::string test_3 = "00000001" + hex_str("test") + "00000001 00000003";

} // namespace

BOOST_AUTO_TEST_SUITE(wire_consumer_protocol)

BOOST_AUTO_TEST_CASE(kafka_pythons_v0_subscription) {
  auto bytes = bytes_of(subscription_v0_test);
  BOOST_REQUIRE(bytes.size() == 16u);
  auto s = decode_consumer_subscription(view(bytes));
  BOOST_REQUIRE(s);
  BOOST_TEST(s->version == 0);
  BOOST_TEST(s->topics == std::vector<std::string>({"test"}));
  BOOST_REQUIRE(s->user_data);
  BOOST_TEST(s->user_data->empty());
  BOOST_TEST(s->owned_partitions.empty());
  BOOST_TEST(s->generation_id == -1);
  BOOST_TEST(!s->rack_id);
  BOOST_TEST(encoded(*s) == bytes);
}

BOOST_AUTO_TEST_CASE(librdkafkas_v1_subscription) {
  auto bytes = bytes_of(subscription_v1_test);
  BOOST_REQUIRE(bytes.size() == 20u);
  auto s = decode_consumer_subscription(view(bytes));
  BOOST_REQUIRE(s);
  BOOST_TEST(s->version == 1);
  BOOST_TEST(s->topics == std::vector<std::string>({"test"}));
  BOOST_TEST(!s->user_data);
  BOOST_TEST(s->owned_partitions.empty());
  BOOST_TEST(encoded(*s) == bytes);
}

BOOST_AUTO_TEST_CASE(v2_subscription_adds_generation_and_v3_rack) {
  auto v2 = bytes_of("0002 00000002" + hex_str("a") + hex_str("test") + "00000002 abcd" +
                     test_3 + "00000007");
  auto s2 = decode_consumer_subscription(view(v2));
  BOOST_REQUIRE(s2);
  BOOST_TEST(s2->topics == std::vector<std::string>({"a", "test"}));
  BOOST_TEST(*s2->user_data == from_hex("abcd"));
  BOOST_REQUIRE(s2->owned_partitions.size() == 1u);
  BOOST_TEST(s2->owned_partitions[0].topic == "test");
  BOOST_TEST(s2->owned_partitions[0].partitions == std::vector<int32_t>({3}));
  BOOST_TEST(s2->generation_id == 7);
  BOOST_TEST(!s2->rack_id);
  BOOST_TEST(encoded(*s2) == v2);

  auto v3 = bytes_of("0003 00000000 ffffffff 00000000 00000008" + hex_str("rack-1"));
  auto s3 = decode_consumer_subscription(view(v3));
  BOOST_REQUIRE(s3);
  BOOST_TEST(s3->generation_id == 8);
  BOOST_TEST(s3->rack_id.value_or("") == "rack-1");
  BOOST_TEST(encoded(*s3) == v3);
  s3->rack_id.reset();
  BOOST_TEST(encoded(*s3) == from_hex("0003 00000000 ffffffff 00000000 00000008 ffff"));
}

BOOST_AUTO_TEST_CASE(a_newer_subscription_is_read_as_v3_ignoring_what_follows) {
  auto v9 = bytes_of("0009 00000001" + hex_str("test") + "ffffffff 00000000 00000002 ffff" +
                     "deadbeef");
  auto s = decode_consumer_subscription(view(v9));
  BOOST_REQUIRE(s);
  BOOST_TEST(s->version == 9);
  BOOST_TEST(s->generation_id == 2);
  BOOST_TEST(!s->rack_id);
  // And a v0 reader ignores v1's owned partitions the same way.
  auto v0_with_more = bytes_of(subscription_v0_test + test_3);
  BOOST_TEST(decode_consumer_subscription(view(v0_with_more))->owned_partitions.empty());
}

BOOST_AUTO_TEST_CASE(subscription_truncated_or_of_negative_version_fails) {
  auto bytes = bytes_of(subscription_v1_test);
  for (size_t n = 0; n < bytes.size(); ++n)
    BOOST_TEST(!decode_consumer_subscription({bytes.data(), n}), "prefix of " << n);
  auto negative = bytes_of("ffff 00000000 ffffffff");
  BOOST_TEST(decode_consumer_subscription(view(negative)).error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(v0_assignment) {
  auto bytes = bytes_of(assignment_v0_test);
  auto a = decode_consumer_assignment(view(bytes));
  BOOST_REQUIRE(a);
  BOOST_TEST(a->version == 0);
  BOOST_REQUIRE(a->assigned_partitions.size() == 1u);
  BOOST_TEST(a->assigned_partitions[0].topic == "test");
  BOOST_TEST(a->assigned_partitions[0].partitions == std::vector<int32_t>({0, 1}));
  BOOST_REQUIRE(a->user_data);
  BOOST_TEST(a->user_data->empty());
  BOOST_TEST(encoded(*a) == bytes);
}

BOOST_AUTO_TEST_CASE(v1_assignment_is_v0_on_the_wire_and_newer_ones_too) {
  consumer_assignment a;
  a.version = 1;
  a.assigned_partitions.push_back({"test", {3}});
  auto bytes = encoded(a);
  BOOST_TEST(bytes == bytes_of("0001" + test_3 + "ffffffff"));
  auto back = decode_consumer_assignment(view(bytes));
  BOOST_REQUIRE(back);
  BOOST_TEST(back->version == 1);
  BOOST_TEST(!back->user_data);

  auto v3 = bytes_of("0003" + test_3 + "00000001 ee" + "0000002a");
  auto newer = decode_consumer_assignment(view(v3));
  BOOST_REQUIRE(newer);
  BOOST_TEST(*newer->user_data == from_hex("ee"));
}

BOOST_AUTO_TEST_CASE(empty_or_truncated_assignment_fails) {
  BOOST_TEST(decode_consumer_assignment({}).error() == err(errc::truncated));
  auto bytes = bytes_of(assignment_v0_test);
  for (size_t n = 1; n < bytes.size(); ++n)
    BOOST_TEST(!decode_consumer_assignment({bytes.data(), n}), "prefix of " << n);
}

BOOST_AUTO_TEST_SUITE_END()
