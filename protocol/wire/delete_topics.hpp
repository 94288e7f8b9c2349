#pragma once
// DeleteTopics (key 20), v0-v3.
//
//   request:  topic_names:ARRAY[STRING] timeout_ms:i32
//   response: [v1+ throttle_time_ms:i32] responses:ARRAY[name:STRING error_code:i16]

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct delete_topics_request {
  std::vector<std::string> topic_names;
  int32_t timeout_ms = 0;
};

struct delete_topic_result {
  std::string name;
  int16_t error_code = 0;
};

struct delete_topics_response {
  int32_t throttle_time_ms = 0; ///< v1+
  std::vector<delete_topic_result> responses;
};

result<delete_topics_request> decode_delete_topics_request(bytes_view body, int16_t version);
void encode_delete_topics_response(const delete_topics_response& resp, int16_t version,
                                   byte_writer& w);

} // namespace cafka::wire
