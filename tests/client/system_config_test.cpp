// Every process that talks CAF to a broker (server, tools, examples, benches, client users)
// configures its actor system through configure_actor_system / configure_client: the
// middleman heartbeat must be on there, and survive the command-line parsing that the tools
// and examples do afterwards. Without it a hung broker is never noticed, and a broker whose
// connection-timeout is set drops an idle client that sends no heartbeats
// (caf-0.17-notes.md section 4). The scheduler settings must survive it too.
#include "client/client_config.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/system_config.hpp"

namespace {

void require_heartbeat(const caf::actor_system_config& cfg) {
  auto interval = caf::get_or(cfg, "middleman.heartbeat-interval", caf::timespan{0});
  auto timeout = caf::get_or(cfg, "middleman.connection-timeout", caf::timespan{0});
  BOOST_TEST(interval.count() > 0);
  BOOST_TEST(timeout.count() > 0);
  // Several heartbeats fit into the timeout, so one late heartbeat drops no healthy peer.
  BOOST_TEST(timeout.count() >= 4 * interval.count());
}

// Work sharing with a worker per core, not CAF's polling work stealing (system_config.cpp).
void require_sharing_scheduler(const caf::actor_system_config& cfg) {
  BOOST_TEST(caf::get_or(cfg, "scheduler.policy", caf::atom("stealing")) == caf::atom("sharing"));
  BOOST_TEST(caf::get_or(cfg, "scheduler.max-threads", size_t{0}) >= 2u);
}

// As the tools and examples do it: configure first, then parse the command line.
struct tool_config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  tool_config() { opt_group{custom_options_, "global"}.add(bootstrap, "bootstrap,b", "where"); }
};

} // namespace

BOOST_AUTO_TEST_SUITE(system_config)

BOOST_AUTO_TEST_CASE(the_server_config_has_the_middleman_heartbeat) {
  caf::actor_system_config cfg;
  cafka::configure_actor_system(cfg);
  require_heartbeat(cfg);
  require_sharing_scheduler(cfg);
}

BOOST_AUTO_TEST_CASE(a_client_config_keeps_the_heartbeat_after_parsing_its_command_line) {
  tool_config cfg;
  cafka::client::configure_client(cfg);
  char arg0[] = "tool";
  char arg1[] = "--bootstrap=127.0.0.1:1";
  char* argv[] = {arg0, arg1, nullptr};
  BOOST_REQUIRE(!cfg.parse(2, argv));
  BOOST_TEST(cfg.bootstrap == "127.0.0.1:1");
  require_heartbeat(cfg);
  require_sharing_scheduler(cfg);
}

BOOST_AUTO_TEST_SUITE_END()
