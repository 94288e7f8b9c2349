// Leader epochs through the real Kafka listener of nodes in this process, byte for byte
// over a socket: OffsetForLeaderEpoch (v0, v3, and v4 with its flexible headers) answers
// where an epoch ends, and Fetch, ListOffsets and OffsetForLeaderEpoch refuse a
// current_leader_epoch older than the leader's with FENCED_LEADER_EPOCH (74) and a newer one
// with UNKNOWN_LEADER_EPOCH (75), while -1 (what librdkafka and kafkajs send) is not checked.
// A single node leads at epoch 0, so the older-epoch cases need a failover: three nodes.
#include <boost/test/unit_test.hpp>

#include <poll.h>

#include <stdexcept>

#include "protocol/byte_reader.hpp"
#include "protocol/endian.hpp"
#include "protocol/wire/primitives.hpp"
#include "tests/actors/cluster_nodes.hpp"

using namespace cafka;
using namespace cafka::cluster_test;
using namespace std::chrono_literals;
using protocol::byte_reader;
using protocol::byte_writer;

namespace {

constexpr int16_t fetch_key = 1, list_offsets_key = 2, epoch_key = 23;
constexpr int16_t fenced = 74, unknown_epoch = 75;

// A blocking connection to a listener on 127.0.0.1; every read is bounded by a poll.
class wire_client {
public:
  explicit wire_client(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      throw std::runtime_error("cannot connect to 127.0.0.1:" + std::to_string(port));
  }
  ~wire_client() { ::close(fd_); }
  wire_client(const wire_client&) = delete;
  wire_client& operator=(const wire_client&) = delete;

