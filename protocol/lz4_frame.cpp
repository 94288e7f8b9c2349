#include "protocol/lz4_frame.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <stdexcept>

#include <lz4frame.h>

#include "protocol/endian.hpp"
#include "protocol/errc.hpp"
#include "protocol/xxhash32.hpp"

namespace cafka::protocol {
namespace {

// -- compression ------------------------------------------------------------------------

LZ4F_preferences_t kafka_preferences() noexcept {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof prefs); // level 0 = fast, no content size, no checksums
  prefs.frameInfo.blockSizeID = LZ4F_max64KB;
  prefs.frameInfo.blockMode = LZ4F_blockIndependent;
  prefs.frameInfo.contentChecksumFlag = LZ4F_noContentChecksum;
  return prefs;
}

// -- frame header ----------------------------------------------------------------------

constexpr uint32_t frame_magic = 0x184D2204;
constexpr uint8_t flg_content_size = 0x08;
constexpr uint8_t flg_dict_id = 0x01;

/// Where the parts of a frame header are, if `frame` starts with a complete one.
struct header_layout {
  size_t size;                          ///< magic through HC
  std::optional<uint64_t> content_size; ///< declared uncompressed size, if any
};

std::optional<header_layout> parse_header(bytes_view frame) noexcept {
  constexpr size_t flg_at = 4;
  if (frame.size() < 7 || load_le<uint32_t>(frame.data()) != frame_magic) return std::nullopt;
  auto flg = static_cast<uint8_t>(frame[flg_at]);
  size_t size = 4 + 2 + ((flg & flg_content_size) ? 8 : 0) + ((flg & flg_dict_id) ? 4 : 0) + 1;
  if (frame.size() < size) return std::nullopt;
  header_layout h{size, std::nullopt};
  if (flg & flg_content_size) h.content_size = load_le<uint64_t>(frame.data() + flg_at + 2);
  return h;
}

/// The HC byte over `bytes`, as the frame format defines it.
char header_checksum(bytes_view bytes) noexcept {
  return static_cast<char>((xxh32(bytes.data(), bytes.size()) >> 8) & 0xff);
}

// -- decompression ---------------------------------------------------------------------

struct dctx_deleter {
  void operator()(LZ4F_dctx* d) const noexcept { LZ4F_freeDecompressionContext(d); }
};
using dctx_ptr = std::unique_ptr<LZ4F_dctx, dctx_deleter>;

dctx_ptr make_dctx() {
  LZ4F_dctx* d = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&d, LZ4F_VERSION))) throw std::bad_alloc();
  return dctx_ptr{d};
}

/// Feeds input pieces to one frame decoder and collects the output under a limit.
class frame_decoder {
public:
  frame_decoder(size_t max_output, size_t initial_capacity)
      : dctx_(make_dctx()), max_(max_output), out_(std::min(initial_capacity, max_output)) {}

  /// Consumes `in`; stops at the end of the frame. Returns false on error (see error_).
  bool feed(bytes_view in) {
    while (!in.empty() && !finished_) {
      if (pos_ == out_.size() && out_.size() < max_)
        out_.resize(std::min(max_, std::max<size_t>(2 * out_.size(), 64 * 1024)));
      // With the output at its limit we still let the decoder run into a one-byte spare
      // buffer: a frame whose content ends exactly at the limit only has its end mark
      // (and maybe a checksum) left, which produce nothing; a byte there means too large.
      char spare;
      bool at_limit = pos_ == out_.size();
      char* dst = at_limit ? &spare : out_.data() + pos_;
      size_t dst_size = at_limit ? 1 : out_.size() - pos_;
      size_t src_size = in.size();
      size_t hint = LZ4F_decompress(dctx_.get(), dst, &dst_size, in.data(), &src_size, nullptr);
      if (LZ4F_isError(hint)) return fail(errc::compression_failed);
      if (at_limit && dst_size > 0) return fail(errc::too_large);
      if (src_size == 0 && dst_size == 0) return fail(errc::compression_failed); // no progress
      pos_ += dst_size;
      in.remove_prefix(src_size);
      finished_ = hint == 0;
    }
    // Bytes after the end mark: the caller said the frame is all of the input.
    if (!in.empty()) return fail(errc::compression_failed);
    return true;
  }

  result<std::vector<char>> finish() && {
    if (error_ != errc{}) return error_;
    if (!finished_) return errc::compression_failed; // the frame ended early
    out_.resize(pos_);
    return std::move(out_);
  }

private:
  bool fail(errc e) noexcept {
    error_ = e;
    return false;
  }

  dctx_ptr dctx_;
  size_t max_;
  std::vector<char> out_;
  size_t pos_ = 0;
  bool finished_ = false;
  errc error_{};
};

} // namespace

void append_lz4_frame(std::vector<char>& out, bytes_view input) {
  const LZ4F_preferences_t prefs = kafka_preferences();
  size_t old_size = out.size();
  out.resize(old_size + LZ4F_compressFrameBound(input.size(), &prefs));
  size_t n = LZ4F_compressFrame(out.data() + old_size, out.size() - old_size, input.data(),
                                input.size(), &prefs);
  // With a bound-sized buffer and fixed valid preferences this cannot fail.
  if (LZ4F_isError(n)) throw std::logic_error(LZ4F_getErrorName(n));
  out.resize(old_size + n);
}

std::vector<char> lz4_compress_frame(bytes_view input) {
  std::vector<char> out;
  append_lz4_frame(out, input);
  return out;
}

result<std::vector<char>> lz4_decompress_frame(bytes_view frame, size_t max_output,
                                               lz4_header_checksum hc) {
  auto header = parse_header(frame);
  size_t initial = std::max<size_t>(4 * frame.size(), 4096);
  if (header && header->content_size) {
    // Trust a declared size only as far as the limit: it sizes the buffer exactly, and
    // liblz4 rejects a frame whose content differs from it.
    if (*header->content_size > max_output) return errc::too_large;
    initial = static_cast<size_t>(*header->content_size);
  }
  frame_decoder decoder(max_output, initial);

  // KAFKA-3160: Kafka 0.8.2-0.9 computed HC over the magic number as well. Such a frame
  // is otherwise valid, so we hand the decoder a copy of the header with the HC that
  // the descriptor deserves, then the untouched rest of the frame.
  if (hc == lz4_header_checksum::allow_kafka_3160 && header) {
    bytes_view descriptor = frame.substr(4, header->size - 5);
    char stored = frame[header->size - 1];
    char proper = header_checksum(descriptor);
    if (stored != proper && stored == header_checksum(frame.substr(0, header->size - 1))) {
      std::array<char, LZ4F_HEADER_SIZE_MAX> fixed;
      std::memcpy(fixed.data(), frame.data(), header->size);
      fixed[header->size - 1] = proper;
      if (decoder.feed({fixed.data(), header->size})) decoder.feed(frame.substr(header->size));
      return std::move(decoder).finish();
    }
  }
  decoder.feed(frame);
  return std::move(decoder).finish();
}

} // namespace cafka::protocol
