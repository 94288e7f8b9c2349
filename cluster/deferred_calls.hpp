#pragma once
// A per-thread FIFO of callbacks, the embedded store's stand-in for ZooKeeper's completion
// thread: callbacks are collected under the store's mutex and run here after it is released.
//
// run_deferred appends `calls` to the calling thread's queue. If the thread is not already
// draining the queue, it drains it (FIFO, including calls appended meanwhile by the callbacks
// themselves) before returning; otherwise (a callback made a store call) it returns at once and
// the outer drain runs them in turn. So callbacks never nest, and each thread's callbacks run in
// the order they were queued. Empty std::function entries are skipped. If a callback throws
// (a contract violation), the rest of this thread's queue is discarded and the exception
// propagates.

#include <functional>
#include <vector>

namespace cafka::cluster {

using deferred_call = std::function<void()>;

void run_deferred(std::vector<deferred_call> calls);

} // namespace cafka::cluster
