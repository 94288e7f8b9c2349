#include "client/retry.hpp"

#include <caf/error.hpp>

#include "actors/errors.hpp"

namespace cafka::client {

protocol::kafka_error from_wire(int16_t code) noexcept {
  if (code == -1)
    return protocol::kafka_error::unknown_server_error;
  if (code < 0 || code > 254)
    return protocol::kafka_error::unknown_server_error;
  return static_cast<protocol::kafka_error>(code);
}

bool is_retriable(protocol::kafka_error err) noexcept {
  using protocol::kafka_error;
  switch (err) {
    case kafka_error::request_timed_out:
    case kafka_error::network_exception:
    case kafka_error::leader_not_available:
    case kafka_error::not_leader_or_follower:
    case kafka_error::kafka_storage_error:
    case kafka_error::not_coordinator:
    case kafka_error::coordinator_not_available:
    case kafka_error::not_enough_replicas:              // not written: the ISR may grow back
    case kafka_error::not_enough_replicas_after_append: // written, maybe not replicated: send again
    case kafka_error::fenced_leader_epoch:              // metadata older than the leader's
    case kafka_error::unknown_leader_epoch:             // metadata newer than the leader's
    case kafka_error::offset_not_available:             // a new leader's high watermark lags
      return true;
    default:
      return false;
  }
}

bool is_retriable(const caf::error& err) noexcept {
  if (!err)
    return false;
  return is_retriable(cafka::to_kafka_error(err));
}

} // namespace cafka::client
