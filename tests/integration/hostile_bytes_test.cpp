// Issue 15 point 3: no byte stream on any port of the broker crashes, hangs or exhausts
// it. A seeded run (CAFKA_HOSTILE_BYTES_SEED, default 15) opens CAFKA_HOSTILE_BYTES_CONNECTIONS
// (default 300) connections to each port, the Kafka listener and caf.port, each carrying
// random bytes, a valid request or handshake cut short, or one replayed; then kcat,
// a librdkafka-compatible produce/consume round trip (kcat) and cafka's C++ client (over
// caf.port's handshake and CAF's BASP) must still be served. scripts/test.sh runs it in
// the sanitizer build too. Waits are bounded; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "protocol/caf_port_handshake.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
namespace hs = cafka::protocol::caf_handshake;

namespace {

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

int env_int(const char* name, int fallback) {
  auto* v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : fallback;
}

// Writes what the socket takes within 1 s (the broker may close it half way).
void send_some(int fd, const std::vector<uint8_t>& bytes) {
  size_t at = 0;
  auto until = std::chrono::steady_clock::now() + 1s;
  while (at < bytes.size() && std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, 50) <= 0)
      continue;
    auto n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0)
      return;
    at += static_cast<size_t>(n);
  }
}

// Up to `n` bytes that arrive within `ms`.
std::vector<uint8_t> receive_some(int fd, size_t n, int ms) {
  std::vector<uint8_t> out;
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (out.size() < n && std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0)
      continue;
    uint8_t buf[4096];
    auto got = ::recv(fd, buf, std::min(sizeof buf, n - out.size()), 0);
    if (got <= 0)
      break;
    out.insert(out.end(), buf, buf + got);
  }
  return out;
}

std::vector<uint8_t> random_bytes(std::mt19937& rng, size_t max) {
  std::vector<uint8_t> out(1 + rng() % max);
  for (auto& b : out)
    b = static_cast<uint8_t>(rng());
  return out;
}

std::vector<uint8_t> framed(const std::vector<char>& body) {
  std::vector<uint8_t> out(4);
  uint32_t size = htonl(static_cast<uint32_t>(body.size()));
  std::memcpy(out.data(), &size, 4);
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

// Valid requests a client sends first: ApiVersions v0 and Metadata v1 for all topics.
std::vector<uint8_t> valid_kafka_requests() {
  auto out = framed(cafka::test::request_frame(18, 0, 1));
  auto metadata = framed(cafka::test::request_frame(3, 1, 2, {'\xff', '\xff', '\xff', '\xff'}));
  out.insert(out.end(), metadata.begin(), metadata.end());
  return out;
}

// One hostile connection to the Kafka listener.
void hostile_kafka(uint16_t port, std::mt19937& rng) {
  std::vector<uint8_t> bytes;
  switch (rng() % 5) {
    case 0: // random bytes
      bytes = random_bytes(rng, 8192);
      break;
    case 1: { // a frame of plausible size around a random body: the decoders see it
      auto body = random_bytes(rng, 512);
      body.resize(std::max<size_t>(body.size(), 4));
      body[0] = 0;
      body[1] = static_cast<uint8_t>(rng() % 40); // api key 0..39
      body[2] = 0;
      body[3] = static_cast<uint8_t>(rng() % 13); // version 0..12
      bytes = framed(std::vector<char>(body.begin(), body.end()));
      break;
    }
    case 2: { // valid requests cut short
      bytes = valid_kafka_requests();
      bytes.resize(1 + rng() % (bytes.size() - 1));
      break;
    }
    case 3: { // valid requests replayed many times, never read
      auto once = valid_kafka_requests();
      for (int i = 0, n = 1 + static_cast<int>(rng() % 50); i < n; ++i)
        bytes.insert(bytes.end(), once.begin(), once.end());
      break;
    }
    default: { // a size beyond socket.request.max.bytes, or negative
      bytes = {0x7f, 0xff, 0xff, 0xff};
      if (rng() % 2 == 0)
        bytes[0] = 0xff;
      auto tail = random_bytes(rng, 256);
      bytes.insert(bytes.end(), tail.begin(), tail.end());
    }
  }
  int fd = cafka::test::connect_nonblocking(port);
  send_some(fd, bytes);
  receive_some(fd, 1 << 20, static_cast<int>(rng() % 50));
  ::close(fd);
}

// One hostile connection to caf.port: nothing in it ever reaches CAF's decoder.
void hostile_caf(uint16_t port, std::mt19937& rng, std::vector<uint8_t>& recorded_hello) {
  int fd = cafka::test::connect_nonblocking(port);
  switch (rng() % 4) {
    case 0: // random bytes, without reading the greeting
      send_some(fd, random_bytes(rng, 8192));
      break;
    case 1: { // a valid hello (built-in secret) cut short
      auto g = receive_some(fd, hs::greeting_size, 2000);
      auto sn = hs::read_greeting(g.data(), g.size());
      BOOST_REQUIRE_MESSAGE(sn.has_value(), "caf.port sent no greeting");
      auto hello = hs::make_hello(hs::default_secret, *sn, hs::random_nonce());
      recorded_hello.assign(hello.begin(), hello.end());
      send_some(fd, std::vector<uint8_t>(hello.begin(), hello.begin() + rng() % hello.size()));
      break;
    }
    case 2: // a hello recorded on an earlier connection, replayed
      receive_some(fd, hs::greeting_size, 2000);
      if (!recorded_hello.empty())
        send_some(fd, recorded_hello);
      break;
    default: { // the greeting's bytes sent back, then random bytes
      auto g = receive_some(fd, hs::greeting_size, 2000);
      auto tail = random_bytes(rng, 1024);
      g.insert(g.end(), tail.begin(), tail.end());
      send_some(fd, g);
    }
  }
  receive_some(fd, 1 << 16, static_cast<int>(rng() % 50));
  ::close(fd);
}

} // namespace

