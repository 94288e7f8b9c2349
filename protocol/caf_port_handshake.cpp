#include "protocol/caf_port_handshake.hpp"

#include <cstring>
#include <stdexcept>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

namespace cafka::protocol::caf_handshake {

namespace {

constexpr char greeting_magic[magic_size + 1] = "CAFKAHS1";
constexpr char hello_magic[magic_size + 1] = "CAFKAHC1";

// HMAC-SHA-256(secret, label | first | second).
std::array<uint8_t, mac_size> mac(std::string_view secret, std::string_view label, const nonce& first,
                                  const nonce& second) {
  uint8_t input[16 + 2 * nonce_size];
  std::memcpy(input, label.data(), label.size());
  std::memcpy(input + label.size(), first.data(), nonce_size);
  std::memcpy(input + label.size() + nonce_size, second.data(), nonce_size);
  std::array<uint8_t, mac_size> out{};
  unsigned int out_size = 0;
  if (HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), input, label.size() + 2 * nonce_size,
           out.data(), &out_size)
        == nullptr
      || out_size != mac_size)
    throw std::runtime_error("HMAC-SHA-256 failed");
  return out;
}

bool same(const uint8_t* a, const uint8_t* b, size_t n) { return CRYPTO_memcmp(a, b, n) == 0; }

} // namespace

nonce random_nonce() {
  nonce out{};
  if (RAND_bytes(out.data(), static_cast<int>(out.size())) != 1)
    throw std::runtime_error("RAND_bytes failed");
  return out;
}

greeting_bytes make_greeting(const nonce& server) {
  greeting_bytes out{};
  std::memcpy(out.data(), greeting_magic, magic_size);
  std::memcpy(out.data() + magic_size, server.data(), nonce_size);
  return out;
}

std::optional<nonce> read_greeting(const uint8_t* bytes, size_t size) {
  if (size != greeting_size || std::memcmp(bytes, greeting_magic, magic_size) != 0)
    return std::nullopt;
  nonce out{};
  std::memcpy(out.data(), bytes + magic_size, nonce_size);
  return out;
}

hello_bytes make_hello(std::string_view secret, const nonce& server, const nonce& client) {
  hello_bytes out{};
  std::memcpy(out.data(), hello_magic, magic_size);
  std::memcpy(out.data() + magic_size, client.data(), nonce_size);
  auto m = mac(secret, "client", server, client);
  std::memcpy(out.data() + magic_size + nonce_size, m.data(), mac_size);
  return out;
}

std::optional<nonce> check_hello(std::string_view secret, const nonce& server, const uint8_t* bytes,
                                 size_t size) {
  if (size != hello_size || std::memcmp(bytes, hello_magic, magic_size) != 0)
    return std::nullopt;
  nonce client{};
  std::memcpy(client.data(), bytes + magic_size, nonce_size);
  auto expected = mac(secret, "client", server, client);
  if (!same(expected.data(), bytes + magic_size + nonce_size, mac_size))
    return std::nullopt;
  return client;
}

proof_bytes make_proof(std::string_view secret, const nonce& server, const nonce& client) {
  return mac(secret, "server", client, server);
}

bool check_proof(std::string_view secret, const nonce& server, const nonce& client, const uint8_t* bytes,
                 size_t size) {
  if (size != proof_size)
    return false;
  auto expected = make_proof(secret, server, client);
  return same(expected.data(), bytes, proof_size);
}

} // namespace cafka::protocol::caf_handshake
