#include "metrics/http_request.hpp"

#include <algorithm>
#include <cctype>

namespace cafka::metrics {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

} // namespace

http_request parse_http_request(std::string_view buffer) {
  http_request out;
  auto end = buffer.find("\r\n\r\n");
  size_t terminator = 4;
  if (auto bare = buffer.find("\n\n"); bare != std::string_view::npos && (end == std::string_view::npos || bare < end)) {
    end = bare;
    terminator = 2;
  }
  if (end == std::string_view::npos) {
    out.state = buffer.size() > max_request_head_bytes ? http_request::status::too_large : http_request::status::need_more;
    return out;
  }
  if (end > max_request_head_bytes) {
    out.state = http_request::status::too_large;
    return out;
  }
  auto head = buffer.substr(0, end);
  auto line_end = head.find('\n');
  auto line = trim(head.substr(0, line_end));
  auto sp1 = line.find(' ');
  auto sp2 = sp1 == std::string_view::npos ? sp1 : line.find(' ', sp1 + 1);
  if (sp1 == 0 || sp2 == std::string_view::npos || sp2 == sp1 + 1) {
    out.state = http_request::status::bad;
    return out;
  }
  out.method = std::string(line.substr(0, sp1));
  auto target = line.substr(sp1 + 1, sp2 - sp1 - 1);
  auto version = line.substr(sp2 + 1);
  if (target.front() != '/' || version.substr(0, 5) != "HTTP/") {
    out.state = http_request::status::bad;
    return out;
  }
  out.path = std::string(target.substr(0, target.find('?')));
  out.keep_alive = version != "HTTP/1.0";
  auto rest = line_end == std::string_view::npos ? std::string_view{} : head.substr(line_end + 1);
  while (!rest.empty()) {
    auto nl = rest.find('\n');
    auto header = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
    auto colon = header.find(':');
    if (colon == std::string_view::npos) {
      out.state = http_request::status::bad;
      return out;
    }
    if (lower(trim(header.substr(0, colon))) == "connection") {
      auto value = lower(trim(header.substr(colon + 1)));
      if (value == "close")
        out.keep_alive = false;
      else if (value == "keep-alive")
        out.keep_alive = true;
    }
  }
  out.consumed = end + terminator;
  out.state = http_request::status::complete;
  return out;
}

std::string http_response(int status, std::string_view content_type, std::string_view body, bool keep_alive,
                          bool head_only) {
  std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
  out += "Content-Type: ";
  out += content_type;
  out += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
  out += keep_alive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (!head_only)
    out += body;
  return out;
}

} // namespace cafka::metrics
