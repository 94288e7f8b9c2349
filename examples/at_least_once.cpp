// cafka-example-at-least-once: a consumer actor in a consumer group that prints records and
// commits AFTER processing them (the default delivery mode).
//
// The group member (client/group_consumer.hpp) hands each fetched batch to the printer
// actor below as a request. Only once the handler has returned does the batch count as
// consumed; commits — the automatic one every auto_commit_interval, the member's last one
// when it stops, and the explicit commit this program sends before it exits — store the
// position after the last consumed batch.
//
// On a crash (kill -9, power loss) between printing a batch and the next commit, the
// committed offset is still before that batch: whichever member of the group gets the
// partition next starts there and prints those records AGAIN. Nothing is lost; records
// may be duplicated. Make processing idempotent (or see examples/exactly_once.cpp).
//
//   cafka-example-at-least-once --bootstrap-server=127.0.0.1:9192 --topic=events --group=printers
//
// Prints "partition P offset O: value" per record, "assigned"/"revoked" lines on
// rebalances, and, with --exit-after=N, stops after N records: commits, then prints
// "committed after N records" and exits. Without --group the member joins
// "cafka-default-group".

#include <chrono>
#include <cstdio>
#include <string>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/group_consumer.hpp"

using namespace cafka;
using namespace std::chrono;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string topic = "events";
  std::string group;
  bool from_beginning = false;
  size_t exit_after = 0; // 0: run until killed
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port of the node's caf.port")
      .add(topic, "topic", "the topic to consume")
      .add(group, "group", "the consumer group (default: cafka-default-group)")
      .add(from_beginning, "from-beginning", "without a committed offset, start at the earliest record")
      .add(exit_after, "exit-after", "commit and exit after this many records (0: never)");
  }
};

std::string partitions(const std::vector<topic_partition>& tps) {
  std::string out;
  for (auto& tp : tps)
    out += " " + tp.topic + "-" + std::to_string(tp.partition);
  return out;
}

struct printer_state {
  size_t records = 0;
  bool exiting = false;
};

caf::behavior printer(caf::stateful_actor<printer_state>* self, size_t exit_after) {
  return {
    [=](client::partitions_assigned& a) {
      std::printf("assigned (generation %d):%s\n", a.generation, partitions(a.partitions).c_str());
      std::fflush(stdout);
    },
    [=](client::partitions_revoked& r) {
      std::printf("revoked:%s\n", partitions(r.partitions).c_str());
      std::fflush(stdout);
    },
    [=](client::consumer_records& batch) -> caf::result<void> {
      auto& st = self->state;
      if (st.exiting) // refused (an error answer): not consumed, the next run gets it
        return caf::make_error(caf::sec::runtime_error, "not processed: exiting");
      // The batch comes from the group member; it also takes our commits.
      auto member = caf::actor_cast<caf::actor>(self->current_sender());
      for (auto& rec : client::records(batch)) {
        std::printf("partition %d offset %lld: %s\n", batch.tp.partition, static_cast<long long>(rec.offset),
                    rec.value.value_or("").c_str());
        ++st.records;
      }
      std::fflush(stdout);
      if (exit_after == 0 || st.records < exit_after)
        return caf::unit;
      // Done. The explicit commit waits until this handler has returned, so it covers
      // this batch too. Batches that arrive meanwhile are refused (above).
      st.exiting = true;
      self->request(member, seconds(30), client::commit_atom_v)
        .then(
          [=]() {
            std::printf("committed after %zu records\n", self->state.records);
            self->quit(); // the member notices, leaves the group and stops
          },
          [=](caf::error& err) {
            std::fprintf(stderr, "commit failed: %s\n", describe(err).c_str());
            self->quit(err);
          });
      return caf::unit;
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
  auto node = client::connect(sys, cfg.bootstrap, seconds(5));
  if (!node) {
    std::fprintf(stderr, "cannot reach %s: %s\n", cfg.bootstrap.c_str(), describe(node.error()).c_str());
    return 1;
  }
  auto consumer = sys.spawn(printer, cfg.exit_after);
  client::group_options opts;
  opts.group_id = cfg.group;
  opts.topics = {cfg.topic};
  opts.auto_offset_reset = cfg.from_beginning ? client::offset_reset::earliest : client::offset_reset::latest;
  opts.delivery = client::delivery_mode::at_least_once; // the default, spelled out
  auto member = client::join_group(sys, *node, consumer, opts);
  caf::scoped_actor self{sys};
  self->monitor(consumer);
  self->monitor(member);
  int rc = 0;
  // The consumer quits when done (or failed); the member follows it.
  for (int down = 0; down < 2;)
    self->receive([&](caf::down_msg& dm) {
      ++down;
      if (dm.reason && dm.reason != caf::exit_reason::normal)
        rc = 1;
    });
  return rc;
}
