#include "actors/system_config.hpp"

#include <chrono>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/errors.hpp"
#include "actors/type_ids.hpp"

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
}

} // namespace cafka
