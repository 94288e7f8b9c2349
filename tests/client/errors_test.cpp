// Typed errors: unknown topics, records too large (broker and client side), bad
// partitions, offset out of range (both policies), nothing listening, acks=0.

#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

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

// A loopback port nobody listens on (bound once, then released).
uint16_t unused_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

kafka_error code(const caf::error& err) {
  return to_kafka_error(err);
}

struct errors_fixture {
  errors_fixture()
    : srv(dir.path, 0, [](config::server_config& c) { c.message_max_bytes = 4096; }) {
    auto n = connect(cs.sys(), "127.0.0.1", srv.port(), 10s);
    BOOST_REQUIRE_MESSAGE(n, "connect: " << why(n));
    node = *n;
  }
  temp_dir dir;
  server srv;
  client_system cs;
  node_actor node;
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(errors, errors_fixture)

BOOST_AUTO_TEST_CASE(consuming_an_unknown_topic_is_a_typed_error) {
  auto& sys = cs.sys();
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  auto sub = subscribe(sys, node, sink, topic_partition{"no-such-topic", 0}, start_position::earliest());
  caf::scoped_actor self{sys};
  self->monitor(sub);
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return !l.errors.empty(); }, 30s));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST((code(log->errors[0].error) == kafka_error::unknown_topic_or_partition));
    BOOST_TEST(log->errors[0].tp.topic == "no-such-topic");
  }
  // The subscription stopped with that error as its exit reason.
  caf::error reason;
  self->receive([&](caf::down_msg& dm) { reason = dm.reason; },
                caf::after(10s) >> [] { BOOST_ERROR("the subscription did not stop"); });
  BOOST_TEST((code(reason) == kafka_error::unknown_topic_or_partition));
  // A partition beyond the topic's is the same error.
  create_topic(sys, node, "one", 1);
  auto sub2 = subscribe(sys, node, sink, topic_partition{"one", 3}, start_position::earliest());
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.errors.size() >= 2u; }, 30s));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST((code(log->errors[1].error) == kafka_error::unknown_topic_or_partition));
  }
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_CASE(a_batch_larger_than_message_max_bytes_is_message_too_large) {
  auto& sys = cs.sys();
  producer p{sys, node, producer_config{}};
  auto big = p.send_sync("big", "k", std::string(10000, 'x'));
  BOOST_REQUIRE(!big);
  BOOST_TEST((code(big.error()) == kafka_error::message_too_large));
  // The producer is still fine for records that fit.
  auto small = p.send_sync("big", "k", std::string(100, 'x'));
  BOOST_REQUIRE_MESSAGE(small, "small: " << why(small));
  // Through the actor interface as well.
  caf::scoped_actor self{sys};
  caf::error err;
  self->request(p.actor(), 30s, send_atom_v, producer_record{"big", std::nullopt, std::string(8000, 'y'), {}, std::nullopt, std::nullopt})
    .receive([](record_metadata&) { BOOST_ERROR("an oversized record was accepted"); },
             [&](caf::error& e) { err = e; });
  BOOST_TEST((code(err) == kafka_error::message_too_large));
}

