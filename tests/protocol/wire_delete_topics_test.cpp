// DeleteTopics v0-v3 against the byte layouts of protocol/wire/delete_topics.hpp and
// kafka-wire-notes.md §2e: the request is the same in every version, the response gains
// throttle_time_ms in v1.
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/delete_topics.hpp"
#include "test_support.hpp"
#include "wire_samples.hpp"

using namespace cafka::wire;
using cafka::protocol::errc;
using cafka::protocol::test::err;
using cafka::protocol::test::from_hex;
using cafka::protocol::test::to_hex;
using cafka::protocol::test::view;

namespace {

using names = std::vector<std::string>;

// Runs `decode` with the address space capped 256 MiB above its current size, so a
// decoder that reserved room for a hostile count throws std::bad_alloc instead of passing.
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

std::vector<cafka::wire::test::wire_sample> delete_topics_samples() {
  std::vector<cafka::wire::test::wire_sample> out;
  for (auto& s : cafka::wire::test::admin_request_samples())
    if (s.api_key == static_cast<int16_t>(api_key::delete_topics))
      out.push_back(s);
  return out;
}

std::string encoded_hex(const delete_topics_response& resp, int16_t version) {
  std::vector<char> out;
  byte_writer w{out};
  encode_delete_topics_response(resp, version, w);
  return to_hex(view(out));
}

std::string hex(const char* spaced) { return to_hex(view(from_hex(spaced))); }

} // namespace

BOOST_AUTO_TEST_SUITE(wire_delete_topics)

BOOST_AUTO_TEST_CASE(decodes_v0_and_v3_requests) {
  auto body = from_hex("00000002 0006 6f7264657273 0008 7061796d656e7473 00001388");
  for (int16_t v : {0, 3}) {
    BOOST_TEST_CONTEXT("version " << v) {
      auto req = decode_delete_topics_request(view(body), v);
      BOOST_REQUIRE(req);
      BOOST_TEST(req->topic_names == (names{"orders", "payments"}),
                 boost::test_tools::per_element());
      BOOST_TEST(req->timeout_ms == 5000);
    }
  }
}

BOOST_AUTO_TEST_CASE(ignores_trailing_bytes) {
  auto body = from_hex("00000001 0006 6f7264657273 00001388 ffff");
  auto req = decode_delete_topics_request(view(body), 1);
  BOOST_REQUIRE(req);
  BOOST_TEST(req->topic_names == names{"orders"}, boost::test_tools::per_element());
  BOOST_TEST(req->timeout_ms == 5000);
}

BOOST_AUTO_TEST_CASE(null_topic_names_are_malformed) {
  auto body = from_hex("ffffffff 00001388");
  auto req = decode_delete_topics_request(view(body), 3);
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::bad_length));
}

BOOST_AUTO_TEST_CASE(samples_cover_every_version_and_decode) {
  auto samples = delete_topics_samples();
  BOOST_REQUIRE_EQUAL(samples.size(), 4u);
  for (int16_t v = 0; v <= 3; ++v) {
    BOOST_TEST_CONTEXT("version " << v) {
      BOOST_TEST(samples[v].version == v);
      auto req = decode_delete_topics_request(view(samples[v].body), v);
      BOOST_REQUIRE(req);
      BOOST_TEST(req->topic_names == (names{"orders", "payments"}),
                 boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(every_truncation_of_a_sample_fails) {
  for (auto& s : delete_topics_samples()) {
    for (size_t n = 0; n < s.body.size(); ++n) {
      BOOST_TEST_CONTEXT("version " << s.version << ", " << n << " bytes") {
        BOOST_TEST(!decode_delete_topics_request({s.body.data(), n}, s.version));
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(hostile_name_count_fails_before_allocating) {
  auto body = from_hex("7fffffff 0001 61 00001388");
  auto req = under_memory_cap([&] { return decode_delete_topics_request(view(body), 3); });
  BOOST_REQUIRE(!req);
  BOOST_TEST(req.error() == err(errc::truncated));
}

BOOST_AUTO_TEST_CASE(encodes_v0_response) {
  delete_topics_response resp{4, {{"orders", 0}, {"gone", 3}}};
  BOOST_TEST(encoded_hex(resp, 0) == hex("00000002 0006 6f7264657273 0000 0004 676f6e65 0003"));
}

BOOST_AUTO_TEST_CASE(encodes_v1_to_v3_response_with_throttle_first) {
  delete_topics_response resp{4, {{"orders", 0}, {"gone", 3}}};
  auto expected = hex("00000004 00000002 0006 6f7264657273 0000 0004 676f6e65 0003");
  for (int16_t v = 1; v <= 3; ++v)
    BOOST_TEST(encoded_hex(resp, v) == expected, "version " << v);
}

BOOST_AUTO_TEST_SUITE_END()
