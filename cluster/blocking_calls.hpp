#pragma once
// Waiting for a coordinator's asynchronous calls, for code that may block (the I/O worker,
// start-up): each waits at most `coordinator_wait` (a session closed under a call never
// answers), then gives up with timed_out.

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <system_error>

#include "cluster/coordinator.hpp"

namespace cafka::cluster {

inline constexpr auto coordinator_wait = std::chrono::seconds(30);

/// Runs `call(callback)` and waits for the callback's result<T>.
template <class T, class Call>
result<T> wait_for(Call call) {
  auto promise = std::make_shared<std::promise<result<T>>>();
  auto answer = promise->get_future();
  call([promise](result<T> r) { promise->set_value(std::move(r)); });
  if (answer.wait_for(coordinator_wait) != std::future_status::ready)
    return std::make_error_code(std::errc::timed_out);
  return answer.get();
}

/// Sets a persistent node's data, creating it and its parents when it is missing.
status store_node(coordinator& c, const std::string& path, const std::string& data);

} // namespace cafka::cluster
