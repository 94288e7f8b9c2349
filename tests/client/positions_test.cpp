// Start positions (earliest, latest, offset, timestamp) and seek.

#include <atomic>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/connect.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

namespace {

int64_t now_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// Offsets the sink got for partition 0, in order.
std::vector<int64_t> offsets(sink_log& log) {
  std::lock_guard<std::mutex> guard{log.mtx};
  std::vector<int64_t> out;
  for (auto& r : log.by_partition[0])
    out.push_back(r.offset);
  return out;
}

size_t count(sink_log& log) {
  std::lock_guard<std::mutex> guard{log.mtx};
  return log.records;
}

// Polls the subscription's position until it is resolved (bounded).
int64_t resolved_position(caf::actor_system& sys, const subscription& sub) {
  caf::scoped_actor self{sys};
  for (int i = 0; i < 500; ++i) {
    int64_t pos = -1;
    self->request(sub, 5s, caf::get_atom_v).receive([&](int64_t p) { pos = p; }, [](caf::error&) {});
    if (pos >= 0)
      return pos;
    std::this_thread::sleep_for(10ms);
  }
  return -1;
}

struct positions_fixture {
  positions_fixture() : srv(dir.path) {
    auto n = connect(cs.sys(), "127.0.0.1", srv.port(), 10s);
    BOOST_REQUIRE_MESSAGE(n, "connect: " << why(n));
    node = *n;
    create_topic(cs.sys(), node, "pos", 1);
    producer_config pc;
    producer p{cs.sys(), node, pc};
    base = now_ms() - 60000;
    for (int i = 0; i < 20; ++i) {
      auto off = p.send_sync("pos", "k", "v" + std::to_string(i), {}, base + i * 10);
      BOOST_REQUIRE(off);
      BOOST_REQUIRE(*off == i);
    }
  }
  void produce_one(const std::string& value) {
    producer p{cs.sys(), node, producer_config{}};
    BOOST_REQUIRE(p.send_sync("pos", "k", value));
  }
  temp_dir dir;
  server srv;
  client_system cs;
  node_actor node;
  int64_t base = 0;
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(positions, positions_fixture)

BOOST_AUTO_TEST_CASE(start_at_an_offset_then_seek_around) {
  auto& sys = cs.sys();
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  auto sub = subscribe(sys, node, sink, topic_partition{"pos", 0}, start_position::at_offset(5));
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 15u; }));
  auto got = offsets(*log);
  BOOST_REQUIRE(got.size() == 15u);
  BOOST_TEST(got.front() == 5); // records 0..4 of the first batch are skipped
  BOOST_TEST(got.back() == 19);

  // Back to offset 2: everything from there again, in order.
  auto r = seek(sys, sub, start_position::at_offset(2), 10s);
  BOOST_REQUIRE_MESSAGE(r, "seek: " << why(r));
  BOOST_TEST(*r == 2);
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 15u + 18u; }));
  got = offsets(*log);
  for (size_t i = 15; i < got.size(); ++i)
    BOOST_REQUIRE(got[i] == static_cast<int64_t>(i - 15 + 2));

  // By timestamp: the first record at or after base+55 is offset 6 (timestamp base+60).
  r = seek(sys, sub, start_position::at_timestamp(base + 55), 10s);
  BOOST_REQUIRE(r);
  BOOST_TEST(*r == 6);
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 33u + 14u; }));
  got = offsets(*log);
  BOOST_TEST(got[33] == 6);

  // Latest: nothing until something new arrives.
  r = seek(sys, sub, start_position::latest(), 10s);
  BOOST_REQUIRE(r);
  BOOST_TEST(*r == 20);
  produce_one("new");
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 48u; }));
  got = offsets(*log);
  BOOST_TEST(got.size() == 48u);
  BOOST_TEST(got.back() == 20);

  // Earliest.
  r = seek(sys, sub, start_position::earliest(), 10s);
  BOOST_REQUIRE(r);
  BOOST_TEST(*r == 0);
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 48u + 21u; }));
  got = offsets(*log);
  BOOST_TEST(got[48] == 0);

  // Invalid positions are refused without disturbing the subscription.
  r = seek(sys, sub, start_position::at_offset(-3), 10s);
  BOOST_REQUIRE(!r);
  BOOST_TEST((to_kafka_error(r.error()) == kafka_error::invalid_request));
  BOOST_TEST(resolved_position(sys, sub) == 21);
  stop(sub);
  stop_actor(sys, sink);
  BOOST_TEST(log->errors.empty());
}