BOOST_AUTO_TEST_CASE(a_record_larger_than_max_request_size_fails_before_sending) {
  producer_config pc;
  pc.max_request_size = 1000;
  producer p{cs.sys(), node, pc};
  auto r = p.send_sync("local", "k", std::string(2000, 'x'));
  BOOST_REQUIRE(!r);
  BOOST_TEST((code(r.error()) == kafka_error::message_too_large));
  BOOST_TEST(describe(r.error()).find("max_request_size") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(bad_topics_and_partitions_fail_the_send) {
  auto& sys = cs.sys();
  create_topic(sys, node, "single", 1);
  producer p{sys, node, producer_config{}};
  producer_record rec{"single", "k", "v", {}, std::nullopt, 5};
  auto r = p.send_sync(rec);
  BOOST_REQUIRE(!r);
  BOOST_TEST((code(r.error()) == kafka_error::unknown_topic_or_partition));
  r = p.send_sync("bad topic name!", "k", "v");
  BOOST_REQUIRE(!r);
  BOOST_TEST((code(r.error()) == kafka_error::invalid_topic_exception));
  r = p.send_sync("", "k", "v");
  BOOST_REQUIRE(!r);
  BOOST_TEST((code(r.error()) == kafka_error::invalid_topic_exception));
  BOOST_TEST(static_cast<bool>(p.send_sync("single", "k", "v")));
}

BOOST_AUTO_TEST_CASE(out_of_range_offsets_follow_the_reset_policy) {
  auto& sys = cs.sys();
  create_topic(sys, node, "short", 1);
  {
    producer p{sys, node, producer_config{}};
    for (int i = 0; i < 3; ++i)
      BOOST_REQUIRE(p.send_sync("short", "k", std::to_string(i)));
  }
  // none: consumer_error, then the subscription waits for a seek.
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  auto sub = subscribe(sys, node, sink, topic_partition{"short", 0}, start_position::at_offset(1000));
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return !l.errors.empty(); }, 30s));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    BOOST_TEST((code(log->errors[0].error) == kafka_error::offset_out_of_range));
    BOOST_TEST(log->errors[0].offset == 1000);
    BOOST_TEST(log->records == 0u);
  }
  auto r = seek(sys, sub, start_position::earliest(), 10s);
  BOOST_REQUIRE_MESSAGE(r, "seek: " << why(r));
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 3u; }, 30s));
  stop(sub);
  stop_actor(sys, sink);

  // earliest: the position moves there silently.
  auto log2 = std::make_shared<sink_log>();
  auto sink2 = spawn_sink(sys, log2);
  fetch_options opts;
  opts.auto_offset_reset = offset_reset::earliest;
  auto sub2 = subscribe(sys, node, sink2, topic_partition{"short", 0}, start_position::at_offset(1000), opts);
  BOOST_REQUIRE(log2->wait_until([](sink_log& l) { return l.records >= 3u; }, 30s));
  {
    std::lock_guard<std::mutex> guard{log2->mtx};
    BOOST_TEST(log2->errors.empty());
    BOOST_TEST(log2->by_partition[0].front().offset == 0);
  }
  stop(sub2);
  stop_actor(sys, sink2);
}

BOOST_AUTO_TEST_CASE(acks_zero_answers_without_offsets) {
  auto& sys = cs.sys();
  create_topic(sys, node, "fire", 1);
  producer_config pc;
  pc.acks = 0;
  producer p{sys, node, pc};
  for (int i = 0; i < 50; ++i) {
    auto fut = p.send("fire", "k", std::to_string(i));
    BOOST_REQUIRE(fut.wait_for(30s) == std::future_status::ready);
    auto md = fut.get();
    BOOST_REQUIRE(md);
    BOOST_TEST(md->offset == -1);
    BOOST_TEST(md->partition == 0);
  }
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  auto sub = subscribe(sys, node, sink, topic_partition{"fire", 0}, start_position::earliest());
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 50u; }, 30s));
  stop(sub);
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_CASE(connecting_to_nothing_times_out_with_a_typed_error) {
  auto& sys = cs.sys();
  auto port = unused_port();
  auto n = connect(sys, "127.0.0.1", port, 700ms);
  BOOST_REQUIRE(!n);
  BOOST_TEST((code(n.error()) == kafka_error::network_exception));
  BOOST_TEST(describe(n.error()).find("127.0.0.1:" + std::to_string(port)) != std::string::npos);
  auto bad = connect(sys, std::string_view{"no-port-here"}, 700ms);
  BOOST_REQUIRE(!bad);
  BOOST_TEST((bad.error() == caf::sec::invalid_argument));
  BOOST_CHECK_THROW((producer{sys, producer_config{}}), std::invalid_argument);
  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(srv.port());
  pc.acks = 2;
  BOOST_CHECK_THROW((producer{sys, pc}), std::invalid_argument);
  // A producer that cannot reach its node fails records after delivery_timeout.
  producer_config lost;
  lost.bootstrap_servers = "127.0.0.1:" + std::to_string(port);
  lost.delivery_timeout = 500ms;
  lost.request_timeout = 200ms;
  lost.connect_timeout = 200ms;
  producer p{sys, lost};
  auto r = p.send_sync("t", "k", "v");
  BOOST_REQUIRE(!r);
  BOOST_TEST((code(r.error()) == kafka_error::request_timed_out));
}

BOOST_AUTO_TEST_SUITE_END()
