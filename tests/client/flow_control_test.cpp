// A slow consumer is never flooded: the fetcher issues its next fetch only after the
// consumer answered the previous consumer_records.

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "client/connect.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(flow_control)

BOOST_AUTO_TEST_CASE(a_slow_consumer_never_has_more_than_one_batch_outstanding) {
  temp_dir dir;
  server srv{dir.path};
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", srv.port(), 10s);
  BOOST_REQUIRE_MESSAGE(node, "connect: " << why(node));
  create_topic(sys, *node, "slow", 1);
  {
    producer_config pc;
    pc.batch_size = 256; // many small batches
    pc.linger = 0ms;
    producer p{sys, *node, pc};
    for (int i = 0; i < 400; ++i)
      p.send("slow", "k" + std::to_string(i), std::string(30, 'x'));
    BOOST_TEST(!p.flush());
  }
  auto log = std::make_shared<sink_log>();
  // Each batch is acknowledged 5 ms after it arrived (a response promise): meanwhile a
  // fetcher that did not wait would already have delivered the next ones.
  auto sink = spawn_sink(sys, log, 5ms);
  fetch_options opts;
  opts.max_bytes = 1; // one batch per fetch
  auto sub = subscribe(sys, *node, sink, topic_partition{"slow", 0}, start_position::earliest(), opts);
  BOOST_TEST(log->wait_until([](sink_log& l) { return l.records >= 400u; }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->records == 400u);
    BOOST_TEST(log->deliveries >= 20u);
    BOOST_TEST(log->max_outstanding == 1);
    auto& got = log->by_partition[0];
    for (size_t i = 0; i < got.size(); ++i)
      BOOST_REQUIRE(got[i].offset == static_cast<int64_t>(i));
  }
  // Records produced while the consumer is busy arrive too, still one batch at a time.
  {
    producer_config pc;
    pc.batch_size = 256;
    pc.linger = 0ms;
    producer p{sys, *node, pc};
    for (int i = 0; i < 100; ++i)
      p.send("slow", "late", std::string(30, 'y'));
    BOOST_TEST(!p.flush());
  }
  BOOST_TEST(log->wait_until([](sink_log& l) { return l.records >= 500u; }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->max_outstanding == 1);
  }
  stop(sub);
  stop_actor(sys, sink);
}

// The common case: an ordinary handler that returns void (here after blocking its
// thread for a while) acknowledges the batch by returning.
BOOST_AUTO_TEST_CASE(a_void_handler_acknowledges_by_returning) {
  temp_dir dir;
  server srv{dir.path};
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", srv.port(), 10s);
  BOOST_REQUIRE(node);
  create_topic(sys, *node, "blocking", 1);
  {
    producer_config pc;
    pc.batch_size = 200;
    producer p{sys, *node, pc};
    for (int i = 0; i < 100; ++i)
      p.send("blocking", std::nullopt, std::string(30, 'z'));
    BOOST_TEST(!p.flush());
  }
  struct counts {
    std::atomic<int> records{0};
  };
  auto c = std::make_shared<counts>();
  auto consumer = sys.spawn([](caf::event_based_actor*, std::shared_ptr<counts> c) -> caf::behavior {
    return {
      [c](consumer_records& recs) {
        std::this_thread::sleep_for(2ms);
        c->records += static_cast<int>(records(recs).size());
      },
    };
  }, c);
  fetch_options opts;
  opts.max_bytes = 1;
  auto sub = subscribe(sys, *node, consumer, topic_partition{"blocking", 0}, start_position::earliest(), opts);
  for (int i = 0; i < 3000 && c->records.load() < 100; ++i)
    std::this_thread::sleep_for(10ms);
  BOOST_TEST(c->records.load() == 100);
  stop(sub);
  stop_actor(sys, consumer);
}

BOOST_AUTO_TEST_SUITE_END()
