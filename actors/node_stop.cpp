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
  std::vector<group_actor> groups;
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
        log_line("shutdown: %s", describe(err).c_str());
        answer(self, rp, false);
      });
}

} // namespace

caf::actor spawn_node_stopper(caf::actor_system& sys, node& n) {
  // 1. No new requests from here on.
  for (auto& l : n.listeners)
    caf::anon_send_exit(l.actor, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(n.cleaner, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(n.offsets_expirer, caf::exit_reason::user_shutdown);
  if (n.quota_admin)
    caf::anon_send_exit(n.quota_admin, caf::exit_reason::user_shutdown);
  auto steps = std::make_shared<stop_steps>();
  steps->actor = n.actor;
  steps->io_worker = n.io_worker;
  if (n.groups)
    steps->groups = n.groups->close();
  if (n.cluster_offsets) // commits in flight still get their answers
    n.cluster_offsets->close();
  return sys.spawn([steps](caf::event_based_actor* self) -> caf::behavior {
    return {
      [=](shutdown_atom) -> caf::result<bool> {
        auto rp = self->make_response_promise<bool>();
        // 2. The groups stop (held joins and syncs are answered NOT_COORDINATOR), each
        //    within 10 s.
        auto left = std::make_shared<size_t>(steps->groups.size());
        if (*left == 0)
          shut_down_node(self, steps, rp);
        for (auto& g : steps->groups) {
          auto one_done = [=]() mutable {
            if (--*left == 0)
              shut_down_node(self, steps, rp);
          };
          self->request(g, std::chrono::seconds(10), caf::close_atom_v)
            .then([=](bool) mutable { one_done(); },
                  [=](caf::error& err) mutable {
                    log_line("closing a group: %s", describe(err).c_str());
                    one_done();
                  });
        }
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
    // The logs as they are now (created on first commit, replaced by rewrites), so that
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
