#include "wire_mutator.hpp"

#include <algorithm>
#include <cstddef>

#include "protocol/byte_writer.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire::test {

using protocol::byte_writer;

std::vector<char> frame_of(const wire_sample& s, int32_t correlation_id) {
  std::vector<char> out;
  byte_writer w{out};
  w.write_i16(s.api_key);
  w.write_i16(s.version);
  w.write_i32(correlation_id);
  w.write_string("mutant");
  if (is_flexible(s.api_key, s.version))
    write_empty_tagged_fields(w);
  w.write_raw({s.body.data(), s.body.size()});
  return out;
}

void mutate(std::vector<char>& bytes, std::mt19937& gen) {
  auto pick = [&](size_t n) { return n == 0 ? size_t{0} : static_cast<size_t>(gen() % n); };
  switch (gen() % 6) {
    case 0:
      for (int i = 0, n = 1 + static_cast<int>(gen() % 4); i < n && !bytes.empty(); ++i)
        bytes[pick(bytes.size())] ^= static_cast<char>(1u << (gen() % 8));
      break;
    case 1: {
      static const uint32_t extremes[] = {0xffffffffu, 0x7fffffffu, 0x80000000u, 0u, 0xfffffffeu, 0x00010000u};
      auto v = extremes[gen() % 6];
      auto width = size_t{2} << (gen() % 2); // 2 or 4 bytes: i16 and i32 length fields
      if (bytes.size() >= width) {
        auto at = pick(bytes.size() - width + 1);
        for (size_t i = 0; i < width; ++i)
          bytes[at + i] = static_cast<char>(v >> (8 * (width - 1 - i)));
      }
      break;
    }
    case 2:
      bytes.resize(pick(bytes.size() + 1));
      break;
    case 3: {
      auto at = pick(bytes.size() + 1);
      auto n = 1 + gen() % 8;
      for (size_t i = 0; i < n; ++i)
        bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<char>(gen()));
      break;
    }
    case 4:
      if (!bytes.empty()) {
        auto at = pick(bytes.size());
        auto n = std::min<size_t>(1 + gen() % 8, bytes.size() - at);
        bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at),
                    bytes.begin() + static_cast<std::ptrdiff_t>(at + n));
      }
      break;
    default:
      if (!bytes.empty())
        bytes[pick(bytes.size())] = static_cast<char>(gen());
  }
}

} // namespace cafka::wire::test
