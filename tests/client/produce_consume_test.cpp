// 10,000 keyed records into a 4-partition topic over loopback (send_sync, futures,
// callbacks; LZ4 off and on), consumed back by one consumer actor from earliest.

#include <atomic>
#include <map>
#include <mutex>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "client/connect.hpp"
#include "client/partitioner.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

BOOST_AUTO_TEST_SUITE(produce_consume)

BOOST_AUTO_TEST_CASE(ten_thousand_keyed_records_round_trip_in_partition_order) {
  temp_dir dir;
  server srv{dir.path};
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", srv.port(), 10s);
  BOOST_REQUIRE_MESSAGE(node, "connect: " << why(node));
  create_topic(sys, *node, "orders", 4);

  constexpr int total = 10000;
  auto key_of = [](int i) { return "key-" + std::to_string(i % 997); };
  auto value_of = [](int i) { return "value-" + std::to_string(i); };
  std::map<int32_t, std::vector<std::string>> expected; // per partition, in send order
  for (int i = 0; i < total; ++i)
    expected[partition_for_key(key_of(i), 4)].push_back(value_of(i));

  std::mutex mtx;
  std::map<std::string, record_metadata> acked; // by value
  std::atomic<int> failures{0};
  auto note = [&](int i, const caf::expected<record_metadata>& md) {
    if (!md) {
      ++failures;
      return;
    }
    std::lock_guard<std::mutex> guard{mtx};
    acked[value_of(i)] = *md;
  };

  { // Uncompressed, through the bootstrap string: sync, futures, callbacks.
    producer_config pc;
    pc.bootstrap_servers = "127.0.0.1:" + std::to_string(srv.port());
    producer p{sys, pc};
    for (int i = 0; i < 100; ++i) {
      auto off = p.send_sync("orders", key_of(i), value_of(i));
      BOOST_REQUIRE_MESSAGE(off, "send_sync: " << why(off));
      std::lock_guard<std::mutex> guard{mtx};
      acked[value_of(i)] = record_metadata{"orders", partition_for_key(key_of(i), 4), *off, -1};
    }
    std::vector<std::pair<int, producer::result_future>> futs;
    for (int i = 100; i < 3000; ++i)
      futs.emplace_back(i, p.send("orders", key_of(i), value_of(i)));
    std::atomic<int> called{0};
    for (int i = 3000; i < 5000; ++i)
      p.send(producer_record{"orders", key_of(i), value_of(i), {}, std::nullopt, std::nullopt},
             [&, i](caf::expected<record_metadata> md) {
               note(i, md);
               ++called;
             });
    BOOST_TEST(!p.flush());
    BOOST_TEST(called.load() == 2000);
    for (auto& [i, f] : futs) {
      BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
      note(i, f.get());
    }
    p.close();
    // After close, sends fail at once.
    auto late = p.send("orders", "k", "v");
    BOOST_REQUIRE(late.wait_for(10s) == std::future_status::ready);
    BOOST_TEST(!late.get());
  }
  { // LZ4, through the node handle from connect(); futures and callbacks interleaved.
    producer_config pc;
    pc.compression = protocol::compression_codec::lz4;
    pc.batch_size = 8192;
    producer p{sys, *node, pc};
    std::vector<std::pair<int, producer::result_future>> futs;
    std::atomic<int> called{0};
    for (int i = 5000; i < total; ++i) {
      if (i % 2 == 0)
        futs.emplace_back(i, p.send("orders", key_of(i), value_of(i)));
      else
        p.send(producer_record{"orders", key_of(i), value_of(i), {}, std::nullopt, std::nullopt},
               [&, i](caf::expected<record_metadata> md) {
                 note(i, md);
                 ++called;
               });
    }
    BOOST_TEST(!p.flush());
    BOOST_TEST(called.load() == 2500);
    for (auto& [i, f] : futs) {
      BOOST_REQUIRE(f.wait_for(60s) == std::future_status::ready);
      note(i, f.get());
    }
  }
  BOOST_TEST(failures.load() == 0);
  BOOST_TEST(acked.size() == static_cast<size_t>(total));

  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  std::vector<subscription> subs;
  for (int32_t p = 0; p < 4; ++p)
    subs.push_back(subscribe(sys, *node, sink, topic_partition{"orders", p}, start_position::earliest()));
  BOOST_TEST(log->wait_until([](sink_log& l) { return l.records >= static_cast<size_t>(total); }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST(log->records == static_cast<size_t>(total));
    BOOST_TEST(log->errors.empty());
    BOOST_TEST(log->codecs.count(protocol::compression_codec::none) == 1u);
    BOOST_TEST(log->codecs.count(protocol::compression_codec::lz4) == 1u);
    for (int32_t p = 0; p < 4; ++p) {
      auto& got = log->by_partition[p];
      BOOST_REQUIRE(got.size() == expected[p].size());
      for (size_t i = 0; i < got.size(); ++i) {
        BOOST_REQUIRE(got[i].offset == static_cast<int64_t>(i));
        BOOST_REQUIRE(*got[i].value == expected[p][i]);
        BOOST_REQUIRE(partition_for_key(*got[i].key, 4) == p);
        auto& md = acked[*got[i].value];
        BOOST_REQUIRE(md.partition == p);
        BOOST_REQUIRE(md.offset == got[i].offset);
        BOOST_REQUIRE(md.topic == "orders");
      }
    }
  }
  for (auto& s : subs)
    stop(s);
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_CASE(null_keys_stick_to_one_partition_per_batch_and_headers_survive) {
  temp_dir dir;
  server srv{dir.path};
  client_system cs;
  auto& sys = cs.sys();
  auto node = connect(sys, "127.0.0.1", srv.port(), 10s);
  BOOST_REQUIRE(node);
  create_topic(sys, *node, "sticky", 3);
  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(srv.port());
  pc.linger = 1h; // batches leave only when full (or on flush)
  pc.batch_size = 1024;
  producer p{sys, pc};
  std::vector<producer::result_future> futs;
  for (int i = 0; i < 300; ++i)
    futs.push_back(p.send("sticky", std::nullopt, std::string(40, 'a' + i % 26),
                          {{"idx", std::to_string(i)}, {"nil", std::nullopt}}, 1700000000000 + i));
  BOOST_TEST(!p.flush());
  std::vector<int32_t> partitions;
  for (auto& f : futs) {
    BOOST_REQUIRE(f.wait_for(30s) == std::future_status::ready);
    auto md = f.get();
    BOOST_REQUIRE(md);
    partitions.push_back(md->partition);
  }
  // Consecutive records share a partition for a whole batch (~1 KiB = ~16 records),
  // then move on; over 300 records more than one partition is used.
  size_t switches = 0;
  for (size_t i = 1; i < partitions.size(); ++i)
    switches += partitions[i] != partitions[i - 1];
  BOOST_TEST(switches >= 1u);
  BOOST_TEST(switches <= 300u / 10u);

  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  std::vector<subscription> subs;
  for (int32_t part = 0; part < 3; ++part)
    subs.push_back(subscribe(sys, *node, sink, topic_partition{"sticky", part}, start_position::earliest()));
  BOOST_TEST(log->wait_until([](sink_log& l) { return l.records >= 300u; }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    for (auto& [part, recs] : log->by_partition)
      for (auto& r : recs) {
        BOOST_REQUIRE(!r.key);
        BOOST_REQUIRE(r.headers.size() == 2u);
        BOOST_REQUIRE(r.headers[0].key == "idx");
        auto idx = std::stoi(*r.headers[0].value);
        BOOST_REQUIRE(!r.headers[1].value);
        BOOST_REQUIRE(r.timestamp == 1700000000000 + idx);
        BOOST_REQUIRE(partitions[static_cast<size_t>(idx)] == part);
      }
  }
  for (auto& s : subs)
    stop(s);
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_SUITE_END()
