#pragma once
// caf.port behind its handshake (actors/caf_port_gate.hpp, docs/security.md): the node
// actor is published through the gate, and every connection this process opens to a
// caf.port runs the handshake before CAF's BASP. Use caf_port_connector() wherever CAF's
// middleman actor would be asked to connect_atom.

#include <cstdint>
#include <memory>
#include <string>

#include <caf/fwd.hpp>
#include <caf/io/middleman_actor.hpp>

#include "actors/caf_port_gate.hpp"
#include "actors/node_actor.hpp"

namespace cafka {

/// The secret this actor system proves when it connects (configure_actor_system() sets
/// the built-in one, or CAFKA_CAF_SECRET_FILE's).
void set_caf_secret(caf::actor_system_config& cfg, std::string secret);

/// A node actor published at caf.port behind the gate; destroying it closes the gate and
/// unpublishes the actor (before stop_node and before the actor system goes).
class caf_port_publication {
public:
  caf_port_publication(caf::actor_system& sys, node_actor node, std::unique_ptr<caf_port_gate> gate);
  ~caf_port_publication();
  uint16_t port() const { return gate_->port(); }

  caf_port_publication(const caf_port_publication&) = delete;
  caf_port_publication& operator=(const caf_port_publication&) = delete;

private:
  caf::actor_system& sys_;
  node_actor node_;
  std::unique_ptr<caf_port_gate> gate_;
};

/// Publishes `node` on host:port (0 = any free port) behind the gate, which hands the
/// connections that prove `secret` to CAF's BASP broker. nullptr and `error_text` set if
/// the port cannot be bound.
std::unique_ptr<caf_port_publication> publish_on_caf_port(caf::actor_system& sys, const node_actor& node,
                                                          const std::string& host, uint16_t port,
                                                          std::string secret, std::string& error_text);

/// CAF's middleman actor, but each connection it opens first runs the handshake with the
/// secret of set_caf_secret() (one per actor system, spawned on first use; a detached
/// actor, as CAF's own, since connecting blocks).
caf::io::middleman_actor caf_port_connector(caf::actor_system& sys);

} // namespace cafka
