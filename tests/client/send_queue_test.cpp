#include "client/send_queue.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::client;
using namespace std::chrono_literals;

namespace {

const steady_time t0{std::chrono::seconds(1000)};

sealed_batch batch(uint64_t seq, steady_time created = t0) {
  sealed_batch b;
  b.tp = {"t", 0};
  b.sequence = seq;
  b.tokens = {seq * 10};
  b.created = created;
  return b;
}

} // namespace

BOOST_AUTO_TEST_SUITE(send_queue_tests)

BOOST_AUTO_TEST_CASE(one_in_flight_keeps_order_across_retries) {
  send_queue q;
  q.push(batch(1));
  q.push(batch(2));
  q.push(batch(3));
  auto a = q.start_next(1, t0);
  BOOST_REQUIRE(a);
  BOOST_TEST(a->batch->sequence == 1u);
  BOOST_TEST(a->batch->attempts == 1);
  BOOST_TEST(!q.start_next(1, t0)); // only one out at a time
  BOOST_TEST(q.retry(a->id, t0 + 100ms));
  BOOST_TEST(!q.start_next(1, t0 + 50ms)); // backing off
  auto b = q.start_next(1, t0 + 100ms);
  BOOST_REQUIRE(b);
  BOOST_TEST(b->batch->sequence == 1u); // the failed batch again, before 2 and 3
  BOOST_TEST(b->batch->attempts == 2);
  auto done = q.finish(b->id);
  BOOST_REQUIRE(done);
  BOOST_TEST(done->sequence == 1u);
  auto c = q.start_next(1, t0 + 100ms);
  BOOST_REQUIRE(c);
  BOOST_TEST(c->batch->sequence == 2u);
}

BOOST_AUTO_TEST_CASE(stale_answers_are_recognised) {
  send_queue q;
  q.push(batch(1));
  auto a = q.start_next(1, t0);
  BOOST_REQUIRE(a);
  q.retry_all(t0); // connection lost: back in line
  BOOST_TEST(!q.finish(a->id));
  BOOST_TEST(!q.retry(a->id, t0));
  BOOST_TEST(!q.find(a->id));
  auto b = q.start_next(1, t0);
  BOOST_REQUIRE(b);
  BOOST_TEST(b->id != a->id);
  BOOST_TEST(q.find(b->id) == b->batch);
  BOOST_TEST(q.finish(b->id).has_value());
  BOOST_TEST(q.idle());
}

BOOST_AUTO_TEST_CASE(several_in_flight_and_retry_all_restore_sequence_order) {
  send_queue q;
  for (uint64_t s = 1; s <= 4; ++s)
    q.push(batch(s));
  auto a = q.start_next(3, t0);
  auto b = q.start_next(3, t0);
  auto c = q.start_next(3, t0);
  BOOST_REQUIRE((a && b && c));
  BOOST_TEST(!q.start_next(3, t0));
  BOOST_TEST(q.in_flight() == 3u);
  q.retry_all(t0 + 10ms);
  BOOST_TEST(q.in_flight() == 0u);
  BOOST_TEST(q.waiting() == 4u);
  std::vector<uint64_t> order;
  while (auto x = q.start_next(10, t0 + 10ms)) {
    order.push_back(x->batch->sequence);
    q.finish(x->id);
  }
  BOOST_TEST((order == std::vector<uint64_t>{1, 2, 3, 4}));
}

BOOST_AUTO_TEST_CASE(expire_removes_old_waiting_batches) {
  send_queue q;
  q.push(batch(1, t0));
  q.push(batch(2, t0 + 5s));
  auto old = q.expire(t0 + 1s);
  BOOST_REQUIRE(old.size() == 1u);
  BOOST_TEST(old[0].sequence == 1u);
  BOOST_TEST(q.waiting() == 1u);
  BOOST_TEST(q.take_all().size() == 1u);
  BOOST_TEST(q.idle());
}

BOOST_AUTO_TEST_CASE(accepts_tells_whether_the_partition_must_be_muted) {
  send_queue q;
  BOOST_TEST(q.accepts(1)); // idle
  q.push(batch(1));
  BOOST_TEST(!q.accepts(1)); // a batch waits (even before it is started)
  auto a = q.start_next(1, t0);
  BOOST_REQUIRE(a);
  BOOST_TEST(!q.accepts(1)); // the in-flight limit is reached: mute
  BOOST_TEST(q.accepts(2));  // a second slot would be free
  BOOST_TEST(q.retry(a->id, t0 + 100ms));
  BOOST_TEST(q.in_flight() == 0u);
  BOOST_TEST(!q.accepts(1)); // backing off with a batch waiting: still muted
  auto b = q.start_next(1, t0 + 100ms);
  BOOST_REQUIRE(b);
  BOOST_TEST(q.finish(b->id).has_value());
  BOOST_TEST(q.accepts(1)); // the answer arrived: unmute
}

BOOST_AUTO_TEST_CASE(oldest_waiting_and_expire_without_old_batches) {
  send_queue q;
  BOOST_TEST(!q.oldest_waiting());
  q.push(batch(1, t0 + 2s));
  q.push(batch(2, t0 + 3s));
  BOOST_TEST((q.oldest_waiting() == t0 + 2s));
  BOOST_TEST(q.expire(t0 + 1s).empty());
  BOOST_TEST(q.waiting() == 2u);
  auto a = q.start_next(1, t0 + 3s); // in flight: not waiting, never expired here
  BOOST_REQUIRE(a);
  BOOST_TEST((q.oldest_waiting() == t0 + 3s));
  BOOST_TEST(q.expire(t0 + 10s).size() == 1u);
  BOOST_TEST(!q.oldest_waiting());
  BOOST_TEST(q.in_flight() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
