#pragma once
// The little HTTP/1.1 the metrics endpoint speaks: a request's line and headers are read
// (the body, if any, is ignored: only GET and HEAD are served) and one response is written.
// Connections are kept open (keep-alive, as Prometheus scrapes) unless the client asks to
// close or speaks HTTP/1.0.

#include <cstddef>
#include <string>
#include <string_view>

namespace cafka::metrics {

/// Request line and headers beyond this are refused (431) and the connection closed.
inline constexpr size_t max_request_head_bytes = 8192;

struct http_request {
  enum class status { need_more, complete, bad, too_large };
  status state = status::need_more;
  std::string method;
  std::string path;     ///< without the query string
  bool keep_alive = true;
  size_t consumed = 0; ///< bytes of the buffer this request took (complete only)
};

/// Parses the request at the start of `buffer`.
http_request parse_http_request(std::string_view buffer);

/// A whole response. HEAD gets the headers only.
std::string http_response(int status, std::string_view content_type, std::string_view body, bool keep_alive,
                          bool head_only = false);

} // namespace cafka::metrics
