// cafka's producer as the idempotent and the transactional producer, and read_committed
// subscriptions, against a node over loopback (docs/transactions.md).

#include <map>
#include <optional>
#include <set>

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

void few_txn_partitions(config::server_config& cfg) {
  cfg.transaction_state_log_num_partitions = 2;
  cfg.offsets_topic_num_partitions = 2;
}

producer_config config_for(const server& srv, std::string transactional_id = {}) {
  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(srv.port());
  pc.transactional_id = std::move(transactional_id);
  pc.linger = 0ms;
  return pc;
}

// The raw batches of `tp` from offset 0 (a direct fetch from the partition actor).
std::vector<char> raw_batches(caf::actor_system& sys, const node_actor& node, const topic_partition& tp) {
  caf::scoped_actor self{sys};
  std::vector<char> out;
  self->request(node, 10s, fetch_atom_v, tp, fetch_request{0, 16 << 20, 1, 0})
    .receive([&](fetch_result& r) { out = std::move(r.records); },
             [&](caf::error& err) { BOOST_FAIL("fetch: " << why(err)); });
  return out;
}

// Every record value of `tp` a subscription sees from the start, read_committed or not,
// once `expected` of them arrived (or after a bounded wait).
std::vector<std::string> read_values(caf::actor_system& sys, const node_actor& node, const topic_partition& tp,
                                     bool read_committed, size_t expected) {
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  fetch_options opts;
  opts.read_committed = read_committed;
  opts.max_wait = 100ms;
  auto sub = subscribe(sys, node, sink, tp, start_position::earliest(), opts);
  log->wait_until([&](sink_log& l) { return l.records >= expected; }, 30s);
  // A little longer: nothing more may come.
  log->wait_until([&](sink_log& l) { return l.records > expected; }, 500ms);
  stop(sub);
  stop_actor(sys, sink);
  std::vector<std::string> values;
  std::lock_guard<std::mutex> guard{log->mtx};
  for (auto& r : log->by_partition[tp.partition])
    values.push_back(r.value.value_or(""));
  return values;
}

