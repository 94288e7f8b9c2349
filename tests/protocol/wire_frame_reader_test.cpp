#include <boost/test/unit_test.hpp>

#include "protocol/wire/frame_reader.hpp"
#include "test_support.hpp"

using namespace cafka::wire;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::view;
using status = frame_reader::status;

BOOST_AUTO_TEST_SUITE(wire_frame_reader)

BOOST_AUTO_TEST_CASE(splits_frames_delivered_in_pieces) {
  frame_reader fr{100};
  auto stream = from_hex("00000002 aabb 00000000 00000003 010203");
  for (size_t i = 0; i < 5; ++i) // the first five bytes one at a time
    fr.append({stream.data() + i, 1});
  auto first = fr.next();
  BOOST_TEST((first.state == status::need_more));
  fr.append({stream.data() + 5, 1});
  first = fr.next();
  BOOST_REQUIRE((first.state == status::frame));
  BOOST_TEST(first.frame == std::string("\xaa\xbb"));
  fr.append({stream.data() + 6, stream.size() - 6});
  auto empty = fr.next();
  BOOST_REQUIRE((empty.state == status::frame));
  BOOST_TEST(empty.frame.empty());
  auto third = fr.next();
  BOOST_REQUIRE((third.state == status::frame));
  BOOST_TEST(third.frame.size() == 3u);
  BOOST_TEST((fr.next().state == status::need_more));
  fr.compact();
  BOOST_TEST(fr.buffered() == 0u);
}

BOOST_AUTO_TEST_CASE(refuses_oversized_and_negative_sizes_before_the_body_arrives) {
  frame_reader fr{16};
  auto big = from_hex("00000011");
  fr.append(view(big));
  auto r = fr.next();
  BOOST_TEST((r.state == status::too_large));
  BOOST_TEST(r.size == 17);
  frame_reader neg{16};
  auto minus = from_hex("ffffffff");
  neg.append(view(minus));
  BOOST_TEST((neg.next().state == status::too_large));
}

BOOST_AUTO_TEST_CASE(a_frame_of_exactly_the_limit_is_accepted) {
  frame_reader fr{4};
  auto bytes = from_hex("00000004 01020304");
  fr.append(view(bytes));
  BOOST_TEST((fr.next().state == status::frame));
}

BOOST_AUTO_TEST_CASE(compact_keeps_a_partial_frame) {
  frame_reader fr{100};
  auto bytes = from_hex("00000001 ff 00000002 01");
  fr.append(view(bytes));
  BOOST_TEST((fr.next().state == status::frame));
  BOOST_TEST((fr.next().state == status::need_more));
  fr.compact();
  BOOST_TEST(fr.buffered() == 5u);
  auto rest = from_hex("02");
  fr.append(view(rest));
  auto r = fr.next();
  BOOST_REQUIRE((r.state == status::frame));
  BOOST_TEST(r.frame == std::string("\x01\x02"));
}

BOOST_AUTO_TEST_SUITE_END()
