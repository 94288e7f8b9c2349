#include "client/connect.hpp"

#include <caf/all.hpp>

#include "client/bootstrap.hpp"
#include "client/node_link.hpp"

namespace cafka::client {

namespace {

caf::expected<node_actor> connect_to(caf::actor_system& sys, std::vector<endpoint> endpoints,
                                     std::chrono::milliseconds timeout) {
  link_options opts;
  opts.endpoints = std::move(endpoints);
  opts.request_timeout = timeout;
  opts.connect_timeout = std::min(timeout, opts.connect_timeout);
  auto link = spawn_node_link(sys, node_actor{}, std::move(opts));
  caf::expected<node_actor> out{caf::error{}};
  caf::scoped_actor self{sys};
  // The link answers by `timeout`; the extra second only guards against a lost answer.
  self->request(link, timeout + std::chrono::seconds(1), caf::get_atom_v)
    .receive([&](node_actor& node) { out = std::move(node); },
             [&](caf::error& err) { out = std::move(err); });
  caf::anon_send_exit(link, caf::exit_reason::user_shutdown);
  return out;
}

} // namespace

caf::expected<node_actor> connect(caf::actor_system& sys, const std::string& host, uint16_t port,
                                  std::chrono::milliseconds timeout) {
  return connect_to(sys, {endpoint{host, port}}, timeout);
}

caf::expected<node_actor> connect(caf::actor_system& sys, std::string_view bootstrap,
                                  std::chrono::milliseconds timeout) {
  auto eps = parse_bootstrap(bootstrap);
  if (!eps)
    return eps.error();
  return connect_to(sys, std::move(*eps), timeout);
}

} // namespace cafka::client
