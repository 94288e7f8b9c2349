#pragma once
// Request and response headers, and the size-prefixed frame around a response.
//
// Request header v1: api_key:i16 api_version:i16 correlation_id:i32 client_id:NULLABLE_STRING;
// v2 (flexible request versions) adds a TAG_BUFFER. client_id keeps its i16 length even
// in v2, so the header of any request can be read without knowing the API.
// Response header v0: correlation_id:i32; v1 (flexible) adds a TAG_BUFFER — except for
// ApiVersions, whose response always uses v0 (KIP-511; librdkafka depends on it).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct request_header {
  int16_t api_key = 0;
  int16_t api_version = 0;
  int32_t correlation_id = 0;
  std::optional<std::string> client_id;
};

/// Reads the header at the start of a request frame (without the size prefix). The
/// tag buffer is read only when the API and version are known to be flexible; for an
/// unknown API or version the reader stands right after client_id.
/// Errors: truncated, bad_length.
result<request_header> decode_request_header(byte_reader& r);

/// Whether the response to (key, version) carries the v1 header (a tag buffer).
bool response_header_is_flexible(int16_t key, int16_t version);

/// Starts a response frame in `out`: a size placeholder and the response header.
/// Returns the frame's start, for end_response.
size_t begin_response(std::vector<char>& out, int32_t correlation_id, bool flexible_header);

/// Patches the size prefix of the frame started at `start`.
void end_response(std::vector<char>& out, size_t start);

} // namespace cafka::wire
