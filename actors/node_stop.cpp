// Stopping a node (node.hpp): the ordered shutdown as one event-based actor, so that the
// blocking stop_node() and the simulation (which cannot block: it drives the actors
// itself) share the order; then the blocking close of the storage and the session.
#include "actors/node.hpp"

#include <chrono>
#include <memory>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_actor.hpp"
#include "actors/group_registry.hpp"
#include "actors/io_worker.hpp"
#include "actors/log_line.hpp"
#include "actors/node_storage.hpp"
#include "actors/offset_log_store.hpp"
#include "actors/replicated_offsets.hpp"
#include "cluster/coordinator.hpp"

namespace cafka {

namespace {

struct stop_steps {
  node_actor actor;
  caf::actor io_worker;
  bool controlled = false; ///< cluster mode with controlled.shutdown.enable
  std::vector<caf::actor> intake; ///< listeners, cleaner, expirer, quota actor
  std::shared_ptr<group_registry> groups;
  std::shared_ptr<replicated_offsets> cluster_offsets;
  std::vector<group_actor> open_groups;
};

// The stopper's last act: the actor system's destructor waits for it otherwise.
void answer(caf::event_based_actor* self, caf::response_promise& rp, bool stopped) {
  rp.deliver(stopped);
  self->quit();
}

// Step 3 and 4: the node actor closes its partitions; then the I/O worker finishes what
// is queued (checkpoint writes, deletions).
void shut_down_node(caf::event_based_actor* self, std::shared_ptr<stop_steps> steps, caf::response_promise rp) {
  self->request(steps->actor, std::chrono::seconds(60), shutdown_atom_v)
    .then(
      [=](bool) mutable {
        self->request(steps->io_worker, caf::infinite, io_job{[] { return std::error_code{}; }})
          .then([=]() mutable { answer(self, rp, true); }, [=](caf::error&) mutable { answer(self, rp, true); });
      },
      [=](caf::error& err) mutable {
        log_line(log_level::info, log_component::server, "shutdown: %s", describe(err).c_str());
        answer(self, rp, false);
      });
}

// Step 1: no new requests from here on; the groups are taken from the registry.
void stop_intake(stop_steps& steps) {
  for (auto& a : steps.intake)
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
  if (steps.groups)
    steps.open_groups = steps.groups->close();
  if (steps.cluster_offsets) // commits in flight still get their answers
    steps.cluster_offsets->close();
}

// Step 2: the groups stop (held joins and syncs are answered NOT_COORDINATOR), each
// within 10 s.
void close_groups(caf::event_based_actor* self, std::shared_ptr<stop_steps> steps, caf::response_promise rp) {
  auto left = std::make_shared<size_t>(steps->open_groups.size());
  if (*left == 0)
    shut_down_node(self, steps, rp);
  for (auto& g : steps->open_groups) {
    auto one_done = [=]() mutable {
      if (--*left == 0)
        shut_down_node(self, steps, rp);
    };
    self->request(g, std::chrono::seconds(10), caf::close_atom_v)
      .then([=](bool) mutable { one_done(); },
            [=](caf::error& err) mutable {
              log_line(log_level::info, log_component::server, "closing a group: %s", describe(err).c_str());
              one_done();
            });
  }
}

} // namespace

caf::actor spawn_node_stopper(caf::actor_system& sys, node& n) {
  auto steps = std::make_shared<stop_steps>();
  steps->actor = n.actor;
  steps->io_worker = n.io_worker;
  steps->controlled = n.views && n.storage && n.storage->config.controlled_shutdown_enable;
  for (auto& l : n.listeners)
    steps->intake.push_back(caf::actor_cast<caf::actor>(l.actor));
  steps->intake.push_back(caf::actor_cast<caf::actor>(n.cleaner));
  if (n.log_cleaner)
    steps->intake.push_back(caf::actor_cast<caf::actor>(n.log_cleaner));
  steps->intake.push_back(caf::actor_cast<caf::actor>(n.offsets_expirer));
  if (n.quota_admin)
    steps->intake.push_back(n.quota_admin);
  if (n.producer_ids)
    steps->intake.push_back(n.producer_ids);
  if (n.txn_coordinator)
    steps->intake.push_back(n.txn_coordinator);
  steps->groups = n.groups;
  steps->cluster_offsets = n.cluster_offsets;
  if (!steps->controlled)
    stop_intake(*steps);
  return sys.spawn([steps](caf::event_based_actor* self) -> caf::behavior {
    return {
      [=](shutdown_atom) -> caf::result<bool> {
        auto rp = self->make_response_promise<bool>();
        if (!steps->controlled) {
          close_groups(self, steps, rp);
          return rp;
        }
        // 0. A controlled shutdown first, while clients are still served: they get
        //    NOT_LEADER_OR_FOLLOWER and the new leaders' metadata from this broker too.
        self->request(steps->actor, caf::infinite, controlled_shutdown_atom_v)
          .then([=](bool) mutable { stop_intake(*steps); close_groups(self, steps, rp); },
                [=](caf::error& err) mutable {
                  log_line(log_level::info, log_component::server, "controlled shutdown: %s", describe(err).c_str());
                  stop_intake(*steps);
                  close_groups(self, steps, rp);
                });
        return rp;
      },
    };
  });
}

status finish_node_stop(node& n, bool stopped) {
  // The partition actors are gone: the logs are ours to close (flush, seal, marker).
  status st;
  if (n.offsets) { // the groups are closed: nothing commits any more
    st = n.offsets->close();
    // The logs as they are now (created on first commit), so that
    // the shutdown checkpoint covers them.
    for (auto& [tp, log] : n.offsets->logs())
      n.storage->internal_partitions[tp] = node_storage::open_partition{log, 0};
  }
  if (stopped) {
    auto closed = close_node_storage(*n.storage);
    if (st)
      st = closed;
  }
  caf::anon_send_exit(n.io_worker, caf::exit_reason::user_shutdown);
  // Here, not in some actor's destructor: closing a ZooKeeper session waits for the server.
  if (n.coordinator)
    n.coordinator->close();
  return st;
}

status stop_node(caf::actor_system& sys, node& n) {
  caf::scoped_actor self{sys};
  bool stopped = false;
  self->request(spawn_node_stopper(sys, n), caf::infinite, shutdown_atom_v)
    .receive([&](bool ok) { stopped = ok; }, [](caf::error&) {});
  return finish_node_stop(n, stopped);
}

} // namespace cafka
