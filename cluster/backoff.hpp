#pragma once
// Exponential back-off between repeated attempts, as pure logic (no CAF, no clock of its
// own: callers pass `now`). Used by the client's retries and node links (client/retry.hpp
// re-exports backoff_policy and backoff_delay) and by the cluster member's connections to
// other brokers (actors/cluster_member.cpp), so that a broker that cannot be reached is not
// asked again at once on every request.
//
// reconnect_backoff is the state of one peer: after each failed connection attempt the next
// one is allowed only `backoff_delay(policy, failures - 1)` later (100 ms, 200 ms, ... up to
// the policy's max); a success resets it, so a peer that comes back is used at once. Until
// then `may_try(now)` says no and the caller does what it does without the peer (fails
// fast, or falls back). The first attempt is always allowed.

#include <chrono>

namespace cafka::cluster {

/// Exponential backoff: `initial`, doubled per attempt, at most `max`.
struct backoff_policy {
  std::chrono::milliseconds initial{100};
  std::chrono::milliseconds max{1000};
};

/// The wait before retry number `attempt` (0 = the first retry).
std::chrono::milliseconds backoff_delay(const backoff_policy& policy, unsigned attempt) noexcept;

/// Whether a new connection attempt to one peer may start now (see the header comment).
class reconnect_backoff {
public:
  using time_point = std::chrono::steady_clock::time_point;

  explicit reconnect_backoff(backoff_policy policy = {}) noexcept : policy_(policy) {}

  /// True unless an attempt failed and its back-off has not passed at `now`.
  bool may_try(time_point now) const noexcept { return failures_ == 0 || now >= not_before_; }
  /// An attempt failed at `now`: the next one waits (longer each time, up to the max).
  void failed(time_point now) noexcept;
  /// An attempt succeeded: the next failure starts from the initial delay again.
  void succeeded() noexcept { failures_ = 0; }

  /// Consecutive failed attempts so far.
  unsigned failures() const noexcept { return failures_; }
  /// When the next attempt may start (meaningful while failures() > 0).
  time_point not_before() const noexcept { return not_before_; }

private:
  backoff_policy policy_;
  unsigned failures_ = 0;
  time_point not_before_{};
};

} // namespace cafka::cluster
