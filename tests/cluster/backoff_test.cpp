// Back-off between reconnect attempts to one peer (cluster/backoff.hpp), with `now` given.
#include "cluster/backoff.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(backoff)

namespace {
const reconnect_backoff::time_point t0{std::chrono::seconds(1000)};
} // namespace

BOOST_AUTO_TEST_CASE(delay_doubles_up_to_the_maximum) {
  backoff_policy p{100ms, 5000ms};
  BOOST_TEST(backoff_delay(p, 0).count() == 100);
  BOOST_TEST(backoff_delay(p, 1).count() == 200);
  BOOST_TEST(backoff_delay(p, 5).count() == 3200);
  BOOST_TEST(backoff_delay(p, 6).count() == 5000);
  BOOST_TEST(backoff_delay(p, 4'000'000'000u).count() == 5000);
}

BOOST_AUTO_TEST_CASE(the_first_attempt_is_always_allowed) {
  reconnect_backoff b{{100ms, 5000ms}};
  BOOST_TEST(b.may_try(t0));
  BOOST_TEST(b.may_try(reconnect_backoff::time_point{}));
  BOOST_TEST(b.failures() == 0u);
}

BOOST_AUTO_TEST_CASE(each_failure_waits_longer_until_the_maximum) {
  reconnect_backoff b{{100ms, 5000ms}};
  auto now = t0;
  std::chrono::milliseconds expected[] = {100ms, 200ms, 400ms, 800ms, 1600ms, 3200ms, 5000ms, 5000ms};
  for (auto wait : expected) {
    b.failed(now);
    BOOST_TEST(!b.may_try(now));
    BOOST_TEST(!b.may_try(now + wait - 1ms));
    BOOST_TEST(b.may_try(now + wait));
    BOOST_TEST((b.not_before() == now + wait));
    now += wait;
  }
  BOOST_TEST(b.failures() == 8u);
}

BOOST_AUTO_TEST_CASE(success_resets_to_the_initial_delay) {
  reconnect_backoff b{{100ms, 5000ms}};
  for (int i = 0; i < 10; ++i)
    b.failed(t0);
  BOOST_TEST(!b.may_try(t0 + 4999ms));
  b.succeeded();
  BOOST_TEST(b.may_try(t0)); // a peer that came back is used at once
  b.failed(t0);
  BOOST_TEST(b.may_try(t0 + 100ms));
  BOOST_TEST(!b.may_try(t0 + 99ms));
}

BOOST_AUTO_TEST_CASE(many_failures_keep_the_maximum_delay) {
  reconnect_backoff b{{100ms, 5000ms}};
  for (int i = 0; i < 1000; ++i)
    b.failed(t0);
  BOOST_TEST(b.failures() <= 64u);
  BOOST_TEST(!b.may_try(t0 + 4999ms));
  BOOST_TEST(b.may_try(t0 + 5000ms));
}

BOOST_AUTO_TEST_SUITE_END()
