#include "cluster/deferred_calls.hpp"

#include <deque>

namespace cafka::cluster {
namespace {

struct thread_queue {
  std::deque<deferred_call> pending;
  bool draining = false;
};

thread_local thread_queue queue;

} // namespace

void run_deferred(std::vector<deferred_call> calls) {
  for (auto& call : calls)
    if (call)
      queue.pending.push_back(std::move(call));
  if (queue.draining)
    return;
  queue.draining = true;
  struct reset_on_exit {
    ~reset_on_exit() {
      if (!finished) // a callback threw: leave no stale callbacks for the next caller
        queue.pending.clear();
      queue.draining = false;
    }
    bool finished = false;
  } reset;
  while (!queue.pending.empty()) {
    auto call = std::move(queue.pending.front());
    queue.pending.pop_front();
    call();
  }
  reset.finished = true;
}

} // namespace cafka::cluster
