#include "actors/quota_admin.hpp"

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/quota_store.hpp"
#include "cluster/client_quota_admin.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/quota_znodes.hpp"

namespace cafka {

namespace {

using watch_atom = caf::atom_constant<caf::atom("qwatch")>;
using reload_atom = caf::atom_constant<caf::atom("qreload")>;

// A watch that could not be armed (ZooKeeper away) is tried again this much later.
constexpr auto rearm_delay = std::chrono::seconds(1);

struct quota_admin_state {
  static inline const char* name = "cafka.quota-admin";
  std::shared_ptr<cluster::client_quota_registry> registry;
  std::shared_ptr<quota_store> store;
  caf::actor io_worker;
  std::shared_ptr<cluster::coordinator> changes;
};

using self_ptr = caf::stateful_actor<quota_admin_state>*;

// Tells the actor (if it still lives) that its watch fired, or could not be armed.
auto watch_teller(self_ptr self) {
  caf::weak_actor_ptr weak{self->ctrl()};
  return [weak](bool fired) {
    if (auto me = weak.lock())
      caf::anon_send(caf::actor_cast<caf::actor>(me), watch_atom::value, fired);
  };
}

// Arms a one-shot watch on /config/changes (on its creation while it does not exist); its
// event, or a failure to arm it, comes back here as watch_atom.
void arm_watch(self_ptr self) {
  caf::weak_actor_ptr weak{self->ctrl()};
  auto tell = watch_teller(self);
  auto& c = *self->state.changes;
  c.children(cluster::config_changes_path, [tell](const cluster::watch_event&) { tell(true); },
             [tell, weak](result<std::vector<std::string>> r) {
               if (r)
                 return;
               if (r.error() != cluster::errc::no_node) {
                 tell(false);
                 return;
               }
               if (auto me = weak.lock()) // not created yet: watch for it
                 caf::anon_send(caf::actor_cast<caf::actor>(me), watch_atom::value, false, true);
             });
}

void arm_exists_watch(self_ptr self) {
  auto tell = watch_teller(self);
  self->state.changes->exists(cluster::config_changes_path, [tell](const cluster::watch_event&) { tell(true); },
                              [tell](result<std::optional<cluster::node_stat>> r) {
                                if (!r)
                                  tell(false);
                                else if (*r) // created meanwhile: its children are watched next
                                  tell(true);
                              });
}

void reload(self_ptr self) {
  auto store = self->state.store;
  auto loaded = std::make_shared<cluster::quota_table>();
  self->request(self->state.io_worker, caf::infinite, io_job{[store, loaded]() -> std::error_code {
                  auto table = store->load();
                  if (!table)
                    return table.error();
                  *loaded = std::move(*table);
                  return {};
                }})
    .then([self, loaded] { self->state.registry->replace(std::move(*loaded)); },
          [self](caf::error& err) {
            if (err == caf::sec::request_receiver_down) { // the node stopped: so do we
              self->quit();
              return;
            }
            log_line(log_level::warn, log_component::quotas, "reloading the client quotas failed: %s; trying again", describe(err).c_str());
            self->delayed_send(self, rearm_delay, reload_atom::value);
          });
}

caf::behavior quota_admin(self_ptr self, std::shared_ptr<cluster::client_quota_registry> registry,
                          std::shared_ptr<quota_store> store, caf::actor io_worker,
                          std::shared_ptr<cluster::coordinator> changes) {
  self->state = {std::move(registry), std::move(store), std::move(io_worker), std::move(changes)};
  if (self->state.changes) {
    arm_watch(self);
    reload(self); // what was stored before the watch was armed
  }
  return {
    [=](alter_quotas_atom, wire::alter_client_quotas_request& req) -> caf::result<wire::alter_client_quotas_response> {
      auto alteration = std::make_shared<cluster::quota_alteration>(
        cluster::alter_quotas(self->state.registry->table(), req));
      if (alteration->changed.empty())
        return alteration->response;
      auto rp = self->make_response_promise<wire::alter_client_quotas_response>();
      auto store = self->state.store;
      // await: the next alteration starts from this one's table.
      self->request(self->state.io_worker, caf::infinite, io_job{[store, alteration] {
                      return store->save(alteration->after, alteration->changed).error();
                    }})
        .await(
          [self, rp, alteration]() mutable {
            self->state.registry->replace(alteration->after);
            rp.deliver(alteration->response);
          },
          [rp, req](caf::error& err) mutable {
            log_line(log_level::warn, log_component::quotas, "storing the client quotas failed: %s", describe(err).c_str());
            rp.deliver(cluster::failed_alteration(req, "storing the quotas failed: " + describe(err)));
          });
      return rp;
    },
    [=](watch_atom, bool fired) {
      if (fired) {
        arm_watch(self); // first, so that no later change goes unseen
        reload(self);
      } else {
        self->delayed_send(self, rearm_delay, watch_atom::value, true);
      }
    },
    [=](watch_atom, bool, bool) { arm_exists_watch(self); },
    [=](reload_atom) { reload(self); },
  };
}

} // namespace

caf::actor spawn_quota_admin(caf::actor_system& sys, std::shared_ptr<cluster::client_quota_registry> registry,
                             std::shared_ptr<quota_store> store, caf::actor io_worker,
                             std::shared_ptr<cluster::coordinator> changes) {
  return sys.spawn(quota_admin, std::move(registry), std::move(store), std::move(io_worker), std::move(changes));
}

} // namespace cafka
