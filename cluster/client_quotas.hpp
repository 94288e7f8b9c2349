#pragma once
// Client quotas as Kafka's ClientQuotaManager computes them (docs/quotas-notes.md), without
// I/O: which configured quota applies to a (user, client-id) pair and whose budget it
// shares, the windowed rate of what a budget used, and how long to throttle a client that
// went over. The listener records produce bytes, fetch bytes and request time here and
// answers throttle_time_ms / mutes the connection for the time returned (a later step).
//
// Entities: a user and/or a client-id, each a name or <default>. For (user U, client-id C)
// the first configured entity of: U+C, U+<default>, U, <default>+C, <default>+<default>,
// <default>, C, <default client-id> that sets the quota's key wins (Kafka's precedence; no
// merging across levels). Its level decides the budget: user-and-client levels give each
// (U, C) its own, user levels each U, client levels each C; a <default> quota gives every
// entity a budget of its own, not one shared pool. Plaintext clients are user "ANONYMOUS".

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace cafka::cluster {

/// The quota keys (Kafka's names): bytes/s produced, bytes/s fetched, percent of one
/// thread's time.
enum class quota_kind { producer_byte_rate, consumer_byte_rate, request_percentage };

/// "producer_byte_rate" etc.; nullopt for a key that is not a quota cafka enforces.
std::optional<quota_kind> quota_kind_of(const std::string& key);
const char* key_of(quota_kind kind);

/// One side of an entity: absent, <default>, or a name.
struct entity_part {
  enum class form { absent, default_entity, named } kind = form::absent;
  std::string name;

  static entity_part absent() { return {}; }
  static entity_part any_default() { return {form::default_entity, {}}; }
  static entity_part named_as(std::string n) { return {form::named, std::move(n)}; }
  friend bool operator<(const entity_part& a, const entity_part& b) {
    return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
  }
  friend bool operator==(const entity_part& a, const entity_part& b) {
    return a.kind == b.kind && a.name == b.name;
  }
};

/// A quota entity: a user, a client-id, or both.
struct quota_entity {
  entity_part user;
  entity_part client_id;
  friend bool operator<(const quota_entity& a, const quota_entity& b) {
    return std::tie(a.user, a.client_id) < std::tie(b.user, b.client_id);
  }
  friend bool operator==(const quota_entity& a, const quota_entity& b) {
    return a.user == b.user && a.client_id == b.client_id;
  }
};

/// The quota that applies, and whose budget it is: (user tag, client-id tag), "" for a
/// side the budget does not depend on.
struct applied_quota {
  double limit = 0;
  std::string user_tag;
  std::string client_tag;
};

/// The configured quotas: per entity, key -> value.
class quota_table {
public:
  void set(const quota_entity& entity, quota_kind kind, double value);
  void remove(const quota_entity& entity, quota_kind kind);
  const std::map<quota_entity, std::map<quota_kind, double>>& entries() const noexcept { return entries_; }

  /// The quota of `kind` for a client, by Kafka's precedence; nullopt = unlimited.
  std::optional<applied_quota> match(quota_kind kind, const std::string& user, const std::string& client_id) const;

private:
  std::map<quota_entity, std::map<quota_kind, double>> entries_;
};

/// What one budget used over the last `samples` windows of `window_ms` (Kafka's
/// Rate(WindowedSum) over SampledStat: the current window plus samples-1 whole ones).
class windowed_rate {
public:
  windowed_rate(int samples, int64_t window_ms);

  void record(double value, int64_t now_ms);
  /// Per second, over window_size(now_ms).
  double rate(int64_t now_ms) const;
  /// The time the rate divides by: from the oldest sample's start, but at least
  /// samples-1 whole windows (so a fresh budget is not judged on one instant), >= 1 ms.
  int64_t window_size(int64_t now_ms) const;

private:
  struct sample {
    int64_t start_ms = 0;
    int64_t last_ms = 0;
    double value = 0;
  };
  void purge(int64_t now_ms);
  int samples_;
  int64_t window_ms_;
  std::vector<sample> ring_; ///< oldest first
};

/// How long a client whose budget measures `rate` against `limit` over `window_ms` must
/// wait for the rate to fall back to the limit: round((rate - limit) / limit * window), 0 when
/// within it (Kafka's QuotaUtils.throttleTime).
int64_t throttle_time_ms(double rate, double limit, int64_t window_ms);

/// The budgets of one broker: records usage and says how long to throttle.
class quota_usage {
public:
  /// quota.window.num (>= 1) and quota.window.size.seconds (>= 1).
  quota_usage(int window_num = 11, int window_size_seconds = 1);

  /// Records `value` (bytes, or percent of a thread-second) for the client's budget of
  /// `kind`; returns the throttle time (0 if within the quota or none applies). Request
  /// time throttles are capped at one window, as Kafka caps them; byte rates are not.
  int64_t record(const quota_table& quotas, quota_kind kind, const std::string& user, const std::string& client_id,
                 double value, int64_t now_ms);

  /// Budgets in use (those idle for an hour are dropped, as Kafka expires its sensors).
  size_t budgets() const noexcept { return budgets_.size(); }

private:
  struct budget {
    windowed_rate rate;
    int64_t last_ms = 0;
  };
  void expire_idle(int64_t now_ms);

  int samples_;
  int64_t window_ms_;
  std::map<std::tuple<quota_kind, std::string, std::string>, budget> budgets_;
  int64_t next_expiry_ms_ = 0;
};

/// The quotas of one broker as its listeners use them from their threads: the configured
/// table (replaced whole when the stored quotas change) and the budgets.
class client_quota_registry {
public:
  client_quota_registry(int window_num = 11, int window_size_seconds = 1) : usage_(window_num, window_size_seconds) {}

  quota_table table() const;
  void replace(quota_table table);
  /// Whether anything is recorded (some quota was configured since the broker started).
  bool enabled() const noexcept { return enabled_.load(std::memory_order_relaxed); }
  /// quota_usage::record under the lock; 0 at once while no quota was ever configured
  /// (Kafka records nothing until then either).
  int64_t record(quota_kind kind, const std::string& user, const std::string& client_id, double value,
                 int64_t now_ms);

private:
  mutable std::mutex mutex_;
  std::atomic<bool> enabled_{false};
  quota_table table_;
  quota_usage usage_;
};

/// The user of a connection without authentication (every connection today: no SASL yet).
inline const std::string anonymous_user = "ANONYMOUS";

} // namespace cafka::cluster
