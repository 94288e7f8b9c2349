#include "actors/caf_port.hpp"

#include <unistd.h>

#include <mutex>

#include <caf/all.hpp>
#include <caf/io/all.hpp>
#include <caf/io/basp_broker.hpp>
#include <caf/io/middleman_actor_impl.hpp>
#include <caf/io/network/default_multiplexer.hpp>

#include "protocol/caf_port_handshake.hpp"

namespace cafka {

namespace {

constexpr const char* secret_key = "cafka.caf-secret";
constexpr std::chrono::milliseconds connect_handshake_timeout{10000};

caf::actor basp_broker_of(caf::actor_system& sys) {
  return sys.middleman().named_broker<caf::io::basp_broker>(caf::atom("BASP"));
}

// CAF's middleman actor (its cache of connections and of pending connects included) with
// a connect() that runs the handshake on the socket before BASP gets it.
class guarded_middleman final : public caf::io::middleman_actor_impl {
public:
  guarded_middleman(caf::actor_config& cfg, caf::actor basp, std::string secret)
    : middleman_actor_impl(cfg, std::move(basp)), secret_(std::move(secret)) {}

  const char* name() const override { return "cafka.caf-port-connector"; }

protected:
  caf::expected<caf::io::scribe_ptr> connect(const std::string& host, uint16_t port) override {
    auto fd = caf::io::network::new_tcp_connection(host, port);
    if (!fd)
      return std::move(fd.error());
    auto failed = caf_port_client_handshake(*fd, secret_, connect_handshake_timeout);
    if (!failed.empty()) {
      ::close(*fd);
      return caf::make_error(caf::sec::cannot_connect_to_node,
                             "caf.port " + host + ":" + std::to_string(port) + ": " + failed);
    }
    return system().middleman().backend().new_scribe(*fd);
  }

private:
  std::string secret_;
};

} // namespace

// CAF rejects set() of a key it has no option for; the settings take any key.
void set_caf_secret(caf::actor_system_config& cfg, std::string secret) { caf::put(cfg.content, secret_key, std::move(secret)); }

caf_port_publication::caf_port_publication(caf::actor_system& sys, node_actor node,
                                           std::unique_ptr<caf_port_gate> gate)
  : sys_(sys), node_(std::move(node)), gate_(std::move(gate)) {}

caf_port_publication::~caf_port_publication() {
  auto port = gate_->port();
  gate_.reset();
  sys_.middleman().unpublish(node_, port);
}

std::unique_ptr<caf_port_publication> publish_on_caf_port(caf::actor_system& sys, const node_actor& node,
                                                          const std::string& host, uint16_t port,
                                                          std::string secret, std::string& error_text) {
  auto basp = basp_broker_of(sys);
  auto whom = caf::actor_cast<caf::strong_actor_ptr>(node);
  auto sigs = sys.message_types(node);
  auto* mx = &sys.middleman().backend();
  // BASP's own way to serve a connection without its doorman: the scribe (not launched
  // yet) becomes a connection to `whom`, published at the port.
  auto admit = [mx, basp, whom, sigs](int fd, uint16_t gate_port) {
    caf::anon_send(basp, caf::publish_atom_v, mx->new_scribe(fd), gate_port, whom, sigs);
  };
  auto gate = caf_port_gate::open(caf_port_gate_options{host, port, std::move(secret)}, admit, error_text);
  if (!gate)
    return nullptr;
  return std::make_unique<caf_port_publication>(sys, node, std::move(gate));
}

caf::io::middleman_actor caf_port_connector(caf::actor_system& sys) {
  static std::mutex spawning;
  std::lock_guard<std::mutex> guard{spawning};
  // The simulation's network (sim/) carries no bytes to guard and has no sockets.
  if (caf::get_or(sys.config(), "middleman.network-backend", caf::atom("default")) == caf::atom("testing"))
    return sys.middleman().actor_handle();
  auto key = caf::atom("cafkaconn");
  if (auto existing = sys.registry().get(key))
    return caf::actor_cast<caf::io::middleman_actor>(existing);
  auto secret = caf::get_or(sys.config(), secret_key, std::string{protocol::caf_handshake::default_secret});
  auto mm = sys.spawn<guarded_middleman, caf::detached + caf::hidden>(basp_broker_of(sys), std::move(secret));
  // Dies with CAF's middleman actor, which the middleman kills at shutdown before the
  // actor system waits for its detached threads.
  caf::actor_cast<caf::abstract_actor*>(sys.middleman().actor_handle())
    ->add_link(caf::actor_cast<caf::abstract_actor*>(mm));
  sys.registry().put(key, caf::actor_cast<caf::strong_actor_ptr>(mm));
  // The registry's reference must go when the actor does: the actor system waits for the
  // detached thread, which waits for the last reference.
  auto* registry = &sys.registry();
  mm->attach_functor([registry, key] { registry->erase(key); });
  return mm;
}

} // namespace cafka
