// A real cafka-server process and cafka's C++ client over CAF's middleman: volume,
// restarts, kill -9, and hostile requests.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>

#include "actors/errors.hpp"
#include "client/producer.hpp"
#include "protocol/record_batch.hpp"
#include "tests/integration/native_client.hpp"
#include "tests/integration/server_process.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

topic_description create_topic(caf::actor_system& sys, node_actor node, const std::string& name,
                               int32_t partitions) {
  caf::scoped_actor self{sys};
  topic_description out;
  self->request(node, 30s, create_topic_atom_v, topic_spec{name, partitions, 1, {}})
    .receive([&](topic_description& d) { out = d; },
             [&](caf::error& e) { BOOST_FAIL("create_topic: " << describe(e)); });
  return out;
}

struct acked {
  std::mutex mutex;
  std::map<int32_t, std::map<int64_t, std::string>> by_partition; // offset -> value
  std::atomic<size_t> count{0};
  std::atomic<size_t> failed{0};
};

// Produces `n` keyed records through the producer facade, remembering where each went.
void produce(client::producer& p, const std::string& topic, size_t first, size_t n,
             std::shared_ptr<acked> out) {
  for (size_t i = first; i < first + n; ++i) {
    auto value = "value-" + std::to_string(i);
    p.send(client::producer_record{topic, "key-" + std::to_string(i % 997), value, {}, std::nullopt, std::nullopt},
           [out, value](caf::expected<client::record_metadata> md) {
             if (!md) {
               ++out->failed;
               return;
             }
             std::lock_guard<std::mutex> g{out->mutex};
             out->by_partition[md->partition][md->offset] = value;
             ++out->count;
           });
  }
}

// Every acknowledged record is in `got` at its offset, and each partition's offsets are
// dense from 0.
void check_acked_are_there(acked& sent, test::collected& got) {
  std::lock_guard<std::mutex> g1{sent.mutex};
  std::lock_guard<std::mutex> g2{got.mutex};
  for (auto& [partition, records] : sent.by_partition) {
    auto& list = got.by_partition[partition];
    for (size_t i = 0; i < list.size(); ++i)
      BOOST_REQUIRE_EQUAL(list[i].offset, static_cast<int64_t>(i));
    for (auto& [offset, value] : records) {
      BOOST_REQUIRE_MESSAGE(offset < static_cast<int64_t>(list.size()),
                            "partition " << partition << " lost acknowledged offset " << offset);
      BOOST_REQUIRE_EQUAL(list[static_cast<size_t>(offset)].value, value);
    }
  }
}

} // namespace

BOOST_AUTO_TEST_SUITE(single_node)

BOOST_AUTO_TEST_CASE(hundred_thousand_records_survive_a_restart_in_order) {
  test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  auto server = std::make_unique<test::server_process>(logs);
  constexpr size_t total = 100'000;
  auto sent = std::make_shared<acked>();
  {
    test::client_system c;
    auto node = c.connect(server->caf_port());
    create_topic(c.sys, node, "orders", 4);
    client::producer_config pc;
    pc.batch_size = 64 * 1024;
    client::producer p{c.sys, node, pc};
    produce(p, "orders", 0, total, sent);
    BOOST_REQUIRE(!p.flush());
    p.close();
    BOOST_REQUIRE_EQUAL(sent->count.load(), total);
    BOOST_REQUIRE_EQUAL(sent->by_partition.size(), 4u);
    auto got = std::make_shared<test::collected>();
    auto consumer = test::collect_topic(c.sys, node, "orders", 4, got);
    BOOST_REQUIRE(test::wait_until([&] { return got->size() >= total; }, 120s));
    check_acked_are_there(*sent, *got);
    caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  }
  BOOST_REQUIRE_EQUAL(server->stop(), 0); // SIGTERM: a clean shutdown
  server = std::make_unique<test::server_process>(logs);
  test::client_system c;
  auto node = c.connect(server->caf_port());
  auto again = std::make_shared<test::collected>();
  auto consumer = test::collect_topic(c.sys, node, "orders", 4, again);
  BOOST_REQUIRE(test::wait_until([&] { return again->size() >= total; }, 120s));
  BOOST_TEST(again->size() == total);
  check_acked_are_there(*sent, *again);
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  BOOST_TEST(server->stop() == 0);
}

