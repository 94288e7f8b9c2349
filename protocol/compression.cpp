#include "protocol/compression.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <new>

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "protocol/endian.hpp"
#include "protocol/errc.hpp"

namespace cafka::protocol {
namespace {

/// zlib counts in uInt (32 bits): feed larger buffers in pieces.
uInt clamp_uint(size_t n) noexcept { return static_cast<uInt>(std::min<size_t>(n, UINT_MAX)); }

/// The output side of a streaming decoder: the bytes appended to `out` since
/// construction, grown geometrically but never beyond `max` bytes. At the limit it
/// offers a one-byte spare buffer instead: content that ends exactly at the limit
/// leaves the decoder nothing to write, so a byte written there means too large.
class bounded_output {
public:
  bounded_output(std::vector<char>& out, size_t max, size_t initial)
      : out_(out), base_(out.size()), max_(max) {
    out_.resize(base_ + std::min(max, initial));
  }
  ~bounded_output() { out_.resize(base_ + kept_); }

  struct window {
    char* data;
    size_t size;
    bool spare; ///< the limit is reached: anything written here is too much
  };

  window next() {
    size_t capacity = out_.size() - base_;
    if (used_ == capacity && capacity < max_) {
      capacity = std::min(max_, std::max<size_t>(2 * capacity, 64 * 1024));
      out_.resize(base_ + capacity);
    }
    if (used_ == capacity) return {&spare_, 1, true};
    return {out_.data() + base_ + used_, capacity - used_, false};
  }

  /// Records `n` bytes written into the window last returned by next().
  void wrote(size_t n) noexcept { used_ += n; }

  /// Keeps what was written (the destructor otherwise drops it) and returns its size.
  size_t commit() noexcept { return kept_ = used_; }

private:
  std::vector<char>& out_;
  size_t base_;
  size_t max_;
  size_t used_ = 0;
  size_t kept_ = 0;
  char spare_ = 0;
};

/// A first guess at the decompressed size, for codecs that do not declare it.
size_t initial_guess(bytes_view input) noexcept { return std::max<size_t>(4 * input.size(), 4096); }

// -- none ----------------------------------------------------------------------------------

result<size_t> copy_into(bytes_view input, std::vector<char>& out, size_t max_output) {
  if (input.size() > max_output) return errc::too_large;
  out.insert(out.end(), input.begin(), input.end());
  return input.size();
}

// -- gzip ----------------------------------------------------------------------------------

constexpr int gzip_window_bits = 15 + 16; // 32 KiB window, gzip wrapper (not zlib's)

bool starts_gzip_member(bytes_view b) noexcept {
  return b.size() >= 2 && b[0] == '\x1f' && b[1] == '\x8b';
}

result<size_t> gzip_compress(bytes_view input, std::vector<char>& out) {
  z_stream z{};
  // Java's Deflater defaults: level 6, 32 KiB window, memLevel 8.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, gzip_window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::bad_alloc();
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, deflateEnd);
  gz_header header{}; // no name, comment or extra field; mtime 0
  header.os = 255;    // "unknown", what GZIPOutputStream writes since JDK 16 (zlib: 3, Unix)
  if (deflateSetHeader(&z, &header) != Z_OK) return errc::compression_failed;

  const size_t base = out.size();
  out.resize(base + deflateBound(&z, input.size())); // one pass, never grows
  const char* src = input.data();
  size_t src_left = input.size();
  for (;;) {
    if (z.avail_in == 0 && src_left > 0) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(src));
      z.avail_in = clamp_uint(src_left);
      src += z.avail_in;
      src_left -= z.avail_in;
    }
    size_t done = z.total_out;
    z.next_out = reinterpret_cast<Bytef*>(out.data() + base + done);
    z.avail_out = clamp_uint(out.size() - base - done);
    int rc = deflate(&z, src_left == 0 ? Z_FINISH : Z_NO_FLUSH);
    if (rc == Z_STREAM_END) break;
    if (rc != Z_OK) {
      out.resize(base);
      return errc::compression_failed;
    }
  }
  out.resize(base + z.total_out);
  return static_cast<size_t>(z.total_out);
}

