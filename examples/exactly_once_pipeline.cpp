// cafka-example-exactly-once-pipeline: consume, transform, produce — exactly once, with
// Kafka's transactions (docs/transactions.md). The seed's other way, an output file that
// keeps its own checkpoint, is examples/exactly_once.cpp.
//
// A consumer actor in a group reads --input (read_committed). For each fetched batch it runs
// ONE transaction on a transactional producer (client/producer_actor.hpp): the transformed
// records go to --output, and the input position after the batch goes to the group's
// offsets inside the same transaction (send_offsets). The commit makes both visible at
// once; an abort (or a crash before the commit) makes neither visible. Readers of --output
// at read_committed therefore see each input record's output exactly once, whatever the
// moment this program dies:
//
// - killed before the commit: the transaction stays open until the next run's
//   init_transactions (same --transactional-id) fences this one and aborts it; the group's
//   offset is still before the batch, so the next run processes it again, and only that
//   run's output is committed;
// - killed after the commit: offset and output are both in; the next run goes on after.
//
// Automatic offset commits are off: offsets only move through transactions. A transaction
// that fails (a fenced producer, a broker lost for longer than delivery_timeout) stops the
// program with exit code 1; run it again (a supervisor's job) and it resumes from the
// committed offsets.
//
//   cafka-example-exactly-once-pipeline --bootstrap-server=127.0.0.1:9192 --input=words
//     --output=shouted --group=shouters --transactional-id=shouter-1   (one command line)
//
// Output: "initialized", "assigned"/"revoked" lines, then one "committed N records of
// input-P up to offset O" line per transaction.

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/group_consumer.hpp"
#include "client/producer_actor.hpp"

using namespace cafka;
using namespace std::chrono;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string input = "words";
  std::string output = "shouted";
  std::string group = "shouters";
  std::string transactional_id = "shouter-1";
  int session_timeout_ms = 10000;
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port[,host:port] of the nodes' caf.port")
      .add(input, "input", "the topic to read")
      .add(output, "output", "the topic to write")
      .add(group, "group", "the consumer group that owns the input offsets")
      .add(transactional_id, "transactional-id", "the producer's transactional id (the same on every run)")
      .add(session_timeout_ms, "session-timeout-ms", "the group session timeout");
  }
};

// The transformation: the value in upper case.
std::optional<std::string> transform(const std::optional<std::string>& value) {
  if (!value)
    return std::nullopt;
  std::string out = *value;
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::toupper(c); });
  return out;
}

std::string partitions(const std::vector<topic_partition>& tps) {
  std::string out;
  for (auto& tp : tps)
    out += " " + tp.topic + "-" + std::to_string(tp.partition);
  return out;
}

// One fetched batch waiting for its transaction, and who waits for the answer.
struct pending_batch {
  client::consumer_records records;
  caf::response_promise done;
};

struct pipeline_state {
  client::producer_actor producer;
  std::string group;
  std::string output;
  /// Batches of several partitions arrive concurrently (one fetcher each); their
  /// transactions run one after the other.
  std::deque<pending_batch> queue;
  bool busy = false;
};

void run_next(caf::stateful_actor<pipeline_state>* self);

// One transaction: begin, the transformed records, the input position, commit.
void transact(caf::stateful_actor<pipeline_state>* self, pending_batch job) {
  auto& st = self->state;
  auto in = client::records(job.records);
  auto rp = job.done;
  if (in.empty()) { // only transaction markers
    rp.deliver(caf::unit);
    return run_next(self);
  }
  std::vector<client::producer_record> out;
  out.reserve(in.size());
  for (auto& r : in)
    out.push_back(client::producer_record{st.output, r.key, transform(r.value), {}, std::nullopt, std::nullopt});
  auto tp = job.records.tp;
  auto next = in.back().offset + 1;
  std::vector<group_offset> position{group_offset{tp, next, -1, ""}};
  auto count = in.size();
  auto prod = st.producer;
  auto fail = [=](caf::error& err) mutable {
    std::fprintf(stderr, "transaction failed: %s\n", describe(err).c_str());
    rp.deliver(err); // not consumed: the next run starts before this batch
    self->quit(err);
  };
  self->request(prod, caf::infinite, client::begin_txn_atom_v)
    .then(
      [=](bool) mutable {
        // The records, then the offsets (one sender: the producer takes them in this order);
        // the commit waits for every record's acknowledgement.
        self->send(prod, client::send_atom_v, std::move(out),
                   client::bulk_callback{[](size_t, const caf::expected<client::record_metadata>&) {}});
        self->request(prod, caf::infinite, client::send_offsets_atom_v, self->state.group, position)
          .then(
            [=](bool) mutable {
              self->request(prod, caf::infinite, client::commit_txn_atom_v)
                .then(
                  [=](bool) mutable {
                    std::printf("committed %zu records of %s-%d up to offset %lld\n", count, tp.topic.c_str(),
                                tp.partition, static_cast<long long>(next - 1));
                    std::fflush(stdout);
                    rp.deliver(caf::unit);
                    run_next(self);
                  },
                  fail);
            },
            fail);
      },
      fail);
}

