#include "protocol/record_codec.hpp"

#include <limits>
#include <stdexcept>

#include "protocol/byte_reader.hpp"

namespace cafka::protocol {
namespace {

std::optional<bytes_view> view_of(const std::optional<std::string>& s) noexcept {
  if (!s) return std::nullopt;
  return bytes_view{*s};
}

// A header is at least two bytes (two one-byte lengths), so a count above half of the
// remaining bytes is a lie; rejecting it early also bounds the header vector.
constexpr size_t min_header_size = 2;

} // namespace

void write_record(byte_writer& out, int32_t offset_delta, int64_t timestamp_delta,
                  const std::optional<bytes_view>& key, const std::optional<bytes_view>& value,
                  const std::vector<record_header>& headers) {
  // The length prefix comes first, so the body size is computed up front instead of
  // encoding into a scratch buffer and copying.
  size_t body = 1 + varlong_size(timestamp_delta) + varint_size(offset_delta) +
                varint_bytes_size(key) + varint_bytes_size(value);
  if (headers.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error("too many record headers");
  body += varint_size(static_cast<int32_t>(headers.size()));
  for (const auto& h : headers)
    body += varint_bytes_size(bytes_view{h.key}) + varint_bytes_size(view_of(h.value));
  if (body > static_cast<size_t>(std::numeric_limits<int32_t>::max()))
    throw std::length_error("record larger than 2 GiB");

  out.write_varint(static_cast<int32_t>(body));
  out.write_i8(0); // attributes: unused in v2
  out.write_varlong(timestamp_delta);
  out.write_varint(offset_delta);
  out.write_varint_bytes(key);
  out.write_varint_bytes(value);
  out.write_varint(static_cast<int32_t>(headers.size()));
  for (const auto& h : headers) {
    out.write_varint_bytes(bytes_view{h.key});
    out.write_varint_bytes(view_of(h.value));
  }
}

status read_record_body(bytes_view body, record_view& out) {
  byte_reader in(body);
  in.read_i8(); // attributes: unused in v2 and ignored by Kafka as well
  out.timestamp_delta = in.read_varlong();
  out.offset_delta = in.read_varint();
  out.key = in.read_varint_bytes();
  out.value = in.read_varint_bytes();
  int32_t header_count = in.read_varint();
  if (!in.ok() || header_count < 0 ||
      static_cast<size_t>(header_count) > in.remaining() / min_header_size)
    return errc::bad_record;
  out.headers.clear();
  for (int32_t i = 0; i < header_count; ++i) {
    auto key = in.read_varint_bytes();
    auto value = in.read_varint_bytes();
    if (!in.ok() || !key) return errc::bad_record;
    out.headers.push_back({*key, value});
  }
  // Everything inside a record is covered by its length, so leftovers mean the record
  // and its length disagree.
  if (in.remaining() != 0) return errc::bad_record;
  return {};
}

} // namespace cafka::protocol
