#pragma once
// InitProducerId (key 22), v0-v1 (v1 is v0 on the wire).
//
//   request:  transactional_id:NULLABLE_STRING transaction_timeout_ms:i32
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
