#include "client/producer_config.hpp"

#include <caf/make_message.hpp>
#include <caf/sec.hpp>

#include "client/bootstrap.hpp"
#include "protocol/compression.hpp"

namespace cafka::client {

namespace {

caf::error invalid(std::string what) {
  return caf::make_error(caf::sec::invalid_argument, "producer config: " + std::move(what));
}

} // namespace

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
  return caf::error{};
}

} // namespace cafka::client
