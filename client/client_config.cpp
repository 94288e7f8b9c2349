#include "client/client_config.hpp"

#include <caf/all.hpp>

#include "actors/system_config.hpp"
#include "client/type_ids.hpp"

namespace cafka::client {

void configure_client(caf::actor_system_config& cfg) {
  cafka::configure_actor_system(cfg);
  cfg.add_message_types<caf::id_block::cafka_client>();
}

} // namespace cafka::client
