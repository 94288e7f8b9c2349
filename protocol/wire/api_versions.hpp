#pragma once
// ApiVersions (key 18), v0-v3. v3 is flexible (compact types, tagged fields), but its
// response still goes out with response header v0.
//
//   request v0-v2: (empty)
//   request v3:    client_software_name:COMPACT_STRING client_software_version:COMPACT_STRING TAG_BUFFER
//   response v0:   error_code:i16 api_keys:ARRAY[api_key:i16 min_version:i16 max_version:i16]
//   response v1-2: v0 + throttle_time_ms:i32
//   response v3:   error_code:i16 api_keys:COMPACT_ARRAY[api_key min max TAG_BUFFER]
//                  throttle_time_ms:i32 TAG_BUFFER

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct api_versions_request {
  std::string client_software_name;    ///< v3+
  std::string client_software_version; ///< v3+
};

struct api_versions_response {
  int16_t error_code = 0;
  std::vector<version_range> api_keys;
  int32_t throttle_time_ms = 0;
};

result<api_versions_request> decode_api_versions_request(bytes_view body, int16_t version);
void encode_api_versions_response(const api_versions_response& resp, int16_t version,
                                  byte_writer& w);

/// Kafka's answer to an ApiVersions version it does not know: v0 layout, error 35
/// (UNSUPPORTED_VERSION) and only the ApiVersions range, so the client retries with a
/// version from that range.
api_versions_response unsupported_api_versions_response();

} // namespace cafka::wire
