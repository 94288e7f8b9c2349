// cafka-example-exactly-once: exactly-once processing end to end, without a consumer group.
//
// The program copies every record of --topic (all partitions) into a file, one line per
// record ("<partition> <offset> <value>", see exactly_once_store.hpp), and survives being
// killed at any moment (kill -9 included) without losing or repeating a line. The trick
// is that the consumed offsets are not committed to the broker at all: they live in the
// program's own state, next to the output, and both change together in one atomic step.
// After each delivered batch the program appends the batch's lines to `output`, fsyncs
// it, and atomically replaces `checkpoint` (output length + each partition's next offset;
// written to a temporary file, fsynced, renamed, directory fsynced). At start it reads
// the checkpoint, cuts `output` back to the recorded length (whatever was written after
// the last checkpoint belongs to a batch that was never committed) and subscribes each
// partition from its recorded offset (earliest if none). So the output always equals the
// records before the checkpointed offsets, each exactly once.
//
// Threads: the fsyncs block. The consumer actor is therefore spawned with caf::detached
// (a thread of its own) instead of on CAF's scheduler, whose few worker threads the
// subscriptions and the network need; the subscriptions' flow control (one batch per
// partition unanswered) means the blocking handler simply delays the next fetch.
//
// Options:
//   --topic, --state-dir        what to read, where output and checkpoint live
//   --exit-at-end               stop once every partition reached the end offset (high
//                               watermark) seen at start; print a summary; exit 0
//   --max-bytes=N               fetch size (smaller batches, more checkpoints; 0: default)
//   --pause-ms=N                sleep N ms per batch between appending its output and
//                               committing the checkpoint: slows the run and widens the
//                               window in which a crash leaves an uncommitted tail, so
//                               that tests killing it at random points hit that case
//
//   cafka-example-exactly-once --bootstrap-server=127.0.0.1:9192 --topic=example
//       --state-dir=/tmp/eo --exit-at-end
//
// Exit codes: 0 after --exit-at-end finished, 1 on a runtime error (unreachable node,
// unknown topic, offsets deleted by retention before they were read, a damaged state
// dir), 2 on bad arguments.

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/subscription.hpp"
#include "examples/exactly_once_store.hpp"

using namespace cafka;
using namespace std::chrono;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string topic;
  std::string state_dir;
  bool exit_at_end = false;
  size_t max_bytes = 0; // 0: the client's default
  size_t pause_ms = 0;
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port of the node's caf.port")
      .add(topic, "topic", "the topic to copy (required)")
      .add(state_dir, "state-dir", "folder for output and checkpoint (required)")
      .add(exit_at_end, "exit-at-end", "stop at the end offsets seen at start")
      .add(max_bytes, "max-bytes", "bytes per fetch (0: the client's default)")
      .add(pause_ms, "pause-ms", "sleep per batch between output and checkpoint");
  }
};

struct options {
  std::string topic;
  bool exit_at_end = false;
  client::fetch_options fetch;
  milliseconds pause{0};
};

struct partition_state {
  int64_t end = -1; // --exit-at-end: stop before this offset
  client::subscription sub;
};

struct writer_state {
  std::shared_ptr<examples::state_store> store;
  std::map<int32_t, int64_t> next; // committed next offsets, updated per batch
  std::map<int32_t, partition_state> parts;
  size_t open = 0; // --exit-at-end: partitions not done yet
  uint64_t written = 0; // records committed by this run
};

using writer_actor = caf::stateful_actor<writer_state>*;

void finish(writer_actor self) {
  auto& st = self->state;
  auto& c = st.store->committed();
  std::printf("reached the end offsets seen at start: %" PRIu64 " records written by this run; output holds "
              "%" PRIu64 " records (%" PRIu64 " bytes)\n",
              st.written, c.output_records, c.output_bytes);
  for (auto& [p, next] : c.next_offsets)
    std::printf("partition %d: next offset %" PRId64 "\n", p, next);
  std::fflush(stdout);
  for (auto& [p, s] : st.parts)
    if (s.sub)
      client::stop(s.sub);
  self->quit();
}

void fail(writer_actor self, const std::string& what) {
  std::fprintf(stderr, "%s\n", what.c_str());
  for (auto& [p, s] : self->state.parts)
    if (s.sub)
      client::stop(s.sub);
  self->quit(caf::sec::runtime_error);
}

