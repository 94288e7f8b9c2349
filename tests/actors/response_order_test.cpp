// response_order is pure: no actor system needed.
#include <boost/test/unit_test.hpp>

#include <string>

#include "actors/response_order.hpp"

using cafka::response_order;

namespace {

response_order::frame bytes(const std::string& s) { return {s.begin(), s.end()}; }

struct recorder {
  std::string written;
  void operator()(const response_order::frame& f) { written.append(f.begin(), f.end()); }
};

} // namespace

BOOST_AUTO_TEST_SUITE(response_order_suite)

BOOST_AUTO_TEST_CASE(later_responses_wait_for_earlier_ones) {
  response_order order;
  auto a = order.reserve(), b = order.reserve(), c = order.reserve();
  recorder out;
  order.complete(c, bytes("C"), std::ref(out));
  order.complete(b, bytes("B"), std::ref(out));
  BOOST_TEST(out.written == "");
  BOOST_TEST(order.in_flight() == 3u);
  order.complete(a, bytes("A"), std::ref(out));
  BOOST_TEST(out.written == "ABC");
  BOOST_TEST(order.in_flight() == 0u);
}

BOOST_AUTO_TEST_CASE(a_slot_without_response_is_skipped) {
  response_order order;
  auto a = order.reserve(), b = order.reserve();
  recorder out;
  order.complete(b, bytes("B"), std::ref(out));
  order.complete(a, std::nullopt, std::ref(out));
  BOOST_TEST(out.written == "B");
}

BOOST_AUTO_TEST_SUITE_END()