result<size_t> gzip_decompress(bytes_view input, std::vector<char>& out, size_t max_output) {
  z_stream z{};
  if (inflateInit2(&z, gzip_window_bits) != Z_OK) throw std::bad_alloc();
  std::unique_ptr<z_stream, int (*)(z_stream*)> guard(&z, inflateEnd);
  if (!starts_gzip_member(input)) return errc::compression_failed; // also: no member at all
  bounded_output dst(out, max_output, initial_guess(input));
  bytes_view rest = input; // not yet handed to zlib
  for (;;) {
    if (z.avail_in == 0 && !rest.empty()) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(rest.data()));
      z.avail_in = clamp_uint(rest.size());
      rest.remove_prefix(z.avail_in);
    }
    auto w = dst.next();
    z.next_out = reinterpret_cast<Bytef*>(w.data);
    const uInt room = clamp_uint(w.size);
    z.avail_out = room;
    int rc = inflate(&z, Z_NO_FLUSH);
    size_t produced = room - z.avail_out;
    if (w.spare && produced > 0) return errc::too_large;
    if (!w.spare) dst.wrote(produced);
    if (rc == Z_STREAM_END) {
      // The unread input: what zlib holds, then what we have not handed over yet.
      if (z.avail_in == 0 && rest.empty()) return dst.commit();
      bytes_view next = z.avail_in > 0 ? bytes_view{reinterpret_cast<const char*>(z.next_in), z.avail_in} : rest;
      if (!starts_gzip_member(next)) return errc::compression_failed; // garbage after the member
      if (inflateReset(&z) != Z_OK) return errc::compression_failed;
      continue;
    }
    if (rc == Z_MEM_ERROR) throw std::bad_alloc();
    // Z_BUF_ERROR: no progress possible, i.e. the input ended inside the member.
    if (rc != Z_OK) return errc::compression_failed;
  }
}

// -- snappy --------------------------------------------------------------------------------

constexpr char xerial_magic[8] = {'\x82', 'S', 'N', 'A', 'P', 'P', 'Y', '\0'};
constexpr size_t xerial_header_size = sizeof xerial_magic + 4 + 4;
constexpr int32_t xerial_version = 1;
constexpr int32_t xerial_min_compatible = 1;
constexpr size_t xerial_block_size = 32 * 1024; // snappy-java's default, Kafka's
constexpr size_t xerial_length_size = 4;

bool starts_xerial_header(bytes_view b) noexcept {
  return b.size() >= xerial_header_size && std::memcmp(b.data(), xerial_magic, sizeof xerial_magic) == 0;
}

result<size_t> snappy_compress_xerial(bytes_view input, std::vector<char>& out) {
  const size_t base = out.size();
  out.resize(base + xerial_header_size);
  std::memcpy(out.data() + base, xerial_magic, sizeof xerial_magic);
  store_be(out.data() + base + sizeof xerial_magic, xerial_version);
  store_be(out.data() + base + sizeof xerial_magic + 4, xerial_min_compatible);
  for (size_t at = 0; at < input.size(); at += xerial_block_size) {
    bytes_view block = input.substr(at, xerial_block_size);
    size_t length_at = out.size();
    size_t n = snappy_max_compressed_length(block.size());
    out.resize(length_at + xerial_length_size + n);
    if (snappy_compress(block.data(), block.size(), out.data() + length_at + xerial_length_size, &n) != SNAPPY_OK) {
      out.resize(base);
      return errc::compression_failed;
    }
    store_be(out.data() + length_at, static_cast<int32_t>(n)); // n <= ~38 KiB
    out.resize(length_at + xerial_length_size + n);
  }
  return out.size() - base;
}

/// Decompresses one raw snappy block (its length is declared up front) onto `out`.
status snappy_block(bytes_view block, std::vector<char>& out, size_t max_output) {
  size_t n = 0;
  if (snappy_uncompressed_length(block.data(), block.size(), &n) != SNAPPY_OK)
    return errc::compression_failed;
  // No snappy element expands more than 64 bytes out of 3 in: a larger declared length
  // is a lie, refused before it makes us allocate.
  if (n / 22 > block.size()) return errc::compression_failed;
  if (n > max_output) return errc::too_large;
  size_t at = out.size();
  out.resize(at + n);
  if (snappy_uncompress(block.data(), block.size(), out.data() + at, &n) != SNAPPY_OK)
    return errc::compression_failed;
  out.resize(at + n);
  return {};
}

/// The blocks of a xerial stream; `in` starts after the first header.
status snappy_xerial_blocks(bytes_view in, std::vector<char>& out, size_t max_output) {
  const size_t base = out.size();
  while (!in.empty()) {
    // A header where a length belongs starts another stream (SnappyInputStream allows it).
    if (starts_xerial_header(in)) {
      in.remove_prefix(xerial_header_size);
      continue;
    }
    if (in.size() < xerial_length_size) return errc::compression_failed;
    int32_t length = load_be<int32_t>(in.data());
    in.remove_prefix(xerial_length_size);
    if (length < 0 || static_cast<size_t>(length) > in.size()) return errc::compression_failed;
    if (auto st = snappy_block(in.substr(0, length), out, max_output - (out.size() - base)); !st) return st;
    in.remove_prefix(length);
  }
  return {};
}

