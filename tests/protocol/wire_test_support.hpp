#pragma once
// Helpers shared by the wire codec tests: the sample requests of one API, a response
// body as its encoder writes it, and a memory cap that turns an allocation sized by a
// hostile count into a failure.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <utility>
#include <vector>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/primitives.hpp"
#include "wire_samples.hpp"

namespace cafka::wire::test {

/// The samples of every API: data, admin and group requests.
inline std::vector<wire_sample> all_request_samples() {
  auto out = data_request_samples();
  for (auto& s : admin_request_samples())
    out.push_back(std::move(s));
  for (auto& s : group_request_samples())
    out.push_back(std::move(s));
  return out;
}

/// The samples of one API, in the order the sample files list them (by version).
inline std::vector<wire_sample> samples_of(api_key key) {
  std::vector<wire_sample> out;
  for (auto& s : all_request_samples())
    if (s.api_key == static_cast<int16_t>(key))
      out.push_back(std::move(s));
  return out;
}

/// The body `encode` (an encode_X_response) writes for `resp` at `version`.
template <class Response, class Encode>
std::vector<char> encoded(const Response& resp, int16_t version, Encode encode) {
  std::vector<char> out;
  byte_writer w{out};
  encode(resp, version, w);
  return out;
}

/// Runs `decode` with the address space capped 256 MiB above its current size, so a
/// decoder that reserved room for a hostile count throws std::bad_alloc instead of passing.
template <class Decode>
auto under_memory_cap(Decode decode) {
  rlimit saved{};
  getrlimit(RLIMIT_AS, &saved);
  size_t pages = 0;
  std::ifstream{"/proc/self/statm"} >> pages;
  rlimit capped = saved;
  capped.rlim_cur = std::min<rlim_t>(saved.rlim_cur,
                                     pages * sysconf(_SC_PAGESIZE) + (rlim_t{256} << 20));
  setrlimit(RLIMIT_AS, &capped);
  struct restore {
    rlimit limit;
    ~restore() { setrlimit(RLIMIT_AS, &limit); }
  } guard{saved};
  return decode();
}

} // namespace cafka::wire::test