// A node (with few __transaction_state and __consumer_offsets partitions) and a client
// system connected to it.
struct txn_node {
  temp_dir dir;
  server srv{dir.path, 0, few_txn_partitions};
  client_system cs;
  caf::actor_system& sys = cs.sys();
  std::optional<node_actor> node;
  txn_node() {
    auto n = connect(sys, "127.0.0.1", srv.port(), 10s);
    BOOST_REQUIRE_MESSAGE(n, "connect: " << why(n));
    node = *n;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(native_transactions, txn_node)

BOOST_AUTO_TEST_CASE(the_default_producer_is_idempotent_and_numbers_batches_per_partition) {
  create_topic(sys, *node, "numbered", 2);
  producer p{sys, config_for(srv)};
  for (int i = 0; i < 2000; ++i)
    p.send(producer_record{"numbered", std::nullopt, "v" + std::to_string(i), {}, std::nullopt, i % 2},
           [](caf::expected<record_metadata>) {});
  BOOST_REQUIRE(!p.flush());
  p.close();
  for (int32_t part = 0; part < 2; ++part) {
    auto bytes = raw_batches(sys, *node, {"numbered", part});
    protocol::bytes_view rest{bytes.data(), bytes.size()};
    int64_t producer_id = -1;
    int32_t next_sequence = 0;
    int64_t records = 0;
    while (rest.size() >= protocol::batch_layout::header_size) {
      auto h = protocol::read_batch_header(rest);
      BOOST_REQUIRE(h);
      if (producer_id < 0)
        producer_id = h->producer_id;
      BOOST_TEST(h->producer_id == producer_id);
      BOOST_TEST(h->producer_id >= 0);
      BOOST_TEST(h->base_sequence == next_sequence);
      next_sequence += h->record_count;
      records += h->record_count;
      rest.remove_prefix(h->total_size());
    }
    BOOST_TEST(records == 1000);
  }
}

BOOST_AUTO_TEST_CASE(committed_transactions_are_read_whole_and_aborted_ones_not_at_all) {
  create_topic(sys, *node, "txn-out", 2);
  producer p{sys, config_for(srv, "native-tx-1")};
  auto err = p.init_transactions();
  BOOST_REQUIRE_MESSAGE(!err, "init_transactions: " << why(err));
  // Outside a transaction a record is refused.
  auto outside = p.send_sync("txn-out", std::nullopt, "outside");
  BOOST_TEST(!static_cast<bool>(outside));
  auto send_all = [&](const std::string& prefix, int n) {
    for (int i = 0; i < n; ++i)
      p.send(producer_record{"txn-out", std::nullopt, prefix + std::to_string(i), {}, std::nullopt, i % 2},
             [](caf::expected<record_metadata>) {});
  };
  BOOST_REQUIRE(!p.begin_transaction());
  send_all("a", 10);
  err = p.commit_transaction();
  BOOST_REQUIRE_MESSAGE(!err, "commit: " << why(err));
  BOOST_REQUIRE(!p.begin_transaction());
  send_all("b", 6);
  err = p.abort_transaction();
  BOOST_REQUIRE_MESSAGE(!err, "abort: " << why(err));
  BOOST_REQUIRE(!p.begin_transaction());
  send_all("c", 4);
  err = p.commit_transaction();
  BOOST_REQUIRE_MESSAGE(!err, "commit: " << why(err));
  // An open transaction: a read_committed reader stops before it.
  BOOST_REQUIRE(!p.begin_transaction());
  send_all("d", 2);
  BOOST_REQUIRE(!p.flush());
  for (int32_t part = 0; part < 2; ++part) {
    auto committed = read_values(sys, *node, {"txn-out", part}, true, 7);
    auto everything = read_values(sys, *node, {"txn-out", part}, false, 11);
    std::multiset<char> kinds;
    for (auto& v : committed)
      kinds.insert(v[0]);
    BOOST_TEST(committed.size() == 7u);
    BOOST_TEST(kinds.count('a') == 5u);
    BOOST_TEST(kinds.count('c') == 2u);
    BOOST_TEST(kinds.count('b') == 0u);
    BOOST_TEST(kinds.count('d') == 0u);
    BOOST_TEST(everything.size() == 11u);
  }
  BOOST_REQUIRE(!p.commit_transaction());
  p.close();
}

BOOST_AUTO_TEST_CASE(offsets_sent_in_a_transaction_count_only_when_it_commits) {
  create_topic(sys, *node, "txn-in", 1);
  create_topic(sys, *node, "txn-sink", 1);
  producer p{sys, config_for(srv, "native-tx-offsets")};
  BOOST_REQUIRE(!p.init_transactions());
  auto committed_offset = [&]() -> int64_t {
    caf::scoped_actor self{sys};
    int64_t out = -1;
    self->request(*node, 10s, group_coordinator_atom_v, std::string{"pipeline"})
      .receive(
        [&](group_actor& g) {
          self->request(g, 10s, fetch_offsets_atom_v, group_offset_query{false, {{"txn-in", 0}}})
            .receive(
              [&](std::vector<group_offset>& found) {
                if (!found.empty())
                  out = found.front().offset;
              },
              [&](caf::error& err) { BOOST_FAIL("fetch offsets: " << why(err)); });
        },
        [&](caf::error& err) { BOOST_FAIL("group: " << why(err)); });
    return out;
  };
  BOOST_REQUIRE(!p.begin_transaction());
  p.send(producer_record{"txn-sink", std::nullopt, "x", {}, std::nullopt, 0}, [](caf::expected<record_metadata>) {});
  auto err = p.send_offsets_to_transaction({group_offset{{"txn-in", 0}, 42, -1, ""}}, "pipeline");
  BOOST_REQUIRE_MESSAGE(!err, "send_offsets: " << why(err));
  BOOST_TEST(committed_offset() == -1); // pending
  BOOST_REQUIRE(!p.abort_transaction());
  BOOST_TEST(committed_offset() == -1);
  BOOST_REQUIRE(!p.begin_transaction());
  err = p.send_offsets_to_transaction({group_offset{{"txn-in", 0}, 43, -1, ""}}, "pipeline");
  BOOST_REQUIRE_MESSAGE(!err, "send_offsets: " << why(err));
  BOOST_REQUIRE(!p.commit_transaction());
  BOOST_TEST(committed_offset() == 43);
  p.close();
}

BOOST_AUTO_TEST_CASE(a_second_producer_with_the_same_transactional_id_fences_the_first) {
  create_topic(sys, *node, "fenced", 1);
  producer first{sys, config_for(srv, "native-tx-fence")};
  BOOST_REQUIRE(!first.init_transactions());
  BOOST_REQUIRE(!first.begin_transaction());
  auto sent = first.send_sync("fenced", std::nullopt, "from the first");
  BOOST_REQUIRE_MESSAGE(sent, "send: " << why(sent));
  producer second{sys, config_for(srv, "native-tx-fence")};
  BOOST_REQUIRE(!second.init_transactions()); // aborts the first one's transaction
  auto err = first.commit_transaction();
  BOOST_TEST(static_cast<bool>(err));
  BOOST_TEST((to_kafka_error(err) == protocol::kafka_error::producer_fenced
              || to_kafka_error(err) == protocol::kafka_error::invalid_producer_epoch),
             "commit of the fenced producer: " << why(err));
  // The fenced producer stays fenced.
  BOOST_TEST(static_cast<bool>(first.begin_transaction()));
  BOOST_REQUIRE(!second.begin_transaction());
  BOOST_REQUIRE(second.send_sync("fenced", std::nullopt, "from the second"));
  BOOST_REQUIRE(!second.commit_transaction());
  auto values = read_values(sys, *node, {"fenced", 0}, true, 1);
  BOOST_TEST(values == std::vector<std::string>{"from the second"}, boost::test_tools::per_element());
  first.close();
  second.close();
}

BOOST_AUTO_TEST_SUITE_END()
