#pragma once
// One request/response exchange with a broker's Kafka listener, blocking, for the tools that
// speak the Kafka protocol (cafka-configs): connect, send the request with header v1 (v2 when
// the API version is flexible), read the one response frame, return its body. Throws
// std::runtime_error naming the address on a refused connection, a timeout, or a response
// that does not answer the request.

#include <cstdint>
#include <string>
#include <vector>

namespace cafka::tools {

std::vector<char> kafka_call(const std::string& host_port, int16_t api_key, int16_t api_version,
                             const std::vector<char>& body, int timeout_ms = 30000);

} // namespace cafka::tools