BOOST_AUTO_TEST_CASE(kill_9_mid_produce_loses_no_acknowledged_record) {
  test::scratch_dir dir;
  auto logs = dir.path + "/logs";
  auto server = std::make_unique<test::server_process>(logs);
  auto sent = std::make_shared<acked>();
  {
    test::client_system c;
    auto node = c.connect(server->caf_port());
    create_topic(c.sys, node, "events", 3);
    client::producer_config pc;
    pc.retries = 0;
    pc.delivery_timeout = 5s;
    pc.request_timeout = 2s;
    client::producer p{c.sys, node, pc};
    std::atomic<bool> stop{false};
    std::atomic<size_t> handed_in{0};
    std::thread writer{[&] {
      // At most 5,000 records outstanding, so slow (sanitizer) builds do not time out.
      for (size_t i = 0; !stop; i += 100) {
        while (!stop && handed_in - sent->count - sent->failed > 5000)
          std::this_thread::sleep_for(1ms);
        produce(p, "events", i, 100, sent);
        handed_in += 100;
      }
    }};
    struct joiner { // joins the writer however this block is left
      std::atomic<bool>& stop;
      std::thread& t;
      ~joiner() {
        stop = true;
        if (t.joinable())
          t.join();
      }
    } join_writer{stop, writer};
    BOOST_REQUIRE(test::wait_until([&] { return sent->count >= 5'000; }, 120s));
    server->kill_hard(); // while records are in flight
    stop = true;
    writer.join();
    p.close(2s);
  }
  BOOST_TEST_MESSAGE("acknowledged before kill -9: " << sent->count.load());
  server = std::make_unique<test::server_process>(logs);
  test::client_system c;
  auto node = c.connect(server->caf_port());
  size_t expected = sent->count;
  auto got = std::make_shared<test::collected>();
  auto consumer = test::collect_topic(c.sys, node, "events", 3, got);
  BOOST_REQUIRE(test::wait_until([&] { return got->size() >= expected; }, 120s));
  check_acked_are_there(*sent, *got);
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  BOOST_TEST(server->stop() == 0);
}

BOOST_AUTO_TEST_CASE(hostile_requests_get_typed_errors_and_the_server_keeps_serving) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs", {"message.max.bytes=20000", "auto.create.topics.enable=false"}};
  test::client_system c;
  auto node = c.connect(server.caf_port());
  create_topic(c.sys, node, "t", 1);
  caf::scoped_actor self{c.sys};
  auto expect_error = [](kafka_error want) {
    return [want](caf::error& e) { BOOST_TEST((to_kafka_error(e) == want), describe(e)); };
  };
  // Unknown topic: in metadata, and when described.
  self->request(node, 10s, metadata_atom_v, metadata_request{{"nope"}, false, true})
    .receive([](cluster_metadata& md) {
               BOOST_REQUIRE_EQUAL(md.topics.size(), 1u);
               BOOST_TEST(md.topics[0].error == protocol::wire_code(kafka_error::unknown_topic_or_partition));
             },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  self->request(node, 10s, describe_atom_v, std::string{"nope"})
    .receive([](topic_description&) { BOOST_FAIL("described an unknown topic"); },
             expect_error(kafka_error::unknown_topic_or_partition));
  // Unknown partition: a subscription reports it to its consumer.
  auto got = std::make_shared<test::collected>();
  auto consumer = test::collect_topic(c.sys, node, "t", 2, got); // partition 1 does not exist
  BOOST_REQUIRE(test::wait_until([&] { std::lock_guard<std::mutex> g{got->mutex}; return !got->errors.empty(); }, 30s));
  {
    std::lock_guard<std::mutex> g{got->mutex};
    BOOST_TEST(got->errors.front().find("UNKNOWN_TOPIC_OR_PARTITION") != std::string::npos, got->errors.front());
  }
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  // The partition actor itself.
  partition_actor partition;
  self->request(node, 10s, metadata_atom_v, metadata_request{{"t"}, false, false})
    .receive([&](cluster_metadata& md) { partition = md.topics.at(0).partitions.at(0).actor; },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_REQUIRE(partition);
  auto batch = [](size_t value_size) {
    return protocol::build_batch({{std::string("k"), std::string(value_size, 'x'), {}, 1000}});
  };
  self->request(partition, 10s, fetch_atom_v, fetch_request{1'000'000, 1 << 20, 1, 0})
    .receive([](fetch_result&) { BOOST_FAIL("fetch out of range succeeded"); },
             expect_error(kafka_error::offset_out_of_range));
  self->request(partition, 10s, produce_atom_v, produce_request{1, batch(50'000)})
    .receive([](produce_result&) { BOOST_FAIL("oversized batch accepted"); },
             expect_error(kafka_error::message_too_large));
  auto corrupt = batch(100);
  corrupt[corrupt.size() - 5] ^= 0x20;
  self->request(partition, 10s, produce_atom_v, produce_request{1, corrupt})
    .receive([](produce_result&) { BOOST_FAIL("batch with a bad CRC accepted"); },
             expect_error(kafka_error::corrupt_message));
  std::vector<char> garbage(100, '\x42');
  self->request(partition, 10s, produce_atom_v, produce_request{1, garbage})
    .receive([](produce_result&) { BOOST_FAIL("garbage accepted"); },
             expect_error(kafka_error::corrupt_message));
  // ... and the server still serves.
  self->request(partition, 10s, produce_atom_v, produce_request{1, batch(100)})
    .receive([](produce_result& r) { BOOST_TEST(r.base_offset == 0); },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  self->request(partition, 10s, fetch_atom_v, fetch_request{0, 1 << 20, 1, 0})
    .receive([](fetch_result& r) { BOOST_TEST(r.high_watermark == 1); },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_TEST(server.stop() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
