#pragma once
// InitProducerId (key 22), v0-v4. v1 is v0 on the wire; v2 is the first flexible version;
// v3 adds the producer's current id and epoch (KIP-360: a producer that lost track of its
// sequences asks for a bumped epoch of the same id); v4 only tells the broker that the client
// understands PRODUCER_FENCED.
//
//   request:  transactional_id:NULLABLE_STRING transaction_timeout_ms:i32
//             [v3+ producer_id:i64 producer_epoch:i16]
//   response: throttle_time_ms:i32 error_code:i16 producer_id:i64 producer_epoch:i16

#include <cstdint>
#include <optional>
#include <string>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct init_producer_id_request {
  std::optional<std::string> transactional_id;
  int32_t transaction_timeout_ms = -1;
  /// The producer's current id and epoch (v3+); -1 for a new producer.
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
};

struct init_producer_id_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  int64_t producer_id = -1;
  int16_t producer_epoch = -1;
};

result<init_producer_id_request> decode_init_producer_id_request(bytes_view body, int16_t version);
void encode_init_producer_id_response(const init_producer_id_response& resp, int16_t version,
                                      byte_writer& w);

} // namespace cafka::wire