void run_next(caf::stateful_actor<pipeline_state>* self) {
  auto& st = self->state;
  st.busy = !st.queue.empty();
  if (!st.busy)
    return;
  auto job = std::move(st.queue.front());
  st.queue.pop_front();
  transact(self, std::move(job));
}

caf::behavior pipeline(caf::stateful_actor<pipeline_state>* self, client::producer_actor producer,
                       std::string group, std::string output) {
  self->state.producer = std::move(producer);
  self->state.group = std::move(group);
  self->state.output = std::move(output);
  return {
    [=](client::partitions_assigned& a) {
      std::printf("assigned (generation %d):%s\n", a.generation, partitions(a.partitions).c_str());
      std::fflush(stdout);
    },
    [=](client::partitions_revoked& r) {
      std::printf("revoked:%s\n", partitions(r.partitions).c_str());
      std::fflush(stdout);
    },
    // Answered once its transaction committed: the group member fetches that partition
    // again only then.
    [=](client::consumer_records& batch) -> caf::result<void> {
      auto& st = self->state;
      auto rp = self->make_response_promise();
      st.queue.push_back(pending_batch{std::move(batch), rp});
      if (!st.busy)
        run_next(self);
      return rp;
    },
    [=](client::consumer_error& e) {
      std::fprintf(stderr, "group member failed: %s\n", describe(e.error).c_str());
      self->quit(e.error);
    },
  };
}

int main(int argc, char** argv) {
  config cfg;
  client::configure_client(cfg);
  if (auto err = cfg.parse(argc, argv)) {
    std::fprintf(stderr, "bad arguments: %s\n", caf::to_string(err).c_str());
    return 2;
  }
  if (cfg.cli_helptext_printed)
    return 0;
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, cfg.bootstrap, seconds(10));
  if (!node) {
    std::fprintf(stderr, "cannot reach %s: %s\n", cfg.bootstrap.c_str(), describe(node.error()).c_str());
    return 1;
  }
  client::producer_config pc;
  pc.bootstrap_servers = cfg.bootstrap;
  pc.transactional_id = cfg.transactional_id;
  pc.linger = milliseconds(0);
  auto producer = client::spawn_producer(sys, *node, pc);
  caf::scoped_actor self{sys};
  // Fences an earlier run with the same transactional id and aborts its open transaction.
  caf::error init_failed;
  self->request(producer, pc.delivery_timeout + pc.request_timeout, client::init_transactions_atom_v)
    .receive([](bool) {}, [&](caf::error& err) { init_failed = std::move(err); });
  if (init_failed) {
    std::fprintf(stderr, "init_transactions: %s\n", describe(init_failed).c_str());
    self->send_exit(producer, caf::exit_reason::user_shutdown);
    return 1;
  }
  std::printf("initialized\n");
  std::fflush(stdout);
  auto consumer = sys.spawn(pipeline, producer, cfg.group, cfg.output);
  client::group_options opts;
  opts.group_id = cfg.group;
  opts.topics = {cfg.input};
  opts.auto_offset_reset = client::offset_reset::earliest;
  opts.enable_auto_commit = false; // offsets move only inside transactions
  opts.session_timeout = milliseconds(cfg.session_timeout_ms);
  opts.heartbeat_interval = milliseconds(std::max(100, cfg.session_timeout_ms / 3));
  opts.fetch.read_committed = true;
  opts.fetch.bootstrap = cfg.bootstrap;
  auto member = client::join_group(sys, *node, consumer, opts);
  self->monitor(consumer);
  self->monitor(member);
  int rc = 0;
  for (int down = 0; down < 2;)
    self->receive([&](caf::down_msg& dm) {
      ++down;
      if (dm.reason && dm.reason != caf::exit_reason::normal)
        rc = 1;
    });
  self->send_exit(producer, caf::exit_reason::user_shutdown);
  return rc;
}
