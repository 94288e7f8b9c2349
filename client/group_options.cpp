#include "client/group_options.hpp"

#include <cstdint>
#include <limits>

#include "cluster/assignor_lookup.hpp"

namespace cafka::client {

std::string effective_group_id(const group_options& opts) {
  return opts.group_id.empty() ? std::string{default_group_id} : opts.group_id;
}

std::string validate(const group_options& opts) {
  if (opts.topics.empty())
    return "group_options.topics is empty: subscribe to at least one topic";
  for (auto& t : opts.topics)
    if (t.empty())
      return "group_options.topics contains an empty topic name";
  if (!cluster::find_assignor(opts.assignor))
    return "unknown assignor '" + opts.assignor + "' (use range, roundrobin or sticky)";
  constexpr auto max_ms = std::numeric_limits<int32_t>::max();
  auto bad = [](std::chrono::milliseconds d) { return d.count() <= 0 || d.count() > max_ms; };
  if (bad(opts.session_timeout))
    return "session_timeout must be between 1 ms and 2^31-1 ms";
  if (bad(opts.heartbeat_interval))
    return "heartbeat_interval must be between 1 ms and 2^31-1 ms";
  if (bad(opts.max_poll_interval))
    return "max_poll_interval must be between 1 ms and 2^31-1 ms";
  if (opts.enable_auto_commit && opts.auto_commit_interval.count() <= 0)
    return "auto_commit_interval must be positive";
  if (opts.heartbeat_interval >= opts.session_timeout)
    return "heartbeat_interval must be shorter than session_timeout";
  if (opts.fetch.request_timeout.count() <= 0)
    return "fetch.request_timeout must be positive";
  return {};
}

} // namespace cafka::client
