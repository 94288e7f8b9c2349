// cafka-example-replay: offline processing; replays a whole topic and exits.
//
// A commit log keeps records whether or not they were consumed, so a batch job can
// read everything again from the start. This program asks the node for the topic's
// partitions and their end offsets (high watermarks) at start, subscribes one actor to
// every partition from the earliest offset (0 unless retention deleted old segments),
// and reads up to those ends: records appended meanwhile are ignored, so the run is
// finite and repeatable. A partition's subscription is stopped as soon as it is done;
// when all are, the actor prints a summary (records and bytes of keys and values per
// partition, totals and distinct keys) and quits.
//
//   cafka-example-replay --bootstrap-server=127.0.0.1:9192 --topic=example

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <set>
#include <string>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/subscription.hpp"

using namespace cafka;
using namespace std::chrono;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string topic = "example";
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port of the node's caf.port")
      .add(topic, "topic", "the topic to replay");
  }
};

struct partition_stats {
  int64_t end = 0; // stop before this offset (the high watermark at start)
  int64_t records = 0, bytes = 0;
  client::subscription sub; // invalid once the partition is done (or if it was empty)
};

struct replay_state {
  std::map<int32_t, partition_stats> parts;
  std::set<std::string> keys;
  size_t open = 0; // partitions not done yet
};

// Prints the summary and ends the job (stopping any subscription still running).
void finish(caf::stateful_actor<replay_state>* self, const std::string& topic) {
  int64_t records = 0, bytes = 0;
  std::printf("replayed '%s' up to the end offsets seen at start:\n", topic.c_str());
  for (auto& [p, s] : self->state.parts) {
    std::printf("partition %d: %" PRId64 " records, %" PRId64 " bytes\n", p, s.records, s.bytes);
    records += s.records;
    bytes += s.bytes;
  }
  std::printf("total: %" PRId64 " records, %" PRId64 " bytes, %zu distinct keys\n", records, bytes,
              self->state.keys.size());
  self->quit();
}

caf::behavior replayer(caf::stateful_actor<replay_state>* self, node_actor node, std::string topic) {
  // The partitions with their start and end offsets, now (a request that never blocks);
  // then one subscription per non-empty partition, from its earliest offset.
  self->request(node, seconds(10), describe_atom_v, topic)
    .then(
      [=](topic_description& d) {
        for (auto& p : d.partitions) {
          auto& s = self->state.parts[p.tp.partition];
          s.end = p.high_watermark;
          if (p.high_watermark == p.log_start_offset)
            continue; // empty
          s.sub = client::subscribe(self->system(), node, caf::actor_cast<caf::actor>(self), p.tp,
                                    client::start_position::earliest());
          ++self->state.open;
        }
        if (self->state.open == 0)
          finish(self, topic);
      },
      [=](caf::error& err) {
        std::fprintf(stderr, "topic '%s': %s\n", topic.c_str(), describe(err).c_str());
        self->quit(err);
      });
  return {
    [=](client::consumer_records& batch) {
      auto& s = self->state.parts[batch.tp.partition];
      if (!s.sub)
        return; // a batch that was under way when the partition was done
      for (auto& rec : client::records(batch)) {
        if (rec.offset >= s.end)
          break; // appended after we started
        ++s.records;
        s.bytes += static_cast<int64_t>(rec.key.value_or("").size() + rec.value.value_or("").size());
        if (rec.key)
          self->state.keys.insert(*rec.key);
      }
      if (batch.next_offset >= s.end) { // this partition is done
        client::stop(s.sub);
        s.sub = nullptr;
        if (--self->state.open == 0)
          finish(self, topic);
      }
    },
    [=](client::consumer_error& e) {
      std::fprintf(stderr, "partition %d: %s\n", e.tp.partition, describe(e.error).c_str());
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
  auto node = client::connect(sys, cfg.bootstrap, seconds(5));
  if (!node) {
    std::fprintf(stderr, "cannot reach %s: %s\n", cfg.bootstrap.c_str(), describe(node.error()).c_str());
    return 1;
  }
  auto job = sys.spawn(replayer, *node, cfg.topic);
  caf::scoped_actor self{sys};
  self->monitor(job);
  int rc = 0;
  self->receive([&](caf::down_msg& dm) { rc = dm.reason == caf::exit_reason::normal ? 0 : 1; });
  return rc;
}
