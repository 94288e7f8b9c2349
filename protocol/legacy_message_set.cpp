#include "protocol/legacy_message_set.hpp"

#include <algorithm>
#include <optional>

#include "protocol/byte_reader.hpp"
#include "protocol/compression.hpp"
#include "protocol/crc32.hpp"
#include "protocol/endian.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"

namespace cafka::protocol {
namespace {

constexpr int8_t legacy_codec_mask = 0x07;
constexpr int8_t legacy_log_append_time = 0x08; // magic 1 only

// crc, magic, attributes, key length, value length; magic 1 adds a timestamp.
constexpr int32_t min_message_size_v0 = 4 + 1 + 1 + 4 + 4;
constexpr int32_t min_message_size_v1 = min_message_size_v0 + 8;
constexpr size_t magic_in_message = 4;

struct legacy_message {
  int8_t magic = 0;
  int8_t attributes = 0;
  int64_t timestamp = 0; ///< magic 1 only
  std::optional<bytes_view> key;
  std::optional<bytes_view> value;

  compression_codec codec() const noexcept {
    return static_cast<compression_codec>(attributes & legacy_codec_mask);
  }
  bool log_append_time() const noexcept {
    return magic == 1 && (attributes & legacy_log_append_time);
  }
};

/// Reads the next entry of a message set and checks its CRC. Views point into `in`'s input.
result<legacy_message> read_message(byte_reader& in) {
  in.read_i64(); // offset: ignored, the v2 batch numbers its records 0..n-1
  int32_t size = in.read_i32();
  if (!in.ok()) return errc::truncated;
  if (size < min_message_size_v0) return errc::bad_length;
  bytes_view message = in.read_raw(static_cast<size_t>(size));
  if (!in.ok()) return errc::truncated;

  legacy_message m;
  m.magic = load_be<int8_t>(message.data() + magic_in_message);
  if (m.magic != 0 && m.magic != 1) return errc::bad_magic;
  if (m.magic == 1 && size < min_message_size_v1) return errc::bad_length;
  bytes_view covered = message.substr(magic_in_message);
  if (crc32(covered.data(), covered.size()) != load_be<uint32_t>(message.data()))
    return errc::bad_crc;

  byte_reader fields(covered.substr(1));
  m.attributes = fields.read_i8();
  if (m.magic == 1) m.timestamp = fields.read_i64();
  m.key = fields.read_nullable_bytes();
  m.value = fields.read_nullable_bytes();
  if (fields.error() == errc::bad_length) return errc::bad_length;
  // The CRC matched, so these bytes are what the producer sent: its key and value
  // lengths disagree with its message_size.
  if (!fields.ok() || fields.remaining() != 0) return errc::bad_record;
  return m;
}

/// Collects the messages of one set into a batch_builder, flattening wrappers.
class converter {
public:
  explicit converter(const legacy_conversion_options& options)
      : options_(options), builder_(batch_options_for(options)) {}

  status add_set(bytes_view set) {
    if (set.empty()) return errc::truncated;
    byte_reader in(set);
    while (in.remaining() > 0) {
      auto m = read_message(in);
      if (!m) return m.error();
      if (m->codec() != compression_codec::none) {
        if (auto st = add_wrapper(*m); !st) return st;
        continue;
      }
      if (m->log_append_time()) note_log_append_time(m->timestamp);
      builder_.add(m->magic == 0 ? options_.now_ms : m->timestamp, m->key, m->value);
    }
    return {};
  }

  result<std::vector<char>> finish() {
    if (builder_.empty()) return errc::bad_record;
    std::vector<char> batch = builder_.build();
    if (log_append_time_) set_log_append_time(batch.data(), batch.size(), *log_append_time_);
    return batch;
  }

private:
  static batch_options batch_options_for(const legacy_conversion_options& options) {
    batch_options b;
    b.codec = options.output_codec;
    return b;
  }

  status add_wrapper(const legacy_message& wrapper) {
    // Magic 0 and 1 know gzip, snappy and lz4; zstd came with magic 2 (Kafka refuses it
    // in older formats too).
    auto codec = wrapper.codec();
    if (codec != compression_codec::gzip && codec != compression_codec::snappy &&
        codec != compression_codec::lz4)
      return errc::unsupported_compression;
    if (!wrapper.value) return errc::bad_record;
    // Magic 0 LZ4 came from Kafka 0.8.2-0.9 clients, which wrote the broken HC; magic 1
    // clients write the correct one, and Kafka rejects anything else there too.
    auto hc = wrapper.magic == 0 ? lz4_header_checksum::allow_kafka_3160
                                 : lz4_header_checksum::standard;
    std::vector<char> inner;
    auto n = decompress(codec, *wrapper.value, inner, options_.max_uncompressed - inflated_, hc);
    if (!n) return n.error();
    inflated_ += *n;
    if (inner.empty()) return errc::bad_record;
    if (wrapper.log_append_time()) note_log_append_time(wrapper.timestamp);

    byte_reader in(bytes_view{inner.data(), inner.size()});
    while (in.remaining() > 0) {
      auto m = read_message(in);
      // Inside a CRC-checked wrapper a cut-short inner set is malformed content.
      if (!m) return m.error() == errc::truncated ? errc::bad_record : m.error();
      if (m->magic != wrapper.magic || m->codec() != compression_codec::none)
        return errc::bad_record;
      int64_t timestamp = wrapper.magic == 0            ? options_.now_ms
                          : wrapper.log_append_time() ? wrapper.timestamp
                                                      : m->timestamp;
      builder_.add(timestamp, m->key, m->value); // copies; `inner` may die afterwards
    }
    return {};
  }

  void note_log_append_time(int64_t timestamp) {
    log_append_time_ = std::max(log_append_time_.value_or(timestamp), timestamp);
  }

  const legacy_conversion_options& options_;
  batch_builder builder_;
  size_t inflated_ = 0; ///< decompressed bytes so far, against max_uncompressed
  std::optional<int64_t> log_append_time_;
};

} // namespace

int magic_of(bytes_view bytes) noexcept {
  constexpr size_t magic_at = 16; // offset:i64 + size:i32 + crc:u32 (legacy) = v2's magic field
  return bytes.size() > magic_at ? static_cast<int8_t>(bytes[magic_at]) : -1;
}

result<std::vector<char>> convert_legacy_message_set(bytes_view set,
                                                     const legacy_conversion_options& options) {
  converter c(options);
  if (auto st = c.add_set(set); !st) return st.error();
  return c.finish();
}

} // namespace cafka::protocol
