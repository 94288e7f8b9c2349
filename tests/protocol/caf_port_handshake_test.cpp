#include <boost/test/unit_test.hpp>

#include <string>

#include "protocol/caf_port_handshake.hpp"

using namespace cafka::protocol::caf_handshake;

namespace {

nonce counting_nonce(uint8_t first) {
  nonce n{};
  for (size_t i = 0; i < n.size(); ++i)
    n[i] = static_cast<uint8_t>(first + i);
  return n;
}

std::string hex(const uint8_t* p, size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(caf_port_handshake)

BOOST_AUTO_TEST_CASE(greeting_carries_the_server_nonce_behind_the_magic) {
  auto sn = counting_nonce(0);
  auto g = make_greeting(sn);
  BOOST_TEST(std::string(g.begin(), g.begin() + magic_size) == "CAFKAHS1");
  auto back = read_greeting(g.data(), g.size());
  BOOST_TEST_REQUIRE(back.has_value());
  BOOST_TEST((*back == sn));
  g[0] = 'X';
  BOOST_TEST(!read_greeting(g.data(), g.size()).has_value());
  BOOST_TEST(!read_greeting(g.data(), g.size() - 1).has_value());
}

// Pins the format: HMAC-SHA-256 over the label and both nonces (values from Python's hmac).
BOOST_AUTO_TEST_CASE(macs_are_hmac_sha256_over_label_and_nonces) {
  auto sn = counting_nonce(0);
  auto cn = counting_nonce(100);
  auto h = make_hello("secret", sn, cn);
  BOOST_TEST(std::string(h.begin(), h.begin() + magic_size) == "CAFKAHC1");
  BOOST_TEST(hex(h.data() + magic_size + nonce_size, mac_size)
             == "f963fae74c7601ecf92151ee424e9d136101cc77bd8c6762ab6d1e0232c40ab8");
  auto p = make_proof("secret", sn, cn);
  BOOST_TEST(hex(p.data(), p.size()) == "18be964856b609e5bfbd75bce383a8dbece0fc9ba67c37fb7fa5485690664e19");
}

BOOST_AUTO_TEST_CASE(a_hello_with_the_secret_is_accepted_and_names_the_client_nonce) {
  auto sn = random_nonce();
  auto cn = random_nonce();
  auto h = make_hello("s3cret", sn, cn);
  auto got = check_hello("s3cret", sn, h.data(), h.size());
  BOOST_TEST_REQUIRE(got.has_value());
  BOOST_TEST((*got == cn));
  auto p = make_proof("s3cret", sn, cn);
  BOOST_TEST(check_proof("s3cret", sn, cn, p.data(), p.size()));
}

BOOST_AUTO_TEST_CASE(wrong_secret_tampering_truncation_and_replay_are_refused) {
  auto sn = random_nonce();
  auto cn = random_nonce();
  auto h = make_hello("s3cret", sn, cn);
  BOOST_TEST(!check_hello("other", sn, h.data(), h.size()).has_value());
  BOOST_TEST(!check_hello("s3cret", sn, h.data(), h.size() - 1).has_value());
  // A hello recorded on one connection does not open another (a new server nonce).
  BOOST_TEST(!check_hello("s3cret", random_nonce(), h.data(), h.size()).has_value());
  for (size_t i = 0; i < h.size(); ++i) {
    auto bad = h;
    bad[i] ^= 0x01;
    BOOST_TEST(!check_hello("s3cret", sn, bad.data(), bad.size()).has_value(), "flipped byte " << i);
  }
  auto p = make_proof("s3cret", sn, cn);
  BOOST_TEST(!check_proof("other", sn, cn, p.data(), p.size()));
  BOOST_TEST(!check_proof("s3cret", sn, random_nonce(), p.data(), p.size()));
  BOOST_TEST(!check_proof("s3cret", sn, cn, p.data(), p.size() - 1));
  // The server's proof is not the client's MAC sent back.
  BOOST_TEST(!check_proof("s3cret", sn, cn, h.data() + magic_size + nonce_size, mac_size));
}

BOOST_AUTO_TEST_SUITE_END()
