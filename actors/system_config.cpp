#include "actors/system_config.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/caf_port.hpp"
#include "actors/errors.hpp"
#include "actors/type_ids.hpp"
#include "config/secret_file.hpp"
#include "protocol/caf_port_handshake.hpp"

namespace cafka {

void register_cafka_types(caf::actor_system_config& cfg) {
  cfg.add_message_types<caf::id_block::cafka>();
  cfg.add_error_category(caf::atom("cafka"), [](uint8_t code, caf::atom_value, const caf::message& ctx) {
    std::string out = protocol::to_string(static_cast<kafka_error>(code));
    if (!ctx.empty())
      out += caf::deep_to_string(ctx);
    return out;
  });
}

void configure_actor_system(caf::actor_system_config& cfg) {
  cfg.load<caf::io::middleman>();
  register_cafka_types(cfg);
  cfg.set("middleman.heartbeat-interval", caf::timespan{middleman_heartbeat_interval});
  cfg.set("middleman.connection-timeout", caf::timespan{middleman_connection_timeout});
  // Work sharing, one worker per core (at least 2): idle workers sleep on the shared queue.
  // CAF's default (work stealing, at least 4 workers) polls for work: three brokers on 2 cores
  // spent their time spinning, which halved throughput and tripled acks=all latency
  // (docs/replication.md, "Benchmark").
  cfg.set("scheduler.policy", caf::atom("sharing"));
  cfg.set("scheduler.max-threads", static_cast<size_t>(std::max(2u, std::thread::hardware_concurrency())));
  std::string secret{protocol::caf_handshake::default_secret};
  if (auto* path = std::getenv("CAFKA_CAF_SECRET_FILE"); path != nullptr && *path != '\0') {
    if (auto read = config::read_secret_file("CAFKA_CAF_SECRET_FILE", path))
      secret = std::move(*read);
    else
      std::fprintf(stderr, "cafka: %s; using the built-in secret\n", read.error().message.c_str());
  }
  set_caf_secret(cfg, std::move(secret));
}

} // namespace cafka
