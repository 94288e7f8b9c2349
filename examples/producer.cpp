// cafka-example-producer: producing records from a plain thread with the producer facade.
//
// Sends --count records ("event 0", "event 1", ...) keyed "user-0" .. "user-4" to --topic
// (created with the broker's defaults if it does not exist):
//   record 0            with send_sync(): blocks until the broker acknowledged it;
//   records 1 .. n-2    with send() and a callback each (called on the producer actor's
//                       thread, so it only stores the result; never block in it);
//   record n-1          with send() returning a std::future.
// Then flush() waits for everything, and each record's partition and offset is printed
// in send order. Records with the same key land in the same partition, in order.
//
//   cafka-example-producer --bootstrap-server=127.0.0.1:9192 --topic=example --count=20

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/client_config.hpp"
#include "client/producer.hpp"

using namespace cafka;
using namespace std::chrono_literals;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string topic = "example";
  size_t count = 20;
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port of the node's caf.port")
      .add(topic, "topic", "the topic to produce to")
      .add(count, "count", "how many records to send (at least 2)");
  }
};

int main(int argc, char** argv) {
  config cfg;
  client::configure_client(cfg); // before the actor system exists, in every process
  if (auto err = cfg.parse(argc, argv)) {
    std::fprintf(stderr, "bad arguments: %s\n", caf::to_string(err).c_str());
    return 2;
  }
  if (cfg.cli_helptext_printed)
    return 0;
  if (cfg.count < 2) {
    std::fprintf(stderr, "--count must be at least 2\n");
    return 2;
  }
  caf::actor_system sys{cfg};

  auto key = [](size_t i) { return "user-" + std::to_string(i % 5); };
  auto value = [](size_t i) { return "event " + std::to_string(i); };
  std::mutex mtx; // guards results: the callbacks run on another thread
  std::vector<caf::expected<client::record_metadata>> results(cfg.count, caf::error{});

  client::producer_config pc;
  pc.bootstrap_servers = cfg.bootstrap;
  pc.delivery_timeout = 20s; // an example should give up soon if the broker is away
  client::producer producer{sys, pc};

  // 1. Synchronously: the offset, or the typed error.
  auto first = producer.send_sync(cfg.topic, key(0), value(0));
  if (!first) {
    std::fprintf(stderr, "send_sync failed: %s\n", describe(first.error()).c_str());
    return 1;
  }
  std::printf("send_sync: record 0 (%s) at offset %" PRId64 "\n", key(0).c_str(), *first);

  // 2. Asynchronously, with a callback per record.
  for (size_t i = 1; i + 1 < cfg.count; ++i)
    producer.send(client::producer_record{cfg.topic, key(i), value(i), {}, std::nullopt, std::nullopt},
                  [&mtx, &results, i](caf::expected<client::record_metadata> md) {
                    std::lock_guard<std::mutex> guard{mtx};
                    results[i] = std::move(md);
                  });

  // 3. Asynchronously, with a future.
  auto last = producer.send(cfg.topic, key(cfg.count - 1), value(cfg.count - 1));

  // flush() returns once every record handed in before it is acknowledged or failed.
  if (auto err = producer.flush())
    std::fprintf(stderr, "flush failed: %s\n", describe(err).c_str());
  results.back() = last.get(); // ready: flushed
  producer.close();

  size_t failed = 0;
  std::lock_guard<std::mutex> guard{mtx};
  for (size_t i = 1; i < cfg.count; ++i) {
    if (auto& md = results[i]) {
      std::printf("record %zu (%s) -> partition %d, offset %" PRId64 "\n", i, key(i).c_str(), md->partition,
                  md->offset);
    } else {
      ++failed;
      std::printf("record %zu (%s) failed: %s\n", i, key(i).c_str(), describe(md.error()).c_str());
    }
  }
  std::printf("sent %zu records to '%s': %zu acknowledged, %zu failed\n", cfg.count, cfg.topic.c_str(),
              cfg.count - failed, failed);
  return failed == 0 ? 0 : 1;
}
