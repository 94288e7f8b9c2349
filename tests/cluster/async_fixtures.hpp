#pragma once
// Helpers for coordinator tests whose callbacks arrive on another thread (ZooKeeper's completion
// thread). Every wait is bounded by wait_limit and fails the test instead of hanging it. They
// work with the embedded coordinator too (its callbacks ran before the call returned), so the
// checks of coordinator_contract_test.cpp run unchanged against both implementations.
//
// session_source opens connected sessions: embedded_source on one embedded_store,
// zookeeper_source on the process-wide test ZooKeeper server (started on first use, stopped at
// exit), each zookeeper_source in its own fresh chroot so that every test sees an empty tree.

#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cluster/zookeeper_coordinator.hpp"
#include "tests/cluster/fixtures.hpp"
#include "tests/support/zookeeper_server.hpp"

namespace cafka::test::async {

using namespace cafka::cluster;
using cafka::result;
using cafka::status;
using cafka::test::force_session_expiry;
using cafka::test::zookeeper_server;

inline constexpr auto wait_limit = std::chrono::seconds(30);

/// Calls `op(callback)` and waits (bounded) for what the callback receives.
template <class T, class Op>
result<T> await(Op op) {
  auto promise = std::make_shared<std::promise<result<T>>>();
  auto future = promise->get_future();
  op([promise](result<T> r) { promise->set_value(std::move(r)); });
  BOOST_REQUIRE_MESSAGE(future.wait_for(wait_limit) == std::future_status::ready,
                        "no completion within the wait limit");
  return future.get();
}

inline result<std::string> create(coordinator& c, const std::string& path,
                                  std::string_view data = {},
                                  create_mode mode = create_mode::persistent) {
  std::string bytes{data};
  return await<std::string>([&](auto cb) { c.create(path, bytes, mode, cb); });
}

inline status remove(coordinator& c, const std::string& path, int32_t version = any_version) {
  return await<void>([&](auto cb) { c.remove(path, version, cb); });
}

inline result<std::optional<node_stat>> exists(coordinator& c, const std::string& path,
                                               watcher w = {}) {
  return await<std::optional<node_stat>>([&](auto cb) { c.exists(path, std::move(w), cb); });
}

inline result<node_data> get(coordinator& c, const std::string& path, watcher w = {}) {
  return await<node_data>([&](auto cb) { c.get(path, std::move(w), cb); });
}

inline result<node_stat> set(coordinator& c, const std::string& path, std::string_view data,
                             int32_t version = any_version) {
  return await<node_stat>([&](auto cb) { c.set(path, data, version, cb); });
}

inline result<std::vector<std::string>> children(coordinator& c, const std::string& path,
                                                 watcher w = {}) {
  return await<std::vector<std::string>>(
    [&](auto cb) { c.children(path, std::move(w), cb); });
}

/// Thread-safe record of watch events and session states, with bounded waits. Declare it
/// before the sessions that report to it (it must outlive them).
class event_log {
public:
  watcher watch() {
    return [this](const watch_event& e) { add([&] { events_.push_back(e); }); };
  }
  session_callback on_state() {
    return [this](session_state s) { add([&] { states_.push_back(s); }); };
  }
  std::vector<watch_event> events() const {
    std::lock_guard<std::mutex> guard{m_};
    return events_;
  }
  std::vector<session_state> states() const {
    std::lock_guard<std::mutex> guard{m_};
    return states_;
  }
  /// Until at least `n` events arrived.
  bool wait_events(std::size_t n) {
    return wait_until([&] { return events_.size() >= n; });
  }
  /// Until the latest state is `s`.
  bool wait_state(session_state s) {
    return wait_until([&] { return !states_.empty() && states_.back() == s; });
  }

private:
  template <class F>
  void add(F f) {
    std::lock_guard<std::mutex> guard{m_};
    f();
    cv_.notify_all();
  }
  template <class Pred>
  bool wait_until(Pred pred) {
    std::unique_lock<std::mutex> lock{m_};
    return cv_.wait_for(lock, wait_limit, pred);
  }

  mutable std::mutex m_;
  std::condition_variable cv_;
  std::vector<watch_event> events_;
  std::vector<session_state> states_;
};

/// A flag set from a callback and waited for (bounded) by the test.
class latch {
public:
  void set() {
    std::lock_guard<std::mutex> guard{m_};
    set_ = true;
    cv_.notify_all();
  }
  bool wait() {
    std::unique_lock<std::mutex> lock{m_};
    return cv_.wait_for(lock, wait_limit, [&] { return set_; });
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  bool set_ = false;
};

struct session_source {
  virtual ~session_source() = default;
  /// A new session, already connected.
  virtual std::unique_ptr<coordinator> open(session_callback on_state = {}) = 0;
};

struct embedded_source : session_source {
  std::shared_ptr<embedded_store> store = std::make_shared<embedded_store>();
  std::unique_ptr<coordinator> open(session_callback on_state = {}) override {
    return std::make_unique<embedded_coordinator>(store, std::move(on_state));
  }
};

/// The ZooKeeper server shared by the tests of this process.
inline zookeeper_server& shared_zookeeper() {
  static zookeeper_server server;
  return server;
}

/// Opens a zookeeper_coordinator on `connect` and waits until it is connected.
inline std::unique_ptr<zookeeper_coordinator>
open_zookeeper(const std::string& connect, session_callback on_state = {},
               std::chrono::milliseconds session_timeout = std::chrono::seconds(10)) {
  auto ready = std::make_shared<latch>();
  auto c = std::make_unique<zookeeper_coordinator>(
    connect, session_timeout, [ready, on_state](session_state s) {
      if (on_state)
        on_state(s);
      if (s == session_state::connected)
        ready->set();
    });
  BOOST_REQUIRE_MESSAGE(ready->wait(), "no ZooKeeper session on " << connect);
  return c;
}

/// "127.0.0.1:<port>/t<n>": a fresh, existing chroot on the shared server.
inline std::string fresh_chroot() {
  static int counter = 0;
  auto connect = shared_zookeeper().hosts() + "/t" + std::to_string(++counter);
  auto made = zookeeper_coordinator::ensure_chroot(connect, wait_limit);
  BOOST_REQUIRE_MESSAGE(made, "ensure_chroot(" << connect << "): " << made.error().message());
  return connect;
}

struct zookeeper_source : session_source {
  std::string connect = fresh_chroot();
  std::unique_ptr<coordinator> open(session_callback on_state = {}) override {
    return open_zookeeper(connect, std::move(on_state));
  }
};

} // namespace cafka::test::async
