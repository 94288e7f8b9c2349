#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>

#include <snappy-c.h>
#include <zlib.h>
#include <zstd.h>

#include "protocol/compression.hpp"
#include "protocol/endian.hpp"
#include "protocol/record_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

constexpr size_t no_limit = size_t{1} << 30;

const compression_codec all_codecs[] = {compression_codec::none, compression_codec::gzip,
                                        compression_codec::snappy, compression_codec::lz4,
                                        compression_codec::zstd};
const compression_codec real_codecs[] = {compression_codec::gzip, compression_codec::snappy,
                                         compression_codec::lz4, compression_codec::zstd};

// -- batches written by real Kafka clients ---------------------------------------------------
//
// Each holds the same three records: {key "k0", value "hello cafka " x6, header h=v,
// timestamp 1700000000000}, {key null, value "compressed " x5, +5 ms}, {key "k2", value
// null, headers empty="" and null=null, +9 ms}.
//
// kafka_python_*: Debian's python3-kafka 2.0.2 (kafka-python), built in memory with
//   DefaultRecordBatchBuilder(magic=2, compression_type=1/2/4, is_transactional=False,
//   producer_id=-1, producer_epoch=-1, base_sequence=-1, batch_size=1<<20) and append()
//   of the records above; python3-snappy 0.5.3 and python3-zstandard 0.20 did the
//   compression. Its snappy is the xerial framing Kafka's Java client writes, its zstd
//   a one-shot frame with the content size.
// librdkafka_*: Debian's librdkafka 2.0.2 producing the same records with rd_kafka_producev
//   (compression.codec=gzip/snappy/lz4/zstd, linger.ms=100, enable.idempotence=false) to
//   its built-in mock broker (test.mock.num.brokers=1); the batch was cut out of the
//   Produce v7 request that strace recorded. Its snappy is a raw snappy block without
//   framing, its zstd a streamed frame without the content size.

constexpr std::string_view kafka_python_gzip =
    "0000000000000000 0000008c 00000000 02 1e17b623 0001 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "1f8b0800c388166b02ff5bc5c8c0c0c0926d308131233527275f2139312d3b51811236135306535915"
    "031713635e727e6e41516a71716a8a02294c062d062116966c234616aed4dc82924a068ebcd29c1c46"
    "0018d37179ab000000";
constexpr std::string_view kafka_python_snappy =
    "0000000000000000 00000093 00000000 02 e5436ff0 0002 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "82534e4150505900 00000001 00000001 0000004e"
    "ab0154aa01000000046b30900168656c6c6f206361666b6120ee0c005402026802767a000a02016e63"
    "6f6d7072657373656420ae0b0058002a001204046b3201040a656d70747900086e756c6c01";
constexpr std::string_view kafka_python_zstd =
    "0000000000000000 00000087 00000000 02 938912e0 0004 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "28b52ffd20ab6d02003404aa01000000046b30900168656c6c6f206361666b612002026802767a000a"
    "02016e636f6d7072657373656420002a001204046b3201040a656d70747900086e756c6c0102007231"
    "9b5c2a4d";
constexpr std::string_view librdkafka_gzip =
    "0000000000000000 0000008c 00000000 02 5b48a4df 0001 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "1f8b08000000000000035bc5c8c0c0c0926d308131233527275f2139312d3b51811236135306535915"
    "031713635e727e6e41516a71716a8a02294c062d062116966c234616aed4dc82924a068ebcd29c1c46"
    "0018d37179ab000000";
constexpr std::string_view librdkafka_snappy =
    "0000000000000000 0000007f 00000000 02 b1819e43 0002 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "ab0154aa01000000046b30900168656c6c6f206361666b6120ee0c005402026802767a000a02016e63"
    "6f6d7072657373656420ae0b0058002a001204046b3201040a656d70747900086e756c6c01";
constexpr std::string_view librdkafka_lz4 =
    "0000000000000000 0000008f 00000000 02 53e33d45 0003 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "04224d186040824f000000ff07aa01000000046b30900168656c6c6f206361666b61200c0029ff0702"
    "026802767a000a02016e636f6d70726573736564200b0019f008002a001204046b3201040a656d7074"
    "7900086e756c6c0100000000";
