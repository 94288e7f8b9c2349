#pragma once
// The handshake that comes before CAF's BASP on caf.port: a peer proves it holds the
// cluster's shared secret (caf.secret.file) before CAF's decoder, which trusts its input,
// sees a byte from it. Both sides prove it, each over a nonce the other chose, so a
// recorded handshake replayed on a new connection fails.
//
//   server -> client  greeting  "CAFKAHS1" | server nonce                            40 bytes
//   client -> server  hello     "CAFKAHC1" | client nonce | HMAC(secret, "client" | sn | cn)  72 bytes
//   server -> client  proof     HMAC(secret, "server" | cn | sn)                       32 bytes
//
// then BASP runs on the same socket. HMAC is HMAC-SHA-256 (OpenSSL's libcrypto).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cafka::protocol::caf_handshake {

constexpr size_t nonce_size = 32;
constexpr size_t mac_size = 32;
constexpr size_t magic_size = 8;
constexpr size_t greeting_size = magic_size + nonce_size;
constexpr size_t hello_size = magic_size + nonce_size + mac_size;
constexpr size_t proof_size = mac_size;

using nonce = std::array<uint8_t, nonce_size>;
using greeting_bytes = std::array<uint8_t, greeting_size>;
using hello_bytes = std::array<uint8_t, hello_size>;
using proof_bytes = std::array<uint8_t, proof_size>;

/// The secret used when caf.secret.file is not set. It keeps stray bytes (a port scanner,
/// a Kafka client pointed at the wrong port) away from CAF's decoder, not an attacker
/// who can read this file: caf.port is then bound to loopback only (docs/security.md).
constexpr std::string_view default_secret = "cafka-default-caf-port-secret-v1";

/// A nonce from OpenSSL's RAND_bytes.
nonce random_nonce();

greeting_bytes make_greeting(const nonce& server);
/// The server nonce of a greeting; nullopt unless the magic is right.
std::optional<nonce> read_greeting(const uint8_t* bytes, size_t size);

hello_bytes make_hello(std::string_view secret, const nonce& server, const nonce& client);
/// The client nonce of a hello that proves the secret over `server`; nullopt otherwise.
std::optional<nonce> check_hello(std::string_view secret, const nonce& server, const uint8_t* bytes,
                                 size_t size);

proof_bytes make_proof(std::string_view secret, const nonce& server, const nonce& client);
bool check_proof(std::string_view secret, const nonce& server, const nonce& client, const uint8_t* bytes,
                 size_t size);

} // namespace cafka::protocol::caf_handshake