BOOST_AUTO_TEST_SUITE(hostile_bytes)

BOOST_AUTO_TEST_CASE(no_byte_stream_on_any_port_stops_the_broker) {
  auto seed = static_cast<unsigned>(env_int("CAFKA_HOSTILE_BYTES_SEED", 15));
  auto connections = env_int("CAFKA_HOSTILE_BYTES_CONNECTIONS", 300);
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path};
  std::mt19937 rng(seed);
  std::vector<uint8_t> recorded_hello;
  for (int i = 0; i < connections; ++i) {
    hostile_kafka(server.kafka_port(), rng);
    hostile_caf(server.caf_port(), rng, recorded_hello);
    BOOST_REQUIRE_MESSAGE(::kill(server.pid(), 0) == 0, "the broker died at connection " << i << " (seed " << seed
                                                                                     << "): " << server.output());
  }
  auto caf = "127.0.0.1:" + std::to_string(server.caf_port());
  auto native = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-example-producer", "--bootstrap-server=" + caf,
                                  "--topic=native", "--count=2"},
                                 "", 60s);
  BOOST_REQUIRE_MESSAGE(native.code == 0, "cafka's C++ client over caf.port: " << show(native));
  auto created = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", server.bootstrap(),
                                   "--create", "--topic", "after", "--partitions", "1"},
                                  "", 60s);
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto produced = cafka::test::run({"/usr/bin/kcat", "-b", server.bootstrap(), "-P", "-t", "after"}, "one\ntwo\n", 60s);
  BOOST_REQUIRE_MESSAGE(produced.code == 0, show(produced));
  auto consumed = cafka::test::run(
    {"/usr/bin/kcat", "-b", server.bootstrap(), "-C", "-t", "after", "-o", "beginning", "-c", "2", "-e"}, "", 60s);
  BOOST_REQUIRE_MESSAGE(consumed.code == 0, show(consumed));
  BOOST_TEST(consumed.out == "one\ntwo\n");
  auto listed = cafka::test::run(
    {CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", server.bootstrap(), "--list"}, "", 60s);
  BOOST_TEST(listed.code == 0, show(listed));
  BOOST_TEST(listed.out.find("after") != std::string::npos);
  BOOST_TEST(listed.out.find("native") != std::string::npos);
  auto out = server.output();
  BOOST_TEST(out.find("caf.port: closing") != std::string::npos); // one log line per refused connection
  BOOST_TEST(server.stop() == 0, server.output());
}

// With caf.secret.file, a client with the same secret (CAFKA_CAF_SECRET_FILE) gets in
// and one without it is refused with a message that says why.
BOOST_AUTO_TEST_CASE(a_configured_secret_admits_only_clients_that_hold_it) {
  cafka::test::scratch_dir dir;
  auto secret = dir.path + ".secret";
  std::ofstream(secret) << "integration-secret\n";
  cafka::test::server_process server{dir.path + "/logs", {"caf.secret.file=" + secret}};
  auto caf = "127.0.0.1:" + std::to_string(server.caf_port());
  auto created = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", server.bootstrap(),
                                   "--create", "--topic", "secret", "--partitions", "1"},
                                  "", 60s);
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto list = [&] { // cafka's C++ client over caf.port: replays the (empty) topic
    return cafka::test::run(
      {CAFKA_BINARY_DIR "/bin/cafka-example-replay", "--bootstrap-server=" + caf, "--topic=secret"}, "", 60s);
  };
  auto refused = list(); // the built-in secret
  BOOST_TEST(refused.code != 0);
  BOOST_TEST(refused.err.find("caf.port") != std::string::npos, show(refused));
  ::setenv("CAFKA_CAF_SECRET_FILE", secret.c_str(), 1);
  auto admitted = list();
  ::unsetenv("CAFKA_CAF_SECRET_FILE");
  BOOST_TEST(admitted.code == 0, show(admitted));
  BOOST_TEST(server.stop() == 0, server.output());
  ::unlink(secret.c_str());
}

BOOST_AUTO_TEST_SUITE_END()