caf::behavior writer(writer_actor self, node_actor node, std::shared_ptr<examples::state_store> store,
                     options opt) {
  self->state.store = store;
  self->state.next = store->committed().next_offsets;
  self->request(node, seconds(10), describe_atom_v, opt.topic)
    .then(
      [=](topic_description& d) {
        auto& st = self->state;
        for (auto& p : d.partitions) {
          auto partition = p.tp.partition;
          auto& s = st.parts[partition];
          auto known = st.next.find(partition);
          auto from = known != st.next.end() ? client::start_position::at_offset(known->second)
                                             : client::start_position::earliest();
          if (opt.exit_at_end) {
            s.end = p.high_watermark;
            auto at = known != st.next.end() ? known->second : p.log_start_offset;
            if (at >= s.end)
              continue; // nothing left below the end
          }
          s.sub = client::subscribe(self->system(), node, caf::actor_cast<caf::actor>(self), p.tp, from, opt.fetch);
          ++st.open;
        }
        if (opt.exit_at_end && st.open == 0)
          finish(self);
      },
      [=](caf::error& err) { fail(self, "topic '" + opt.topic + "': " + describe(err)); });
  return {
    [=](client::consumer_records& batch) {
      auto& st = self->state;
      auto partition = batch.tp.partition;
      auto& s = st.parts[partition];
      if (!s.sub)
        return; // under way when the partition was done
      auto recs = client::decode_records(batch);
      if (!recs) {
        fail(self, "partition " + std::to_string(partition) + ": " + describe(recs.error()));
        return;
      }
      auto known = st.next.find(partition);
      int64_t from = known != st.next.end() ? known->second : 0;
      std::string lines;
      uint64_t count = 0;
      for (auto& rec : *recs) {
        if (rec.offset < from)
          continue; // already in the output (never expected: the fetch starts at `from`)
        if (s.end >= 0 && rec.offset >= s.end)
          break; // appended after we started
        lines += examples::output_line(partition, rec.offset, rec.value.value_or(""));
        ++count;
      }
      auto next = std::max(from, s.end >= 0 ? std::min(batch.next_offset, s.end) : batch.next_offset);
      try {
        // Blocking, on purpose: this actor has its own thread (caf::detached).
        st.store->append(lines, count);
        if (opt.pause.count() > 0)
          std::this_thread::sleep_for(opt.pause);
        st.next[partition] = next;
        st.store->commit(st.next);
      } catch (const std::exception& e) {
        fail(self, e.what());
        return;
      }
      st.written += count;
      if (s.end >= 0 && next >= s.end) {
        client::stop(s.sub);
        s.sub = nullptr;
        if (--st.open == 0)
          finish(self);
      }
    },
    [=](client::consumer_error& e) {
      fail(self, "partition " + std::to_string(e.tp.partition) + " at offset " + std::to_string(e.offset) + ": "
                   + describe(e.error));
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
  if (cfg.topic.empty() || cfg.state_dir.empty()) {
    std::fprintf(stderr, "bad arguments: --topic and --state-dir are required\n");
    return 2;
  }
  if (cfg.max_bytes > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    std::fprintf(stderr, "bad arguments: --max-bytes must be at most %d\n", std::numeric_limits<int32_t>::max());
    return 2;
  }
  options opt;
  opt.topic = cfg.topic;
  opt.exit_at_end = cfg.exit_at_end;
  if (cfg.max_bytes > 0)
    opt.fetch.max_bytes = static_cast<int32_t>(cfg.max_bytes);
  opt.pause = milliseconds(cfg.pause_ms);
  // Opening the state blocks (truncation), which is fine here on the main thread.
  std::shared_ptr<examples::state_store> store;
  try {
    store = std::make_shared<examples::state_store>(cfg.state_dir, cfg.topic);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "state dir: %s\n", e.what());
    return 1;
  }
  auto& c = store->committed();
  std::printf("state: %" PRIu64 " records committed (%" PRIu64 " bytes), %zu partitions with offsets; "
              "dropped %" PRIu64 " uncommitted bytes\n",
              c.output_records, c.output_bytes, c.next_offsets.size(), store->dropped_bytes());
  std::fflush(stdout);
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, cfg.bootstrap, seconds(5));
  if (!node) {
    std::fprintf(stderr, "cannot reach %s: %s\n", cfg.bootstrap.c_str(), describe(node.error()).c_str());
    return 1;
  }
  auto job = sys.spawn<caf::detached>(writer, *node, store, opt);
  caf::scoped_actor self{sys};
  self->monitor(job);
  int rc = 0;
  self->receive([&](caf::down_msg& dm) { rc = dm.reason == caf::exit_reason::normal ? 0 : 1; });
  return rc;
}
