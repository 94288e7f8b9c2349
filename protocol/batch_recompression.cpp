#include "protocol/batch_recompression.hpp"

#include "protocol/compression.hpp"
#include "protocol/endian.hpp"

namespace cafka::protocol {

namespace L = batch_layout;

bool needs_recompression(const batch_header& h, int target) noexcept {
  if (target < 0 || (h.attributes & batch_attributes::control))
    return false;
  return static_cast<int>(h.codec()) != target;
}

result<std::vector<char>> recompress_batch(bytes_view batch, compression_codec target, size_t max_uncompressed) {
  auto h = read_batch_header(batch);
  if (!h)
    return h.error();
  auto size = h->total_size();
  auto records = batch.substr(L::header_size, size - L::header_size);
  std::vector<char> plain;
  if (h->codec() != compression_codec::none) {
    auto got = decompress(h->codec(), records, plain, max_uncompressed);
    if (!got)
      return got.error();
    records = bytes_view(plain.data(), plain.size());
  }
  std::vector<char> out(batch.begin(), batch.begin() + L::header_size);
  if (target == compression_codec::none) {
    out.insert(out.end(), records.begin(), records.end());
  } else if (auto packed = compress(target, records, out); !packed) {
    return packed.error();
  }
  auto attributes = static_cast<int16_t>((h->attributes & ~batch_attributes::codec_mask) | static_cast<int16_t>(target));
  store_be(out.data() + L::attributes, attributes);
  store_be(out.data() + L::batch_length, static_cast<int32_t>(out.size() - L::log_overhead));
  update_crc(out.data(), out.size());
  return out;
}

} // namespace cafka::protocol
