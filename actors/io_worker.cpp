#include "actors/io_worker.hpp"

#include <caf/all.hpp>

#include "actors/errors.hpp"

namespace cafka {

namespace {

caf::behavior io_worker(caf::event_based_actor*) {
  return {
    [](io_job& job) -> caf::result<void> {
      if (auto ec = job.run())
        return to_caf_error(ec);
      return caf::unit;
    },
  };
}

} // namespace

caf::actor spawn_io_worker(caf::actor_system& sys, bool detached) {
  if (!detached)
    return sys.spawn(io_worker);
  return sys.spawn<caf::detached>(io_worker);
}

} // namespace cafka
