#include "cluster/client_quotas.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace cafka::cluster {

std::optional<quota_kind> quota_kind_of(const std::string& key) {
  if (key == "producer_byte_rate")
    return quota_kind::producer_byte_rate;
  if (key == "consumer_byte_rate")
    return quota_kind::consumer_byte_rate;
  if (key == "request_percentage")
    return quota_kind::request_percentage;
  return std::nullopt;
}

const char* key_of(quota_kind kind) {
  switch (kind) {
    case quota_kind::producer_byte_rate: return "producer_byte_rate";
    case quota_kind::consumer_byte_rate: return "consumer_byte_rate";
    case quota_kind::request_percentage: return "request_percentage";
  }
  return "?";
}

void quota_table::set(const quota_entity& entity, quota_kind kind, double value) { entries_[entity][kind] = value; }

void quota_table::remove(const quota_entity& entity, quota_kind kind) {
  auto it = entries_.find(entity);
  if (it == entries_.end())
    return;
  it->second.erase(kind);
  if (it->second.empty())
    entries_.erase(it);
}

std::optional<applied_quota> quota_table::match(quota_kind kind, const std::string& user,
                                                const std::string& client_id) const {
  using part = entity_part;
  struct level {
    quota_entity entity;
    bool by_user;
    bool by_client;
  };
  // Kafka's eight levels, most specific first.
  const level levels[] = {
    {{part::named_as(user), part::named_as(client_id)}, true, true},
    {{part::named_as(user), part::any_default()}, true, true},
    {{part::named_as(user), part::absent()}, true, false},
    {{part::any_default(), part::named_as(client_id)}, true, true},
    {{part::any_default(), part::any_default()}, true, true},
    {{part::any_default(), part::absent()}, true, false},
    {{part::absent(), part::named_as(client_id)}, false, true},
    {{part::absent(), part::any_default()}, false, true},
  };
  for (auto& l : levels) {
    auto it = entries_.find(l.entity);
    if (it == entries_.end())
      continue;
    auto value = it->second.find(kind);
    if (value == it->second.end())
      continue;
    applied_quota out{value->second, l.by_user ? user : "", l.by_client ? client_id : ""};
    if (out.user_tag.empty() && out.client_tag.empty())
      return std::nullopt; // no one to charge (an empty client-id under client quotas): Kafka lets it be
    return out;
  }
  return std::nullopt;
}

windowed_rate::windowed_rate(int samples, int64_t window_ms)
  : samples_(std::max(1, samples)), window_ms_(std::max<int64_t>(1, window_ms)) {}

void windowed_rate::purge(int64_t now_ms) {
  // A sample untouched for all the windows counts no more (Kafka's purgeObsoleteSamples).
  ring_.erase(std::remove_if(ring_.begin(), ring_.end(),
                             [&](const sample& s) { return now_ms - s.last_ms >= samples_ * window_ms_; }),
              ring_.end());
}

void windowed_rate::record(double value, int64_t now_ms) {
  purge(now_ms);
  if (ring_.empty() || now_ms - ring_.back().start_ms >= window_ms_) {
    ring_.push_back(sample{now_ms, now_ms, 0});
    if (static_cast<int>(ring_.size()) > samples_)
      ring_.erase(ring_.begin());
  }
  ring_.back().value += value;
  ring_.back().last_ms = now_ms;
}

int64_t windowed_rate::window_size(int64_t now_ms) const {
  int64_t elapsed = 0;
  for (auto& s : ring_)
    if (now_ms - s.last_ms < samples_ * window_ms_) {
      elapsed = now_ms - s.start_ms; // the oldest sample still counting
      break;
    }
  auto full = elapsed / window_ms_;
  if (full < samples_ - 1)
    elapsed += (samples_ - 1 - full) * window_ms_;
  return std::max<int64_t>(elapsed, 1);
}

double windowed_rate::rate(int64_t now_ms) const {
  double total = 0;
  for (auto& s : ring_)
    if (now_ms - s.last_ms < samples_ * window_ms_)
      total += s.value;
  return total / (static_cast<double>(window_size(now_ms)) / 1000.0);
}

int64_t throttle_time_ms(double rate, double limit, int64_t window_ms) {
  if (limit <= 0 || rate <= limit)
    return 0;
  return static_cast<int64_t>(std::llround((rate - limit) / limit * static_cast<double>(window_ms)));
}

quota_usage::quota_usage(int window_num, int window_size_seconds)
  : samples_(std::max(1, window_num)), window_ms_(std::max(1, window_size_seconds) * int64_t{1000}) {}

int64_t quota_usage::record(const quota_table& quotas, quota_kind kind, const std::string& user,
                            const std::string& client_id, double value, int64_t now_ms) {
  auto quota = quotas.match(kind, user, client_id);
  if (!quota)
    return 0;
  expire_idle(now_ms);
  auto key = std::make_tuple(kind, quota->user_tag, quota->client_tag);
  auto it = budgets_.try_emplace(key, budget{windowed_rate{samples_, window_ms_}, now_ms}).first;
  auto& rate = it->second.rate;
  it->second.last_ms = now_ms;
  rate.record(value, now_ms);
  auto throttle = throttle_time_ms(rate.rate(now_ms), quota->limit, rate.window_size(now_ms));
  return kind == quota_kind::request_percentage ? std::min(throttle, window_ms_) : throttle;
}

void quota_usage::expire_idle(int64_t now_ms) {
  constexpr int64_t idle_ms = 3600 * 1000;
  if (now_ms < next_expiry_ms_)
    return;
  next_expiry_ms_ = now_ms + 60 * 1000;
  for (auto it = budgets_.begin(); it != budgets_.end();)
    it = now_ms - it->second.last_ms > idle_ms ? budgets_.erase(it) : std::next(it);
}

quota_table client_quota_registry::table() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return table_;
}

void client_quota_registry::replace(quota_table table) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (!table.entries().empty())
    enabled_ = true; // sticky, as Kafka's quotaTypesEnabled
  table_ = std::move(table);
}

int64_t client_quota_registry::record(quota_kind kind, const std::string& user, const std::string& client_id,
                                      double value, int64_t now_ms) {
  if (!enabled_.load(std::memory_order_relaxed))
    return 0;
  std::lock_guard<std::mutex> guard{mutex_};
  return usage_.record(table_, kind, user, client_id, value, now_ms);
}

} // namespace cafka::cluster
