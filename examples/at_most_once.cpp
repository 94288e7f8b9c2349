// cafka-example-at-most-once: a consumer actor in a consumer group that commits BEFORE it
// processes (prints) records.
//
// The group member (client/group_consumer.hpp, delivery_mode::at_most_once) stores each
// fetched batch's next offset in the group and waits until that commit is stored; only
// then does it hand the batch to the printer actor below. There is nothing left to commit
// afterwards, so auto-commit is off.
//
// On a crash (kill -9, power loss) after the commit but before or while the batch is
// printed, the committed offset is already past that batch: the member that gets the
// partition next starts after it, and those records are NEVER printed. Nothing is
// duplicated; records may be lost. Right for data where a gap is cheaper than a repeat
// (metrics samples, notifications).
//
//   cafka-example-at-most-once --bootstrap-server=127.0.0.1:9192 --topic=events --group=printers
//
// Prints "partition P offset O: value" per record, "assigned"/"revoked" lines on
// rebalances, and, with --exit-after=N, stops after N records: prints "done after N
// records" and exits. Without --group the member joins "cafka-default-group".

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
      .add(exit_after, "exit-after", "exit after this many records (0: never)");
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
      for (auto& rec : client::records(batch)) {
        std::printf("partition %d offset %lld: %s\n", batch.tp.partition, static_cast<long long>(rec.offset),
                    rec.value.value_or("").c_str());
        ++st.records;
      }
      std::fflush(stdout);
      if (exit_after > 0 && st.records >= exit_after) {
        std::printf("done after %zu records\n", st.records);
        // Batches already at the member were committed: they are skipped for good.
        self->quit(); // the member notices, leaves the group and stops
      }
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
  opts.delivery = client::delivery_mode::at_most_once;
  opts.enable_auto_commit = false; // every batch was committed before it arrived
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