result<size_t> snappy_decompress(bytes_view input, std::vector<char>& out, size_t max_output) {
  const size_t base = out.size();
  // librdkafka decides the same way: the magic means xerial, anything else a raw block.
  status st = starts_xerial_header(input)
                  ? snappy_xerial_blocks(input.substr(xerial_header_size), out, max_output)
                  : snappy_block(input, out, max_output);
  if (!st) {
    out.resize(base);
    return st.error();
  }
  return out.size() - base;
}

// -- zstd ----------------------------------------------------------------------------------

constexpr int zstd_level = 3; // ZSTD_CLEVEL_DEFAULT, and Kafka's compression.zstd.level default

result<size_t> zstd_compress(bytes_view input, std::vector<char>& out) {
  const size_t base = out.size();
  out.resize(base + ZSTD_compressBound(input.size()));
  size_t n = ZSTD_compress(out.data() + base, out.size() - base, input.data(), input.size(), zstd_level);
  if (ZSTD_isError(n)) {
    out.resize(base);
    return errc::compression_failed;
  }
  out.resize(base + n);
  return n;
}

struct dctx_deleter {
  void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
};

result<size_t> zstd_decompress(bytes_view input, std::vector<char>& out, size_t max_output) {
  std::unique_ptr<ZSTD_DCtx, dctx_deleter> dctx(ZSTD_createDCtx());
  if (!dctx) throw std::bad_alloc();
  // A declared size (one-shot writers) sizes the buffer, as far as the limit allows;
  // the decoder rejects a frame whose content differs from it.
  size_t initial = initial_guess(input);
  unsigned long long declared = ZSTD_getFrameContentSize(input.data(), input.size());
  if (declared != ZSTD_CONTENTSIZE_UNKNOWN && declared != ZSTD_CONTENTSIZE_ERROR) {
    if (declared > max_output) return errc::too_large;
    initial = static_cast<size_t>(declared);
  }
  bounded_output dst(out, max_output, initial);
  ZSTD_inBuffer src{input.data(), input.size(), 0};
  for (;;) {
    auto w = dst.next();
    ZSTD_outBuffer o{w.data, w.size, 0};
    size_t consumed_before = src.pos;
    size_t hint = ZSTD_decompressStream(dctx.get(), &o, &src);
    if (ZSTD_isError(hint)) return errc::compression_failed;
    if (w.spare && o.pos > 0) return errc::too_large;
    if (!w.spare) dst.wrote(o.pos);
    bool input_done = src.pos == src.size;
    // 0: a frame just ended. Further input is the next frame, which the stream decodes.
    if (hint == 0 && input_done) return dst.commit();
    // The decoder fills the output or takes all input: room left means it wants more
    // input than there is (also: empty input, no frame at all).
    if (input_done && o.pos < o.size) return errc::compression_failed;
    if (src.pos == consumed_before && o.pos == 0) return errc::compression_failed; // stuck
  }
}

// -- lz4 -----------------------------------------------------------------------------------

result<size_t> lz4_decompress(bytes_view input, std::vector<char>& out, size_t max_output,
                              lz4_header_checksum hc) {
  auto content = lz4_decompress_frame(input, max_output, hc);
  if (!content) return content.error();
  size_t n = content->size();
  if (out.empty()) out = std::move(*content);
  else out.insert(out.end(), content->begin(), content->end());
  return n;
}

} // namespace

bool is_known_codec(compression_codec codec) noexcept {
  switch (codec) {
    case compression_codec::none:
    case compression_codec::gzip:
    case compression_codec::snappy:
    case compression_codec::lz4:
    case compression_codec::zstd: return true;
  }
  return false;
}

result<size_t> compress(compression_codec codec, bytes_view input, std::vector<char>& out) {
  switch (codec) {
    case compression_codec::none: return copy_into(input, out, input.size());
    case compression_codec::gzip: return gzip_compress(input, out);
    case compression_codec::snappy: return snappy_compress_xerial(input, out);
    case compression_codec::lz4: {
      size_t before = out.size();
      append_lz4_frame(out, input);
      return out.size() - before;
    }
    case compression_codec::zstd: return zstd_compress(input, out);
  }
  return errc::unsupported_compression;
}

result<std::vector<char>> compress(compression_codec codec, bytes_view input) {
  std::vector<char> out;
  if (auto n = compress(codec, input, out); !n) return n.error();
  return out;
}

result<size_t> decompress(compression_codec codec, bytes_view input, std::vector<char>& out,
                          size_t max_output, lz4_header_checksum hc) {
  switch (codec) {
    case compression_codec::none: return copy_into(input, out, max_output);
    case compression_codec::gzip: return gzip_decompress(input, out, max_output);
    case compression_codec::snappy: return snappy_decompress(input, out, max_output);
    case compression_codec::lz4: return lz4_decompress(input, out, max_output, hc);
    case compression_codec::zstd: return zstd_decompress(input, out, max_output);
  }
  return errc::unsupported_compression;
}

} // namespace cafka::protocol