constexpr std::string_view librdkafka_zstd =
    "0000000000000000 00000087 00000000 02 b53d8873 0004 00000002 0000018bcfe56800"
    "0000018bcfe56809 ffffffffffffffff ffff ffffffff 00000003"
    "28b52ffd00586d02003404aa01000000046b30900168656c6c6f206361666b612002026802767a000a"
    "02016e636f6d7072657373656420002a001204046b3201040a656d70747900086e756c6c0102007231"
    "9b5c2a4d";

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

/// The three records of the client batches above.
void check_client_records(std::string_view hex, compression_codec codec) {
  auto batch = from_hex(hex);
  auto h = validate_batch(view(batch));
  BOOST_REQUIRE(h);
  BOOST_TEST((h->codec() == codec));
  auto got = read_records(view(batch), no_limit);
  BOOST_REQUIRE(got);
  BOOST_REQUIRE(got->size() == 3u);
  const auto& r = *got;
  BOOST_TEST(r[0].offset == 0);
  BOOST_TEST(r[0].timestamp == 1'700'000'000'000);
  BOOST_CHECK(r[0].key == str("k0"));
  BOOST_CHECK(r[0].value == repeat("hello cafka ", 6));
  BOOST_CHECK(r[0].headers == (std::vector<record_header>{{"h", str("v")}}));
  BOOST_TEST(r[1].offset == 1);
  BOOST_TEST(r[1].timestamp == 1'700'000'000'005);
  BOOST_CHECK(!r[1].key);
  BOOST_CHECK(r[1].value == repeat("compressed ", 5));
  BOOST_TEST(r[1].headers.empty());
  BOOST_TEST(r[2].offset == 2);
  BOOST_TEST(r[2].timestamp == 1'700'000'000'009);
  BOOST_CHECK(r[2].key == str("k2"));
  BOOST_CHECK(!r[2].value);
  BOOST_CHECK(r[2].headers == (std::vector<record_header>{{"empty", str("")}, {"null", std::nullopt}}));
}

// -- helpers -----------------------------------------------------------------------------------

/// 1 MiB alternating 4 KiB runs of random and of text-like bytes.
std::vector<char> mixed_mib() {
  auto noise = random_bytes(512 * 1024, 3);
  auto text = compressible_bytes(512 * 1024, 5);
  std::vector<char> out;
  for (size_t at = 0; at < noise.size(); at += 4096) {
    out.insert(out.end(), noise.begin() + at, noise.begin() + at + 4096);
    out.insert(out.end(), text.begin() + at, text.begin() + at + 4096);
  }
  return out;
}

std::vector<char> compressed(compression_codec codec, const std::vector<char>& content) {
  auto c = compress(codec, view(content));
  BOOST_REQUIRE(c);
  return std::move(*c);
}

cafka::result<std::vector<char>> decompressed(compression_codec codec, bytes_view input, size_t max = no_limit) {
  std::vector<char> out;
  auto n = decompress(codec, input, out, max);
  if (!n) return n.error();
  BOOST_TEST(*n == out.size());
  return out;
}

