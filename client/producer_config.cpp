#include "client/producer_config.hpp"

#include <cstdint>

#include <caf/make_message.hpp>
#include <caf/sec.hpp>

#include "client/bootstrap.hpp"
#include "protocol/compression.hpp"

namespace cafka::client {

namespace {

caf::error invalid(std::string what) {
  return caf::make_error(caf::sec::invalid_argument, "producer config: " + std::move(what));
}

// The settings idempotence needs (Kafka's producer: acks=all, at most 5 in flight, retries).
bool fits_idempotence(const producer_config& cfg) {
  return cfg.acks == -1 && cfg.max_in_flight <= 5 && cfg.retries > 0;
}

} // namespace

bool idempotent(const producer_config& cfg) {
  return !cfg.transactional_id.empty() || cfg.enable_idempotence.value_or(fits_idempotence(cfg));
}

caf::error validate(const producer_config& cfg, bool need_bootstrap) {
  if (need_bootstrap || !cfg.bootstrap_servers.empty()) {
    if (cfg.bootstrap_servers.empty())
      return invalid("bootstrap_servers is empty");
    if (auto eps = parse_bootstrap(cfg.bootstrap_servers); !eps)
      return eps.error();
  }
  if (cfg.batch_size == 0)
    return invalid("batch_size must be at least 1");
  if (cfg.linger.count() < 0)
    return invalid("linger must not be negative");
  if (cfg.acks != 0 && cfg.acks != 1 && cfg.acks != -1)
    return invalid("acks must be 0, 1 or -1");
  if (!protocol::is_known_codec(cfg.compression))
    return invalid("compression must be none, gzip, snappy, lz4 or zstd");
  if (cfg.retries < 0)
    return invalid("retries must not be negative");
  if (cfg.retry_backoff.initial.count() <= 0 || cfg.retry_backoff.max < cfg.retry_backoff.initial)
    return invalid("retry_backoff must be positive with max >= initial");
  if (cfg.request_timeout.count() <= 0 || cfg.delivery_timeout.count() <= 0 || cfg.connect_timeout.count() <= 0)
    return invalid("timeouts must be positive");
  if (cfg.max_in_flight == 0)
    return invalid("max_in_flight must be at least 1");
  if (cfg.max_request_size == 0)
    return invalid("max_request_size must be at least 1");
  if (cfg.buffer_memory == 0)
    return invalid("buffer_memory must be at least 1");
  if (!cfg.transactional_id.empty() && cfg.enable_idempotence == false)
    return invalid("transactional_id requires enable_idempotence");
  if (idempotent(cfg) && !fits_idempotence(cfg))
    return invalid("enable_idempotence (or a transactional_id) requires acks -1, max_in_flight at most 5 and "
                   "retries above 0");
  if (cfg.transaction_timeout.count() <= 0 || cfg.transaction_timeout.count() > INT32_MAX)
    return invalid("transaction_timeout must be positive (and fit 32 bits of milliseconds)");
  return caf::error{};
}

} // namespace cafka::client
