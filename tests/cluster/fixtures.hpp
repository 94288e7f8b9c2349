#pragma once
// Helpers for the coordinator tests. With the embedded implementation every completion runs
// before the outermost call returns, so these wrappers turn a call into its result. They must
// not be used inside a callback (a nested call completes only after the callback returns).

#include <memory>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "cluster/coordinator.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"

// Printing for Boost.Test (found by argument-dependent lookup).
namespace cafka::cluster {

inline std::ostream& operator<<(std::ostream& os, const watch_event& e) {
  return os << to_string(e.type) << '(' << e.path << ')';
}
inline std::ostream& operator<<(std::ostream& os, session_state s) {
  return os << to_string(s);
}
inline std::ostream& operator<<(std::ostream& os, errc e) {
  return os << make_error_code(e).message();
}

} // namespace cafka::cluster

namespace cafka::test {

using namespace cafka::cluster;
using cafka::result;
using cafka::status;

/// Records the watch events and session states delivered to it.
struct recorder {
  std::vector<watch_event> events;
  std::vector<session_state> states;

  watcher watch() {
    return [this](const watch_event& e) { events.push_back(e); };
  }
  session_callback on_state() {
    return [this](session_state s) { states.push_back(s); };
  }
};

/// Calls `op(callback)` and returns what the callback received.
template <class T, class Op>
result<T> call(Op op) {
  std::optional<result<T>> out;
  op([&](result<T> r) { out.emplace(std::move(r)); });
  BOOST_REQUIRE_MESSAGE(out.has_value(), "completion did not run before the call returned");
  return std::move(*out);
}

inline result<std::string> create(coordinator& c, const std::string& path,
                                  std::string_view data = {},
                                  create_mode mode = create_mode::persistent) {
  return call<std::string>([&](auto cb) { c.create(path, data, mode, cb); });
}

inline status remove(coordinator& c, const std::string& path, int32_t version = any_version) {
  std::optional<status> out;
  c.remove(path, version, [&](status s) { out = s; });
  BOOST_REQUIRE(out.has_value());
  return *out;
}

inline result<std::optional<node_stat>> exists(coordinator& c, const std::string& path,
                                               watcher w = {}) {
  return call<std::optional<node_stat>>([&](auto cb) { c.exists(path, std::move(w), cb); });
}

inline result<node_data> get(coordinator& c, const std::string& path, watcher w = {}) {
  return call<node_data>([&](auto cb) { c.get(path, std::move(w), cb); });
}

inline result<node_stat> set(coordinator& c, const std::string& path, std::string_view data,
                             int32_t version = any_version) {
  return call<node_stat>([&](auto cb) { c.set(path, data, version, cb); });
}

inline result<std::vector<std::string>> children(coordinator& c, const std::string& path,
                                                 watcher w = {}) {
  return call<std::vector<std::string>>([&](auto cb) { c.children(path, std::move(w), cb); });
}

/// One shared store; sessions are opened on demand.
struct store_fixture {
  std::shared_ptr<embedded_store> store = std::make_shared<embedded_store>();

  std::unique_ptr<embedded_coordinator> open(session_callback on_state = {}) {
    return std::make_unique<embedded_coordinator>(store, std::move(on_state));
  }
};

} // namespace cafka::test