std::vector<char> concat(std::vector<char> a, const std::vector<char>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

/// A zstd frame as streaming compressors (zstd-jni, librdkafka) write it: no content size.
std::vector<char> streamed_zstd(const std::vector<char>& content) {
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  std::vector<char> out(ZSTD_compressBound(content.size()) + 64);
  ZSTD_inBuffer in{content.data(), content.size(), 0};
  ZSTD_outBuffer o{out.data(), out.size(), 0};
  // Fed in pieces, as a stream would be; ZSTD_e_end without a pledged size.
  while (in.pos < in.size) {
    ZSTD_inBuffer piece{content.data(), std::min(in.size, in.pos + 1000), in.pos};
    BOOST_REQUIRE(!ZSTD_isError(ZSTD_compressStream2(cctx, &o, &piece, ZSTD_e_continue)));
    in.pos = piece.pos;
  }
  size_t left;
  do {
    left = ZSTD_compressStream2(cctx, &o, &in, ZSTD_e_end);
    BOOST_REQUIRE(!ZSTD_isError(left));
  } while (left != 0);
  ZSTD_freeCCtx(cctx);
  out.resize(o.pos);
  return out;
}

/// One raw snappy block, as librdkafka produces.
std::vector<char> raw_snappy(const std::vector<char>& content) {
  size_t n = snappy_max_compressed_length(content.size());
  std::vector<char> out(n);
  BOOST_REQUIRE(snappy_compress(content.data(), content.size(), out.data(), &n) == SNAPPY_OK);
  out.resize(n);
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(compression_suite)

// -- round trips ---------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(every_codec_round_trips_empty_small_and_a_mib_of_mixed_data) {
  const std::vector<char> inputs[] = {{}, from_hex("68656c6c6f"), mixed_mib()};
  for (auto codec : all_codecs)
    for (const auto& content : inputs)
      BOOST_TEST_CONTEXT("codec " << int(codec) << ", " << content.size() << " bytes") {
        auto c = compressed(codec, content);
        auto d = decompressed(codec, view(c), content.size()); // exactly at the limit
        BOOST_REQUIRE(d);
        BOOST_TEST((*d == content));
        if (codec != compression_codec::none && content.size() > 1000)
          BOOST_TEST(c.size() < content.size()); // the text half compresses
      }
}

BOOST_AUTO_TEST_CASE(content_above_the_limit_is_too_large) {
  auto content = mixed_mib();
  for (auto codec : all_codecs)
    BOOST_TEST_CONTEXT("codec " << int(codec)) {
      auto c = compressed(codec, content);
      for (size_t max : {size_t{0}, size_t{4096}, content.size() - 1})
        BOOST_TEST(decompressed(codec, view(c), max).error() == err(errc::too_large));
    }
}

BOOST_AUTO_TEST_CASE(output_is_appended_and_left_alone_on_error) {
  auto content = compressible_bytes(10000);
  for (auto codec : all_codecs)
    BOOST_TEST_CONTEXT("codec " << int(codec)) {
      auto c = compressed(codec, content);
      std::vector<char> out{'x', 'y'};
      auto n = decompress(codec, view(c), out, no_limit);
      BOOST_REQUIRE(n);
      BOOST_TEST(*n == content.size());
      BOOST_TEST((out == concat({'x', 'y'}, content)));
      BOOST_TEST(!decompress(codec, view(c), out, 10)); // too large
      BOOST_TEST(out.size() == 2 + content.size());
      // compress() appends as well.
      std::vector<char> packed{'p'};
      BOOST_TEST(*compress(codec, view(content), packed) == c.size());
      BOOST_TEST((packed == concat({'p'}, c)));
    }
}

BOOST_AUTO_TEST_CASE(undefined_codecs_are_unsupported) {
  for (int codec : {5, 6, 7}) {
    auto cc = static_cast<compression_codec>(codec);
    BOOST_TEST(!is_known_codec(cc));
    BOOST_TEST(compress(cc, "abc").error() == err(errc::unsupported_compression));
    BOOST_TEST(decompressed(cc, "abc").error() == err(errc::unsupported_compression));
  }
  for (auto codec : all_codecs) BOOST_TEST(is_known_codec(codec));
}

// -- what each codec writes and reads --------------------------------------------------------------

BOOST_AUTO_TEST_CASE(gzip_writes_the_header_of_java_gzip_output_stream) {
  auto c = compressed(compression_codec::gzip, from_hex("68656c6c6f"));
  // magic, deflate, no flags, mtime 0, XFL 0 (level 6), OS 255 (unknown; JDK 16+)
  BOOST_TEST(to_hex(view(c).substr(0, 10)) == "1f8b08000000000000ff");
  // trailer: CRC-32 and size, little-endian
  BOOST_TEST(load_le<uint32_t>(c.data() + c.size() - 8) == ::crc32(0, reinterpret_cast<const Bytef*>("hello"), 5));
  BOOST_TEST(load_le<uint32_t>(c.data() + c.size() - 4) == 5u);
}

BOOST_AUTO_TEST_CASE(gzip_and_snappy_write_byte_for_byte_what_java_writes) {
  // "hello cafka " x6 written by OpenJDK 17's GZIPOutputStream (8 KiB buffer, behind a
  // 16 KiB BufferedOutputStream, as Kafka's Java client wraps it) and by snappy-java
  // 1.1.8.3's SnappyOutputStream (Debian libsnappy-java; Kafka's client uses the same
  // class), each with a throwaway Java program.
  constexpr std::string_view java_gzip =
      "1f8b08000000000000ff cb48cdc9c957484e4ccb4e54c8a0800d00 cd667532 48000000";
  constexpr std::string_view snappy_java =
      "82534e4150505900 00000001 00000001 00000011 482c68656c6c6f206361666b6120ee0c00";
  std::string content = repeat("hello cafka ", 6);
  auto gz = compress(compression_codec::gzip, content);
  auto sn = compress(compression_codec::snappy, content);
  BOOST_REQUIRE(gz);
  BOOST_REQUIRE(sn);
  BOOST_TEST(to_hex(view(*gz)) == to_hex(view(from_hex(java_gzip))));
  BOOST_TEST(to_hex(view(*sn)) == to_hex(view(from_hex(snappy_java))));
}

BOOST_AUTO_TEST_CASE(gzip_reads_concatenated_members_and_refuses_other_trailing_bytes) {
  auto a = compressible_bytes(3000, 1), b = compressible_bytes(5000, 2);
  auto two = concat(compressed(compression_codec::gzip, a), compressed(compression_codec::gzip, b));
  auto d = decompressed(compression_codec::gzip, view(two));
  BOOST_REQUIRE(d);
  BOOST_TEST((*d == concat(a, b)));
  BOOST_TEST(decompressed(compression_codec::gzip, view(two), 7999).error() == err(errc::too_large));

  auto junk = concat(compressed(compression_codec::gzip, a), {'\0'});
  BOOST_TEST(decompressed(compression_codec::gzip, view(junk)).error() == err(errc::compression_failed));
  // A zlib stream (RFC 1950) is not what Kafka clients write.
  std::vector<char> zlib_stream(compressBound(a.size()));
  uLongf n = zlib_stream.size();
  BOOST_REQUIRE(::compress(reinterpret_cast<Bytef*>(zlib_stream.data()), &n, reinterpret_cast<const Bytef*>(a.data()), a.size()) == Z_OK);
  zlib_stream.resize(n);
  BOOST_TEST(decompressed(compression_codec::gzip, view(zlib_stream)).error() == err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(snappy_writes_the_xerial_framing_in_32_kib_blocks) {
  auto content = mixed_mib();
  auto c = compressed(compression_codec::snappy, content);
  BOOST_TEST(to_hex(view(c).substr(0, 16)) == "82534e415050590000000001" "00000001");
  // Walk the blocks: [int32 length][raw snappy block of 32 KiB of content].
  size_t at = 16, blocks = 0;
  while (at < c.size()) {
    BOOST_REQUIRE(at + 4 <= c.size());
    auto length = static_cast<size_t>(load_be<int32_t>(c.data() + at));
    size_t plain = 0;
    BOOST_REQUIRE(snappy_uncompressed_length(c.data() + at + 4, length, &plain) == SNAPPY_OK);
    BOOST_TEST(plain == 32u * 1024);
    at += 4 + length;
    ++blocks;
  }
  BOOST_TEST(at == c.size());
  BOOST_TEST(blocks == 32u);
  // Nothing to compress: the header alone, as SnappyOutputStream closes an empty stream.
  BOOST_TEST(to_hex(view(compressed(compression_codec::snappy, {}))) == "82534e415050590000000001" "00000001");
}

BOOST_AUTO_TEST_CASE(snappy_reads_raw_blocks_and_concatenated_xerial_streams) {
  auto a = compressible_bytes(70000, 1), b = compressible_bytes(100, 2);
  auto raw = decompressed(compression_codec::snappy, view(raw_snappy(a)));
  BOOST_REQUIRE(raw);
  BOOST_TEST((*raw == a));
  BOOST_TEST(decompressed(compression_codec::snappy, view(raw_snappy(a)), 69999).error() == err(errc::too_large));

  auto two = concat(compressed(compression_codec::snappy, a), compressed(compression_codec::snappy, b));
  auto d = decompressed(compression_codec::snappy, view(two));
  BOOST_REQUIRE(d);
  BOOST_TEST((*d == concat(a, b)));
}

BOOST_AUTO_TEST_CASE(snappy_refuses_bad_block_lengths_before_allocating) {
  auto c = compressed(compression_codec::snappy, compressible_bytes(1000));
  auto negative = c;
  store_be(negative.data() + 16, int32_t{-1});
  BOOST_TEST(decompressed(compression_codec::snappy, view(negative)).error() == err(errc::compression_failed));
  auto past_end = c;
  store_be(past_end.data() + 16, static_cast<int32_t>(c.size()));
  BOOST_TEST(decompressed(compression_codec::snappy, view(past_end)).error() == err(errc::compression_failed));
  // A raw block claiming 4 GiB - 1 in five bytes: no compressed data expands that much.
  BOOST_TEST(decompressed(compression_codec::snappy, view(from_hex("ffffffff0f 00"))).error() ==
             err(errc::compression_failed));
  // A header with nothing else is an empty stream; a cut header is not.
  BOOST_TEST(decompressed(compression_codec::snappy, view(c).substr(0, 16))->empty());
  BOOST_TEST(!decompressed(compression_codec::snappy, view(c).substr(0, 12)));
}

BOOST_AUTO_TEST_CASE(zstd_reads_streamed_frames_without_a_content_size) {
  auto content = mixed_mib();
  auto frame = streamed_zstd(content);
  BOOST_TEST(ZSTD_getFrameContentSize(frame.data(), frame.size()) == ZSTD_CONTENTSIZE_UNKNOWN);
  auto d = decompressed(compression_codec::zstd, view(frame), content.size());
  BOOST_REQUIRE(d);
  BOOST_TEST((*d == content));
  BOOST_TEST(decompressed(compression_codec::zstd, view(frame), content.size() - 1).error() == err(errc::too_large));

  // Ours is one-shot and carries the size (readable by all: the size is optional).
  auto ours = compressed(compression_codec::zstd, content);
  BOOST_TEST(ZSTD_getFrameContentSize(ours.data(), ours.size()) == content.size());

  auto b = compressible_bytes(500);
  auto two = concat(frame, compressed(compression_codec::zstd, b));
  auto both = decompressed(compression_codec::zstd, view(two));
  BOOST_REQUIRE(both);
  BOOST_TEST((*both == concat(content, b)));
}

// -- corrupt input -----------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(cut_input_is_an_error_for_every_codec) {
  for (auto codec : real_codecs)
    for (const auto& content : {compressible_bytes(200), mixed_mib()})
      BOOST_TEST_CONTEXT("codec " << int(codec) << ", " << content.size() << " bytes") {
        auto c = compressed(codec, content);
        for (size_t cut : {size_t{0}, size_t{1}, size_t{5}, c.size() / 3 + 1, c.size() - 1})
          BOOST_TEST_CONTEXT("cut at " << cut) {
            BOOST_TEST(decompressed(codec, view(c).substr(0, cut)).error() == err(errc::compression_failed));
          }
      }
}

BOOST_AUTO_TEST_CASE(damaged_input_fails_or_stays_within_the_limit_and_never_crashes) {
  // Only gzip checks its content (Kafka's snappy, LZ4 and zstd carry no content
  // checksum), so elsewhere a flipped literal can decode "successfully"; what must hold
  // for every codec is: no crash, no output beyond the limit, and errors of our own.
  constexpr size_t max = 2 << 20;
  for (auto codec : real_codecs)
    BOOST_TEST_CONTEXT("codec " << int(codec)) {
      auto content = mixed_mib();
      content.resize(256 * 1024);
      auto c = compressed(codec, content);
      size_t failures = 0, tries = 0;
      for (size_t at = 0; at < c.size(); at += c.size() / 97 + 1)
        for (char flip : {'\x01', '\x80', '\xff'}) {
          auto bad = c;
          bad[at] ^= flip;
          std::vector<char> out;
          auto n = decompress(codec, view(bad), out, max);
          ++tries;
          if (n) {
            BOOST_TEST(out.size() <= max);
          } else {
            ++failures;
            BOOST_TEST(out.empty());
            BOOST_TEST((n.error() == err(errc::compression_failed) || n.error() == err(errc::too_large)));
          }
        }
      if (codec == compression_codec::gzip) BOOST_TEST(failures == tries); // CRC-32 over the content
      for (uint32_t seed : {1u, 2u, 3u})
        BOOST_TEST(!decompressed(codec, view(random_bytes(1000, seed)), max));
    }
}

// -- record batches ------------------------------------------------------------------------------------

BOOST_AUTO_TEST_CASE(batches_of_kafka_python_are_read) {
  check_client_records(kafka_python_gzip, compression_codec::gzip);
  check_client_records(kafka_python_snappy, compression_codec::snappy);
  check_client_records(kafka_python_zstd, compression_codec::zstd);
}

BOOST_AUTO_TEST_CASE(batches_of_librdkafka_are_read) {
  check_client_records(librdkafka_gzip, compression_codec::gzip);
  check_client_records(librdkafka_snappy, compression_codec::snappy);
  check_client_records(librdkafka_lz4, compression_codec::lz4);
  check_client_records(librdkafka_zstd, compression_codec::zstd);
}

BOOST_AUTO_TEST_CASE(batch_builder_writes_every_codec_and_for_each_record_reads_it) {
  std::vector<record> records;
  for (int i = 0; i < 200; ++i)
    records.push_back({str(("key-" + std::to_string(i)).c_str()),
                       i % 7 == 0 ? std::nullopt : str(repeat("value " + std::to_string(i) + " ", 20).c_str()),
                       i % 5 == 0 ? std::vector<record_header>{{"trace", str("x")}, {"n", std::nullopt}}
                                  : std::vector<record_header>{},
                       1'700'000'000'000 + i});
  const auto plain = build_batch(records);
  for (auto codec : all_codecs)
    BOOST_TEST_CONTEXT("codec " << int(codec)) {
      auto batch = build_batch(records, codec);
      auto h = validate_batch(view(batch));
      BOOST_REQUIRE(h);
      BOOST_TEST((h->codec() == codec));
      if (codec != compression_codec::none) BOOST_TEST(batch.size() < plain.size() / 2);
      // The records section is the uncompressed one, compressed in one piece.
      auto section = decompressed(codec, view(batch).substr(batch_layout::header_size));
      BOOST_REQUIRE(section);
      BOOST_TEST((*section == std::vector<char>(plain.begin() + batch_layout::header_size, plain.end())));
      int i = 0;
      auto r = for_each_record(view(batch), no_limit, [&](const record_view& v) {
        BOOST_TEST(v.offset == i);
        BOOST_TEST(v.timestamp == records[i].timestamp);
        BOOST_CHECK(v.key == bytes_view{*records[i].key});
        BOOST_TEST(v.value.has_value() == records[i].value.has_value());
        if (v.value) BOOST_TEST(*v.value == *records[i].value);
        BOOST_TEST(v.headers.size() == records[i].headers.size());
        ++i;
      });
      BOOST_REQUIRE(r);
      BOOST_TEST(i == 200);
      if (codec != compression_codec::none)
        BOOST_TEST(for_each_record(view(batch), section->size() - 1, [](const record_view&) {}).error() ==
                   err(errc::too_large));
    }
}

BOOST_AUTO_TEST_SUITE_END()