BOOST_AUTO_TEST_CASE(start_latest_and_by_timestamp) {
  auto& sys = cs.sys();
  auto latest_log = std::make_shared<sink_log>();
  auto latest_sink = spawn_sink(sys, latest_log);
  auto latest = subscribe(sys, node, latest_sink, topic_partition{"pos", 0}, start_position::latest());
  BOOST_TEST(resolved_position(sys, latest) == 20);

  auto ts_log = std::make_shared<sink_log>();
  auto ts_sink = spawn_sink(sys, ts_log);
  auto by_ts = subscribe(sys, node, ts_sink, topic_partition{"pos", 0}, start_position::at_timestamp(base + 100));
  BOOST_REQUIRE(ts_log->wait_until([](sink_log& l) { return l.records >= 10u; }));
  BOOST_TEST(offsets(*ts_log).front() == 10);

  // A timestamp after every record starts at the log end.
  auto future_log = std::make_shared<sink_log>();
  auto future_sink = spawn_sink(sys, future_log);
  auto future = subscribe(sys, node, future_sink, topic_partition{"pos", 0},
                          start_position::at_timestamp(now_ms() + 3600 * 1000));
  BOOST_TEST(resolved_position(sys, future) == 20);

  produce_one("fresh");
  for (auto& log : {latest_log, future_log}) {
    BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 1u; }));
    auto got = offsets(*log);
    BOOST_TEST(got.size() == 1u);
    BOOST_TEST(got.front() == 20);
  }
  BOOST_REQUIRE(ts_log->wait_until([](sink_log& l) { return l.records >= 11u; }));
  BOOST_TEST(count(*ts_log) == 11u);
  for (auto& s : {latest, by_ts, future})
    stop(s);
  for (auto& a : {latest_sink, ts_sink, future_sink})
    stop_actor(sys, a);
}

BOOST_AUTO_TEST_CASE(the_subscription_stops_when_its_consumer_does) {
  auto& sys = cs.sys();
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  auto sub = subscribe(sys, node, sink, topic_partition{"pos", 0}, start_position::earliest());
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 20u; }));
  caf::scoped_actor self{sys};
  self->monitor(sub);
  stop_actor(sys, sink);
  bool down = false;
  self->receive([&](caf::down_msg&) { down = true; }, caf::after(10s) >> [] {});
  BOOST_TEST(down);
}

// A handler's return value is ignored: a consumer that answers with a value is fed too.
BOOST_AUTO_TEST_CASE(a_handler_may_return_a_value) {
  auto& sys = cs.sys();
  auto seen = std::make_shared<std::atomic<int>>(0);
  auto consumer = sys.spawn(
    [](caf::event_based_actor*, std::shared_ptr<std::atomic<int>> seen) -> caf::behavior {
      return {[seen](consumer_records& recs) {
        *seen += static_cast<int>(records(recs).size());
        return static_cast<int32_t>(recs.next_offset);
      }};
    },
    seen);
  fetch_options opts;
  opts.max_bytes = 1;
  auto sub = subscribe(sys, node, consumer, topic_partition{"pos", 0}, start_position::at_offset(15), opts);
  for (int i = 0; i < 1000 && seen->load() < 5; ++i)
    std::this_thread::sleep_for(10ms);
  BOOST_TEST(seen->load() == 5);
  stop(sub);
  stop_actor(sys, consumer);
}

BOOST_AUTO_TEST_SUITE_END()
