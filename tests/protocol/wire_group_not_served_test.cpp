// Until there is a coordinator every group request is answered with
// COORDINATOR_NOT_AVAILABLE (15) in its version's exact response layout. That every group
// sample is answered and no truncation of one is, is checked in wire_samples_test.cpp.
#include <boost/test/unit_test.hpp>

#include <system_error>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/not_yet_served.hpp"
#include "test_support.hpp"
#include "wire_group_hex.hpp"

using namespace cafka::wire;
using namespace cafka::wire::test;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

// The not-available answer to a request given as hex.
std::vector<char> answer(api_key key, int16_t version, const std::string& request_hex) {
  auto body = from_hex(request_hex);
  std::vector<char> out;
  byte_writer w{out};
  auto st = encode_coordinator_not_available(static_cast<int16_t>(key), version, view(body), w);
  BOOST_TEST(static_cast<bool>(st), "decoding the request: " << st.error().message());
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_group_not_served)

BOOST_AUTO_TEST_CASE(another_api_is_not_answered) {
  std::vector<char> out;
  byte_writer w{out};
  auto st = encode_coordinator_not_available(static_cast<int16_t>(api_key::metadata), 1, {}, w);
  BOOST_TEST(st.error() == std::make_error_code(std::errc::not_supported));
  BOOST_TEST(out.empty());
}

BOOST_AUTO_TEST_CASE(find_coordinator_answers_with_no_node) {
  BOOST_TEST(answer(api_key::find_coordinator, 0, group) ==
             from_hex("000f ffffffff 0000 ffffffff"));
  BOOST_TEST(answer(api_key::find_coordinator, 2, group + "00") ==
             from_hex("00000000 000f ffff ffffffff 0000 ffffffff"));
}

BOOST_AUTO_TEST_CASE(join_group_answers_in_each_layout) {
  auto v0 = group + "00002710" + hex_str("") + hex_str("consumer") + "00000001" +
            hex_str("range") + hex_bytes(subscription_v0_test);
  // error, generation -1, protocol "", leader "", member id "", no members
  BOOST_TEST(answer(api_key::join_group, 0, v0) ==
             from_hex("000f ffffffff 0000 0000 0000 00000000"));
  auto v1 = group + "00002710 000493e0" + hex_str("") + hex_str("consumer") + "00000000";
  BOOST_TEST(answer(api_key::join_group, 1, v1) ==
             from_hex("000f ffffffff 0000 0000 0000 00000000"));
  BOOST_TEST(answer(api_key::join_group, 2, v1) ==
             from_hex("00000000 000f ffffffff 0000 0000 0000 00000000"));
  auto v5 = group + "0000afc8 000493e0" + hex_str("") + "ffff" + hex_str("consumer") +
            "00000001" + hex_str("range") + hex_bytes(subscription_v1_test);
  BOOST_TEST(answer(api_key::join_group, 5, v5) ==
             from_hex("00000000 000f ffffffff 0000 0000 0000 00000000"));
}

BOOST_AUTO_TEST_CASE(sync_heartbeat_and_leave_answer_in_each_layout) {
  auto sync = group + "00000001" + hex_str("m-1") + "00000000";
  BOOST_TEST(answer(api_key::sync_group, 0, sync) == from_hex("000f 00000000"));
  BOOST_TEST(answer(api_key::sync_group, 1, sync) == from_hex("00000000 000f 00000000"));
  BOOST_TEST(answer(api_key::sync_group, 3, group + "00000001" + hex_str("m-1") + "ffff" +
                                              "00000000") == from_hex("00000000 000f 00000000"));
  auto beat = group + "00000001" + hex_str("m-1");
  BOOST_TEST(answer(api_key::heartbeat, 0, beat) == from_hex("000f"));
  BOOST_TEST(answer(api_key::heartbeat, 3, beat + hex_str("static-1")) ==
             from_hex("00000000 000f"));
  auto leave = group + hex_str("m-1");
  BOOST_TEST(answer(api_key::leave_group, 0, leave) == from_hex("000f"));
  BOOST_TEST(answer(api_key::leave_group, 1, leave) == from_hex("00000000 000f"));
}

BOOST_AUTO_TEST_CASE(offset_commit_answers_every_partition) {
  auto topics = "00000002" + hex_str("a") + "00000002" + "00000000 0000000000000001" +
                hex_str("") + "00000005 0000000000000002 ffff" + hex_str("b") + "00000000";
  auto expected_topics = "00000002" + hex_str("a") + "00000002 00000000 000f 00000005 000f" +
                         hex_str("b") + "00000000";
  BOOST_TEST(answer(api_key::offset_commit, 2,
                    group + "00000001" + hex_str("m-1") + "ffffffffffffffff" + topics) ==
             bytes_of(expected_topics));
  BOOST_TEST(answer(api_key::offset_commit, 3,
                    group + "00000001" + hex_str("m-1") + "ffffffffffffffff" + topics) ==
             bytes_of("00000000" + expected_topics));
  auto v7 = group + "00000001" + hex_str("m-1") + "ffff" + "00000001" + hex_str("a") +
            "00000001 00000009 0000000000000001 ffffffff ffff";
  BOOST_TEST(answer(api_key::offset_commit, 7, v7) ==
             bytes_of("00000000 00000001" + hex_str("a") + "00000001 00000009 000f"));
}

BOOST_AUTO_TEST_CASE(offset_fetch_answers_every_partition_and_at_the_top) {
  auto request = group + "00000001" + hex_str("test") + "00000002 00000000 00000001";
  // offset -1, metadata "" and error 15 per partition
  auto partitions = "00000001" + hex_str("test") + "00000002" +
                    "00000000 ffffffffffffffff 0000 000f" +
                    "00000001 ffffffffffffffff 0000 000f";
  BOOST_TEST(answer(api_key::offset_fetch, 1, request) == bytes_of(partitions));
  BOOST_TEST(answer(api_key::offset_fetch, 2, request) == bytes_of(partitions + "000f"));
  BOOST_TEST(answer(api_key::offset_fetch, 3, request) ==
             bytes_of("00000000" + partitions + "000f"));
  BOOST_TEST(answer(api_key::offset_fetch, 5, request) ==
             bytes_of("00000000 00000001" + hex_str("test") + "00000002" +
                      "00000000 ffffffffffffffff ffffffff 0000 000f" +
                      "00000001 ffffffffffffffff ffffffff 0000 000f" + "000f"));
  // All topics: nothing to echo, the top-level error says it all.
  BOOST_TEST(answer(api_key::offset_fetch, 2, group + "ffffffff") == from_hex("00000000 000f"));
  BOOST_TEST(answer(api_key::offset_fetch, 4, group + "ffffffff") ==
             from_hex("00000000 00000000 000f"));
}

BOOST_AUTO_TEST_SUITE_END()
