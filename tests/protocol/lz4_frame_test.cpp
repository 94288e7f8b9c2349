#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include <lz4frame.h>

#include "protocol/lz4_frame.hpp"
#include "protocol/xxhash32.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;
namespace fs = std::filesystem;

namespace {

constexpr size_t no_limit = size_t{1} << 30;

/// A frame written by liblz4 directly, with the given block size and content size flag.
std::vector<char> liblz4_frame(const std::vector<char>& content, bool with_content_size) {
  LZ4F_preferences_t prefs;
  std::memset(&prefs, 0, sizeof prefs);
  if (with_content_size) prefs.frameInfo.contentSize = content.size();
  std::vector<char> frame(LZ4F_compressFrameBound(content.size(), &prefs));
  size_t n = LZ4F_compressFrame(frame.data(), frame.size(), content.data(), content.size(), &prefs);
  BOOST_REQUIRE(!LZ4F_isError(n));
  frame.resize(n);
  return frame;
}

/// A scratch directory for files handed to the lz4 command-line tool.
struct scratch_dir {
  fs::path path = fs::temp_directory_path() / ("cafka_lz4_test_" + std::to_string(::getpid()));
  scratch_dir() { fs::create_directories(path); }
  ~scratch_dir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }

  void write(const std::string& name, const std::vector<char>& bytes) const {
    std::ofstream(path / name, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::vector<char> read(const std::string& name) const {
    std::ifstream in(path / name, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  /// Runs `lz4 <flags> -c <in> > <out>` inside the directory.
  bool lz4(const std::string& flags, const std::string& in, const std::string& out) const {
    std::string cmd = "lz4 -q " + flags + " -c '" + (path / in).string() + "' > '" + (path / out).string() + "'";
    return std::system(cmd.c_str()) == 0;
  }
};

bool lz4_tool_available() { return std::system("command -v lz4 > /dev/null 2>&1") == 0; }

} // namespace

BOOST_AUTO_TEST_SUITE(lz4_frame_suite)

BOOST_AUTO_TEST_CASE(frames_start_like_librdkafkas) {
  // magic 0x184D2204, FLG 0x60 (version 1, independent blocks), BD 0x40 (64 KiB), HC 0x82
  auto frame = lz4_compress_frame("hello hello hello hello");
  BOOST_TEST(to_hex(view(frame)).substr(0, 14) == "04224d18604082");
}

BOOST_AUTO_TEST_CASE(round_trips_sizes_around_the_64k_block_boundary) {
  auto text = compressible_bytes(300'000);
  auto noise = random_bytes(140'000);
  for (size_t n : {0u, 1u, 100u, 65535u, 65536u, 65537u, 131072u, 300000u}) {
    BOOST_TEST_CONTEXT("text " << n) {
      std::vector<char> in(text.begin(), text.begin() + n);
      auto out = lz4_decompress_frame(view(lz4_compress_frame(view(in))), no_limit);
      BOOST_REQUIRE(out);
      BOOST_TEST((*out == in));
    }
  }
  // Incompressible data is stored in raw blocks, a different path in the decoder.
  auto out = lz4_decompress_frame(view(lz4_compress_frame(view(noise))), no_limit);
  BOOST_REQUIRE(out);
  BOOST_TEST((*out == noise));
}

BOOST_AUTO_TEST_CASE(append_keeps_what_was_in_the_buffer) {
  std::vector<char> out{'a', 'b'};
  append_lz4_frame(out, "payload");
  BOOST_TEST(to_hex(view(out)).substr(0, 4) == "6162");
  auto back = lz4_decompress_frame(view(out).substr(2), no_limit);
  BOOST_REQUIRE(back);
  BOOST_TEST(std::string(back->begin(), back->end()) == "payload");
}

BOOST_AUTO_TEST_CASE(output_above_the_limit_is_too_large_and_exactly_at_it_is_fine) {
  auto in = compressible_bytes(100'000);
  auto frame = lz4_compress_frame(view(in));
  BOOST_TEST(lz4_decompress_frame(view(frame), 99'999).error() == err(errc::too_large));
  BOOST_TEST(lz4_decompress_frame(view(frame), 1).error() == err(errc::too_large));
  auto exact = lz4_decompress_frame(view(frame), 100'000);
  BOOST_REQUIRE(exact);
  BOOST_TEST(exact->size() == 100'000u);
}

BOOST_AUTO_TEST_CASE(a_declared_content_size_above_the_limit_fails_before_decoding) {
  auto in = compressible_bytes(50'000);
  auto frame = liblz4_frame(in, true);
  BOOST_TEST(lz4_decompress_frame(view(frame), 49'999).error() == err(errc::too_large));
  auto out = lz4_decompress_frame(view(frame), 50'000);
  BOOST_REQUIRE(out);
  BOOST_TEST((*out == in));
}

BOOST_AUTO_TEST_CASE(corrupt_input_is_compression_failed) {
  auto frame = lz4_compress_frame(view(compressible_bytes(10'000)));
  BOOST_TEST(lz4_decompress_frame(bytes_view{}, no_limit).error() == err(errc::compression_failed));
  BOOST_TEST(lz4_decompress_frame("not a frame at all", no_limit).error() == err(errc::compression_failed));
  auto bad_hc = frame;
  bad_hc[6] ^= 1;
  BOOST_TEST(lz4_decompress_frame(view(bad_hc), no_limit).error() == err(errc::compression_failed));
  auto bad_block_size = frame;
  bad_block_size[8] = '\x7f'; // first block's size now far beyond the frame
  BOOST_TEST(lz4_decompress_frame(view(bad_block_size), no_limit).error() == err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(a_frame_cut_short_is_compression_failed) {
  auto frame = lz4_compress_frame(view(compressible_bytes(70'000)));
  for (size_t cut : {size_t{1}, size_t{6}, size_t{7}, size_t{100}, frame.size() - 4, frame.size() - 1})
    BOOST_TEST(lz4_decompress_frame(view(frame).substr(0, cut), no_limit).error() ==
               err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(bytes_after_the_end_of_the_frame_are_compression_failed) {
  auto frame = lz4_compress_frame("abc");
  frame.push_back(0);
  BOOST_TEST(lz4_decompress_frame(view(frame), no_limit).error() == err(errc::compression_failed));
}

BOOST_AUTO_TEST_CASE(every_single_byte_corruption_is_survived) {
  // No crash, no sanitizer report, and never more output than the limit.
  auto in = compressible_bytes(3000);
  auto frame = lz4_compress_frame(view(in));
  for (size_t i = 0; i < frame.size(); ++i) {
    auto bad = frame;
    bad[i] ^= 0x5a;
    auto out = lz4_decompress_frame(view(bad), 4000);
    if (out) BOOST_TEST(out->size() <= 4000u);
  }
}

BOOST_AUTO_TEST_CASE(an_abandoned_frame_with_content_size_does_not_break_the_next_call) {
  // lz4 1.9.4 keeps the remaining-content counter across a context reset; a shared
  // context would then reject the next frame that has no content size.
  auto in = compressible_bytes(20'000);
  auto with_size = liblz4_frame(in, true);
  BOOST_TEST(!lz4_decompress_frame(view(with_size).substr(0, with_size.size() / 2), no_limit));
  auto without_size = lz4_compress_frame(view(in));
  auto out = lz4_decompress_frame(view(without_size), no_limit);
  BOOST_REQUIRE(out);
  BOOST_TEST((*out == in));
}

BOOST_AUTO_TEST_CASE(the_broken_header_checksum_of_kafka_3160_is_accepted_only_on_request) {
  auto in = compressible_bytes(5000);
  auto frame = lz4_compress_frame(view(in));
  // Kafka 0.8.2-0.9: HC over magic + FLG + BD instead of FLG + BD.
  char broken = static_cast<char>((xxh32(frame.data(), 6) >> 8) & 0xff);
  BOOST_REQUIRE(broken != frame[6]);
  frame[6] = broken;
  BOOST_TEST(lz4_decompress_frame(view(frame), no_limit).error() == err(errc::compression_failed));
  auto out = lz4_decompress_frame(view(frame), no_limit, lz4_header_checksum::allow_kafka_3160);
  BOOST_REQUIRE(out);
  BOOST_TEST((*out == in));
  // The correct HC is still accepted in that mode, and any other value is not.
  auto proper = lz4_compress_frame(view(in));
  BOOST_TEST(static_cast<bool>(lz4_decompress_frame(view(proper), no_limit, lz4_header_checksum::allow_kafka_3160)));
  frame[6] = static_cast<char>(broken ^ 0x21);
  BOOST_TEST(!lz4_decompress_frame(view(frame), no_limit, lz4_header_checksum::allow_kafka_3160));
}

BOOST_AUTO_TEST_CASE(decodes_frames_written_by_the_lz4_command_line_tool) {
  if (!lz4_tool_available()) {
    BOOST_TEST_MESSAGE("skipped: the lz4 command-line tool is not installed");
    return;
  }
  scratch_dir dir;
  auto content = compressible_bytes(400'000);
  auto noise = random_bytes(50'000);
  content.insert(content.end(), noise.begin(), noise.end());
  dir.write("input", content);
  // Default (4 MiB blocks, content checksum), linked blocks, 64 KiB blocks with block
  // checksums, a content size in the header, and high compression.
  for (std::string flags : {"", "-BD", "-B4 -BX", "--content-size", "-9 --no-frame-crc"}) {
    BOOST_TEST_CONTEXT("lz4 " << flags) {
      BOOST_REQUIRE(dir.lz4(flags, "input", "input.lz4"));
      auto frame = dir.read("input.lz4");
      auto out = lz4_decompress_frame(view(frame), no_limit);
      BOOST_REQUIRE(out);
      BOOST_TEST((*out == content));
    }
  }
}

BOOST_AUTO_TEST_CASE(our_frames_are_decoded_by_the_lz4_command_line_tool) {
  if (!lz4_tool_available()) {
    BOOST_TEST_MESSAGE("skipped: the lz4 command-line tool is not installed");
    return;
  }
  scratch_dir dir;
  auto content = compressible_bytes(200'000);
  dir.write("ours.lz4", lz4_compress_frame(view(content)));
  BOOST_REQUIRE(dir.lz4("-d", "ours.lz4", "ours.out"));
  BOOST_TEST((dir.read("ours.out") == content));
}

BOOST_AUTO_TEST_SUITE_END()