  // Sends one request (header v1; v2 when `flexible`) and returns the response after its
  // header (correlation id checked; the tag buffer of header v1 skipped when `flexible`).
  std::vector<char> ask(int16_t key, int16_t version, const std::vector<char>& body, bool flexible = false) {
    std::vector<char> frame;
    byte_writer w{frame};
    w.write_i32(0); // size, patched below
    w.write_i16(key);
    w.write_i16(version);
    w.write_i32(++correlation_);
    w.write_string("epochs-test");
    if (flexible)
      wire::write_empty_tagged_fields(w);
    w.write_raw({body.data(), body.size()});
    protocol::store_be<int32_t>(frame.data(), static_cast<int32_t>(frame.size() - 4));
    BOOST_REQUIRE(::send(fd_, frame.data(), frame.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(frame.size()));
    char size[4];
    read_exactly(size, 4);
    std::vector<char> response(static_cast<size_t>(protocol::load_be<int32_t>(size)));
    read_exactly(response.data(), response.size());
    byte_reader r{{response.data(), response.size()}};
    BOOST_REQUIRE(r.read_i32() == correlation_);
    if (flexible)
      wire::skip_tagged_fields(r);
    auto rest = r.rest();
    return {rest.begin(), rest.end()};
  }

private:
  void read_exactly(char* out, size_t n) {
    for (size_t got = 0; got < n;) {
      pollfd p{fd_, POLLIN, 0};
      BOOST_REQUIRE_MESSAGE(::poll(&p, 1, 10'000) > 0, "no response within 10 s");
      auto r = ::recv(fd_, out + got, n - got, 0);
      BOOST_REQUIRE_MESSAGE(r > 0, "the listener closed the connection");
      got += static_cast<size_t>(r);
    }
  }

  int fd_ = -1;
  int32_t correlation_ = 0;
};

struct epoch_end {
  int16_t error = -1;
  int32_t epoch = -2;
  int64_t end_offset = -2;
};

// OffsetForLeaderEpoch of one partition (v4: flexible; v3: replica_id -1 first).
epoch_end offset_for_leader_epoch(wire_client& c, int16_t version, const topic_partition& tp,
                                  int32_t current_epoch, int32_t epoch) {
  bool flexible = version >= 4;
  std::vector<char> body;
  byte_writer w{body};
  if (version >= 3)
    w.write_i32(-1);
  wire::write_array_count(w, 1, flexible);
  wire::write_string(w, tp.topic, flexible);
  wire::write_array_count(w, 1, flexible);
  w.write_i32(tp.partition);
  if (version >= 2)
    w.write_i32(current_epoch);
  w.write_i32(epoch);
  if (flexible)
    for (int i = 0; i < 3; ++i)
      wire::write_empty_tagged_fields(w);
  auto response = c.ask(epoch_key, version, body, flexible);
  byte_reader r{{response.data(), response.size()}};
  if (version >= 2)
    r.read_i32(); // throttle_time_ms
  BOOST_TEST(wire::read_array_count(r, 1, flexible) == 1);
  BOOST_TEST(wire::read_string(r, flexible) == tp.topic);
  BOOST_TEST(wire::read_array_count(r, 1, flexible) == 1);
  epoch_end out;
  out.error = r.read_i16();
  BOOST_TEST(r.read_i32() == tp.partition);
  out.epoch = version >= 1 ? r.read_i32() : -1;
  out.end_offset = r.read_i64();
  if (flexible)
    for (int i = 0; i < 3; ++i)
      wire::skip_tagged_fields(r);
  BOOST_TEST((r.ok() && r.remaining() == 0));
  return out;
}

// The partition error of a Fetch v11 from offset 0 that does not wait.
int16_t fetch_error(wire_client& c, const topic_partition& tp, int32_t current_epoch) {
  std::vector<char> body;
  byte_writer w{body};
  w.write_i32(-1); // replica_id
  w.write_i32(0);  // max_wait_ms
  w.write_i32(0);  // min_bytes
  w.write_i32(1 << 20);
  w.write_i8(1);   // read_committed
  w.write_i32(0);  // session_id
  w.write_i32(-1); // session_epoch
  w.write_i32(1);
  w.write_string(tp.topic);
  w.write_i32(1);
  w.write_i32(tp.partition);
  w.write_i32(current_epoch);
  w.write_i64(0);  // fetch_offset
  w.write_i64(-1); // log_start_offset
  w.write_i32(1 << 20);
  w.write_i32(0);     // forgotten_topics_data
  w.write_string(""); // rack_id
  auto response = c.ask(fetch_key, 11, body);
  byte_reader r{{response.data(), response.size()}};
  r.read_i32(); // throttle_time_ms
  BOOST_TEST(r.read_i16() == 0);
  r.read_i32(); // session_id
  BOOST_TEST(r.read_i32() == 1);
  r.read_string();
  BOOST_TEST(r.read_i32() == 1);
  BOOST_TEST(r.read_i32() == tp.partition);
  auto error = r.read_i16();
  BOOST_TEST(r.ok());
  return error;
}

struct listed_offset {
  int16_t error = -1;
  int64_t offset = -2;
  int32_t leader_epoch = -2;
};

// ListOffsets v4 of the latest offset.
listed_offset list_latest(wire_client& c, const topic_partition& tp, int32_t current_epoch) {
  std::vector<char> body;
  byte_writer w{body};
  w.write_i32(-1); // replica_id
  w.write_i8(0);   // isolation_level
  w.write_i32(1);
  w.write_string(tp.topic);
  w.write_i32(1);
  w.write_i32(tp.partition);
  w.write_i32(current_epoch);
  w.write_i64(latest_timestamp);
  auto response = c.ask(list_offsets_key, 4, body);
  byte_reader r{{response.data(), response.size()}};
  r.read_i32(); // throttle_time_ms
  BOOST_TEST(r.read_i32() == 1);
  r.read_string();
  BOOST_TEST(r.read_i32() == 1);
  BOOST_TEST(r.read_i32() == tp.partition);
  listed_offset out;
  out.error = r.read_i16();
  r.read_i64(); // timestamp
  out.offset = r.read_i64();
  out.leader_epoch = r.read_i32();
  BOOST_TEST((r.ok() && r.remaining() == 0));
  return out;
}

// One node on its own (no cluster) with a Kafka listener on a free port.
struct lone_node {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  node n;

  static caf::actor_system_config& prepare(caf::actor_system_config& c) {
    configure_actor_system(c);
    c.set("scheduler.max-threads", 2);
    return c;
  }

  explicit lone_node(const std::string& log_dir) : sys(prepare(cfg)) {
    config::server_config sc;
    sc.log_dirs = {log_dir};
    sc.listeners = {config::listener{"PLAINTEXT", "127.0.0.1", 0}};
    std::string error_text;
    auto started = start_node(sys, sc, error_text);
    BOOST_REQUIRE_MESSAGE(started, error_text);
    n = std::move(*started);
  }

  ~lone_node() { BOOST_CHECK(stop_node(sys, n)); }
};

topic_spec spec_of(const std::string& name, int16_t replication_factor) {
  topic_spec spec;
  spec.name = name;
  spec.partitions = 1;
  spec.replication_factor = replication_factor;
  return spec;
}

uint16_t kafka_port(const node& n) {
  BOOST_REQUIRE(!n.listeners.empty());
  return static_cast<uint16_t>(n.listeners.front().address.port);
}

} // namespace

BOOST_AUTO_TEST_SUITE(kafka_leader_epochs)

BOOST_AUTO_TEST_CASE(a_single_node_answers_the_end_of_epoch_0_and_refuses_newer_epochs) {
  test::temp_folder dir;
  lone_node ln{dir.path};
  caf::scoped_actor self{ln.sys};
  self->request(ln.n.actor, 10s, create_topic_atom_v, spec_of("e", 1))
    .receive([](topic_description&) {}, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  topic_partition tp{"e", 0};
  auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
  for (int i = 0; i < 3; ++i)
    self->request(ln.n.actor, 10s, produce_atom_v, tp, produce_request{1, batch})
      .receive([](produce_result&) {}, [](caf::error& e) { BOOST_FAIL(describe(e)); });

  wire_client c{kafka_port(ln.n)};
  for (int16_t v : {0, 3, 4}) {
    BOOST_TEST_CONTEXT("OffsetForLeaderEpoch v" << v) {
      auto end = offset_for_leader_epoch(c, v, tp, v >= 2 ? 0 : -1, 0); // epoch 0 is the latest
      BOOST_TEST(end.error == 0);
      BOOST_TEST(end.epoch == (v >= 1 ? 0 : -1));
      BOOST_TEST(end.end_offset == 3);
    }
  }
  BOOST_TEST(offset_for_leader_epoch(c, 3, tp, 1, 0).error == unknown_epoch);
  BOOST_TEST(offset_for_leader_epoch(c, 3, {"e", 7}, -1, 0).error == 3); // UNKNOWN_TOPIC_OR_PARTITION
  auto above = offset_for_leader_epoch(c, 3, tp, -1, 5); // an epoch above every epoch: undefined
  BOOST_TEST((above.error == 0 && above.epoch == -1 && above.end_offset == -1));

  BOOST_TEST(fetch_error(c, tp, -1) == 0);
  BOOST_TEST(fetch_error(c, tp, 0) == 0);
  BOOST_TEST(fetch_error(c, tp, 1) == unknown_epoch);
  auto latest = list_latest(c, tp, 0);
  BOOST_TEST((latest.error == 0 && latest.offset == 3 && latest.leader_epoch == 0));
  BOOST_TEST(list_latest(c, tp, 1).error == unknown_epoch);
}

BOOST_AUTO_TEST_CASE(after_a_failover_the_new_leader_fences_the_old_epoch) {
  three_nodes cluster{true};
  BOOST_REQUIRE(eventually([&] { return cluster.converged(3); }));
  auto created = cluster.node(1).create(spec_of("f", 3));
  BOOST_REQUIRE_MESSAGE(created, why(created));
  topic_partition tp{"f", 0};
  int32_t first = -1;
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(cluster.node(1), "f");
    return all_led(ls) && (first = ls[0]) > 0;
  }));
  auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
  for (int i = 0; i < 3; ++i) { // acks=all: every replica has epoch 0's records
    caf::scoped_actor self{cluster.node(first).sys};
    self->request(cluster.node(first).n.actor, 20s, produce_atom_v, tp, produce_request{-1, batch, 15000})
      .receive([](produce_result&) {}, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  }

  cluster.node(first).stop(); // the controller elects another ISR member at epoch 1
  int32_t second = -1;
  auto other = first == 1 ? 2 : 1;
  BOOST_REQUIRE(eventually([&] {
    auto ls = leaders(cluster.node(other), "f");
    return all_led(ls) && ls[0] != first && (second = ls[0]) > 0;
  }));
  auto high_watermark_is = [&](int64_t offset) {
    auto end = cluster.node(second).log_end(tp);
    return end && end->offset == offset;
  };
  BOOST_REQUIRE(eventually([&] { return high_watermark_is(3); })); // leading, the follower caught up
  auto produced = cluster.node(second).produce(tp, 2);
  BOOST_REQUIRE_MESSAGE(produced, why(produced));
  BOOST_REQUIRE(eventually([&] { return high_watermark_is(5); }));

  wire_client c{kafka_port(cluster.node(second).n)};
  auto old_epoch = offset_for_leader_epoch(c, 3, tp, 1, 0); // ends where epoch 1 starts
  BOOST_TEST((old_epoch.error == 0 && old_epoch.epoch == 0 && old_epoch.end_offset == 3));
  auto current = offset_for_leader_epoch(c, 4, tp, 1, 1);
  BOOST_TEST((current.error == 0 && current.epoch == 1 && current.end_offset == 5));
  BOOST_TEST(offset_for_leader_epoch(c, 3, tp, 0, 0).error == fenced);
  BOOST_TEST(offset_for_leader_epoch(c, 3, tp, 2, 0).error == unknown_epoch);

  BOOST_TEST(fetch_error(c, tp, 0) == fenced);
  BOOST_TEST(fetch_error(c, tp, 2) == unknown_epoch);
  BOOST_TEST(fetch_error(c, tp, 1) == 0);
  BOOST_TEST(fetch_error(c, tp, -1) == 0);
  BOOST_TEST(list_latest(c, tp, 0).error == fenced);
  auto latest = list_latest(c, tp, 1);
  BOOST_TEST((latest.error == 0 && latest.offset == 5 && latest.leader_epoch == 1));

  // The third broker follows: it answers OffsetForLeaderEpoch with NOT_LEADER_OR_FOLLOWER.
  auto third = 6 - first - second;
  wire_client follower{kafka_port(cluster.node(third).n)};
  BOOST_TEST(offset_for_leader_epoch(follower, 3, tp, -1, 0).error == 6);
}

BOOST_AUTO_TEST_SUITE_END()
