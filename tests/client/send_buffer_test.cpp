// The hand-over buffer between producer::send() and the producer actor, and the
// exactly-once completions (pure logic; one test uses threads, none asserts on timing).

#include "client/send_buffer.hpp"

#include <map>
#include <thread>

#include <boost/test/unit_test.hpp>

#include <caf/sec.hpp>

using namespace cafka::client;

namespace {

// The hand-over time the tests pass in (the producer passes its actor system's clock).
const auto t0 = std::chrono::steady_clock::time_point{} + std::chrono::seconds(7);

producer_record record(const std::string& value) {
  return producer_record{"t", std::nullopt, value, {}, std::nullopt, std::nullopt};
}

// Counts the calls of every index and remembers the last error.
struct calls {
  std::map<size_t, int> by_index;
  caf::error last_error;
  bulk_callback callback() {
    return [this](size_t i, const caf::expected<record_metadata>& res) {
      ++by_index[i];
      if (!res)
        last_error = res.error();
    };
  }
};

// All records of the chunks, in order.
std::vector<std::string> values(const std::vector<send_chunk>& chunks) {
  std::vector<std::string> out;
  for (auto& c : chunks)
    for (auto& r : c.records)
      out.push_back(*r.value);
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(send_buffer_tests)

BOOST_AUTO_TEST_CASE(a_completion_reports_once_and_on_destruction_if_never_called) {
  int called = 0;
  caf::error err;
  {
    record_completion c{[&](caf::expected<record_metadata> res) {
      ++called;
      if (!res)
        err = res.error();
    }};
    BOOST_TEST(static_cast<bool>(c));
    c(record_metadata{"t", 0, 7, 1});
    BOOST_TEST(!c);
    c(record_metadata{"t", 0, 8, 1}); // ignored
  }
  BOOST_TEST(called == 1);
  BOOST_TEST(!err);
  {
    record_completion c{[&](caf::expected<record_metadata> res) {
      ++called;
      if (!res)
        err = res.error();
    }};
    record_completion moved{std::move(c)};
    BOOST_TEST(!c); // moved from: reports nothing
  } // `moved` is destroyed uncalled
  BOOST_TEST(called == 2);
  BOOST_TEST((err == caf::sec::request_receiver_down));
}

BOOST_AUTO_TEST_CASE(only_the_push_that_finds_the_buffer_idle_notifies) {
  send_buffer buf;
  int done = 0;
  auto push_one = [&](const std::string& v) {
    auto r = record(v);
    record_completion c{[&](caf::expected<record_metadata>) { ++done; }};
    return buf.push(r, c, t0);
  };
  BOOST_TEST((push_one("a") == send_buffer::push_result::notify));
  BOOST_TEST((push_one("b") == send_buffer::push_result::queued));
  calls bulk;
  std::vector<producer_record> recs{record("c"), record("d")};
  BOOST_TEST((buf.push(recs, std::make_shared<const bulk_callback>(bulk.callback()), t0)
              == send_buffer::push_result::queued));
  BOOST_TEST(recs.empty()); // moved in whole
  BOOST_TEST((push_one("e") == send_buffer::push_result::queued));
  BOOST_TEST(buf.size() == 5u);
  BOOST_TEST(buf.pushed() == 5u);

  std::vector<send_chunk> taken;
  BOOST_TEST(buf.take(taken));
  BOOST_TEST((values(taken) == std::vector<std::string>{"a", "b", "c", "d", "e"}));
  BOOST_TEST(taken.size() == 3u); // singles, the bulk vector, singles
  for (auto& c : taken) // stamped with the caller's time, not the real clock
    BOOST_TEST((c.handed_in == t0));
  BOOST_TEST(buf.size() == 0u);
  // Idle again: the next push notifies; an empty take does not count.
  std::vector<send_chunk> none;
  BOOST_TEST(!buf.take(none));
  BOOST_TEST((push_one("f") == send_buffer::push_result::notify));
  BOOST_TEST(buf.pushed() == 6u);

  // Completions are taken in order; the records stay for the taker.
  for (auto& c : taken)
    while (c.taken < c.records.size())
      c.take_completion()(record_metadata{"t", 0, 1, 1});
  BOOST_TEST(done == 3);
  BOOST_TEST(bulk.by_index.size() == 2u);
  BOOST_TEST(bulk.by_index[0] == 1);
  BOOST_TEST(bulk.by_index[1] == 1);
  BOOST_TEST(!bulk.last_error);
}

BOOST_AUTO_TEST_CASE(an_empty_bulk_queues_nothing) {
  send_buffer buf;
  calls bulk;
  std::vector<producer_record> recs;
  BOOST_TEST((buf.push(recs, std::make_shared<const bulk_callback>(bulk.callback()), t0)
              == send_buffer::push_result::queued));
  BOOST_TEST(buf.size() == 0u);
  BOOST_TEST(bulk.by_index.empty());
}

BOOST_AUTO_TEST_CASE(a_chunk_dropped_half_done_fails_the_rest_exactly_once) {
  send_buffer buf;
  calls bulk;
  std::vector<producer_record> recs{record("a"), record("b"), record("c")};
  buf.push(recs, std::make_shared<const bulk_callback>(bulk.callback()), t0);
  {
    std::vector<send_chunk> taken;
    BOOST_REQUIRE(buf.take(taken));
    taken[0].take_completion()(record_metadata{"t", 0, 1, 1}); // record 0 succeeds
  } // records 1 and 2 were never taken
  BOOST_TEST(bulk.by_index.size() == 3u);
  for (auto& [i, n] : bulk.by_index)
    BOOST_TEST(n == 1);
  BOOST_TEST((bulk.last_error == caf::sec::request_receiver_down));
}

BOOST_AUTO_TEST_CASE(close_refuses_later_pushes_and_hands_back_the_rest) {
  send_buffer buf;
  int failed = 0;
  auto push_one = [&](const std::string& v) {
    auto r = record(v);
    record_completion c{[&](caf::expected<record_metadata> res) { failed += res ? 0 : 1; }};
    auto res = buf.push(r, c, t0);
    if (res == send_buffer::push_result::closed) {
      BOOST_TEST(*r.value == v); // untouched: still the caller's
      BOOST_TEST(static_cast<bool>(c));
      c(caf::make_error(caf::sec::request_receiver_down));
    }
    return res;
  };
  push_one("a");
  push_one("b");
  {
    std::vector<send_chunk> left;
    buf.close(left);
    BOOST_TEST((values(left) == std::vector<std::string>{"a", "b"}));
  } // destroyed untaken: both fail
  BOOST_TEST(failed == 2);
  BOOST_TEST((push_one("c") == send_buffer::push_result::closed));
  BOOST_TEST(failed == 3);
  calls bulk;
  std::vector<producer_record> recs{record("d")};
  BOOST_TEST((buf.push(recs, std::make_shared<const bulk_callback>(bulk.callback()), t0)
              == send_buffer::push_result::closed));
  BOOST_TEST(recs.size() == 1u); // untouched
  BOOST_TEST(bulk.by_index.empty());
}

BOOST_AUTO_TEST_CASE(concurrent_senders_keep_their_own_order) {
  send_buffer buf;
  constexpr int threads = 4;
  constexpr int per_thread = 5000;
  std::vector<std::thread> senders;
  for (int t = 0; t < threads; ++t)
    senders.emplace_back([&buf, t] {
      for (int i = 0; i < per_thread; ++i) {
        if (i % 100 == 0) { // some bulk sends in between
          std::vector<producer_record> recs;
          for (int j = 0; j < 10; ++j, ++i)
            recs.push_back(record(std::to_string(t) + ":" + std::to_string(i)));
          --i;
          buf.push(recs, std::make_shared<const bulk_callback>([](size_t, const caf::expected<record_metadata>&) {}), t0);
          continue;
        }
        auto r = record(std::to_string(t) + ":" + std::to_string(i));
        record_completion c{[](caf::expected<record_metadata>) {}};
        buf.push(r, c, t0);
      }
    });
  std::vector<std::string> got;
  size_t notifications_needed = 0;
  auto drain = [&] {
    std::vector<send_chunk> chunks;
    if (buf.take(chunks)) {
      ++notifications_needed;
      for (auto& v : values(chunks))
        got.push_back(v);
      for (auto& c : chunks)
        while (c.taken < c.records.size())
          c.take_completion()(record_metadata{"t", 0, 0, 0});
    }
  };
  while (got.size() < static_cast<size_t>(threads * per_thread)) {
    drain();
    std::this_thread::yield();
  }
  for (auto& s : senders)
    s.join();
  drain();
  BOOST_TEST(got.size() == static_cast<size_t>(threads * per_thread));
  std::map<int, int> next; // per thread: the next index expected
  for (auto& v : got) {
    auto colon = v.find(':');
    auto t = std::stoi(v.substr(0, colon));
    auto i = std::stoi(v.substr(colon + 1));
    BOOST_REQUIRE_MESSAGE(i == next[t], "thread " << t << ": got " << i << ", expected " << next[t]);
    next[t] = i + 1;
  }
  BOOST_TEST(buf.pushed() == static_cast<uint64_t>(threads * per_thread));
}

BOOST_AUTO_TEST_SUITE_END()
