// caf.port's gate over real loopback sockets, without an actor system: only a peer that
// proves the secret is admitted, with the bytes after its handshake untouched; random,
// truncated and replayed handshakes, silent peers and floods are closed.
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "actors/caf_port_gate.hpp"
#include "protocol/caf_port_handshake.hpp"

using namespace cafka;
namespace hs = cafka::protocol::caf_handshake;
using namespace std::chrono_literals;

namespace {

// The gate on a free loopback port; admitted sockets are kept for the test to read.
struct gate_fixture {
  std::mutex mtx;
  std::vector<int> admitted;
  std::unique_ptr<caf_port_gate> gate;

  explicit gate_fixture(size_t max_pending = 64, std::chrono::milliseconds timeout = 10s) {
    std::string error_text;
    gate = caf_port_gate::open(caf_port_gate_options{"127.0.0.1", 0, "s3cret", max_pending, timeout},
                               [this](int fd, uint16_t) {
                                 std::lock_guard<std::mutex> guard{mtx};
                                 admitted.push_back(fd);
                               },
                               error_text);
    BOOST_REQUIRE_MESSAGE(gate, error_text);
  }

  ~gate_fixture() {
    gate.reset();
    for (int fd : admitted)
      ::close(fd);
  }

  size_t admitted_count() {
    std::lock_guard<std::mutex> guard{mtx};
    return admitted.size();
  }

  int connect() const {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(gate->port());
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    return fd;
  }
};

// Reads until the peer closes (true) or 10 s pass (false); the bytes read are dropped.
bool closed_by_peer(int fd) {
  auto deadline = std::chrono::steady_clock::now() + 10s;
  char buf[256];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd pfd{fd, POLLIN, 0};
    if (::poll(&pfd, 1, 100) <= 0)
      continue;
    auto n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0)
      return true;
  }
  return false;
}

hs::greeting_bytes read_greeting(int fd) {
  hs::greeting_bytes g{};
  size_t got = 0;
  while (got < g.size()) {
    auto n = ::recv(fd, g.data() + got, g.size() - got, 0);
    BOOST_REQUIRE(n > 0);
    got += static_cast<size_t>(n);
  }
  return g;
}

void send_bytes(int fd, const void* data, size_t size) {
  BOOST_REQUIRE(::send(fd, data, size, MSG_NOSIGNAL) == static_cast<ssize_t>(size));
}

} // namespace

BOOST_AUTO_TEST_SUITE(caf_port_gate_suite)

BOOST_AUTO_TEST_CASE(a_peer_with_the_secret_is_admitted_and_what_follows_is_untouched) {
  gate_fixture f;
  int fd = f.connect();
  BOOST_TEST(caf_port_client_handshake(fd, "s3cret", 10s) == "");
  send_bytes(fd, "BASP", 4);
  for (int i = 0; i < 1000 && f.admitted_count() == 0; ++i)
    std::this_thread::sleep_for(10ms);
  BOOST_REQUIRE(f.admitted_count() == 1u);
  char buf[4];
  BOOST_TEST(::recv(f.admitted[0], buf, 4, MSG_WAITALL) == 4);
  BOOST_TEST(std::string(buf, 4) == "BASP");
  ::close(fd);
}

BOOST_AUTO_TEST_CASE(another_secret_fails_on_both_sides) {
  gate_fixture f;
  int fd = f.connect();
  auto failed = caf_port_client_handshake(fd, "guess", 10s);
  BOOST_TEST(failed.find("reading the proof") == 0, failed);
  ::close(fd);
  // The other way round: a gate that does not know the client's secret cannot prove it.
  gate_fixture impostor; // same secret as f; a client with another one rejects its proof
  int fd2 = impostor.connect();
  BOOST_TEST(!caf_port_client_handshake(fd2, "other", 10s).empty());
  ::close(fd2);
  BOOST_TEST(f.admitted_count() == 0u);
  BOOST_TEST(impostor.admitted_count() == 0u);
}

BOOST_AUTO_TEST_CASE(random_truncated_and_replayed_handshakes_are_closed) {
  gate_fixture f;
  std::mt19937 rng(20261202);
  for (int round = 0; round < 50; ++round) {
    int fd = f.connect();
    read_greeting(fd);
    std::vector<uint8_t> junk(1 + rng() % 300);
    for (auto& b : junk)
      b = static_cast<uint8_t>(rng());
    send_bytes(fd, junk.data(), junk.size());
    if (junk.size() >= hs::hello_size)
      BOOST_TEST(closed_by_peer(fd), "round " << round);
    ::close(fd); // shorter ones: truncated, the gate waits for the rest; closing ends it
  }
  // A hello recorded on one connection, replayed on another (a new server nonce).
  int first = f.connect();
  auto g = read_greeting(first);
  auto sn = hs::read_greeting(g.data(), g.size());
  BOOST_REQUIRE(sn.has_value());
  auto hello = hs::make_hello("s3cret", *sn, hs::random_nonce());
  ::close(first);
  int replay = f.connect();
  read_greeting(replay);
  send_bytes(replay, hello.data(), hello.size());
  BOOST_TEST(closed_by_peer(replay));
  ::close(replay);
  BOOST_TEST(f.admitted_count() == 0u);
  // And the gate still admits a real peer.
  int fd = f.connect();
  BOOST_TEST(caf_port_client_handshake(fd, "s3cret", 10s) == "");
  ::close(fd);
}

BOOST_AUTO_TEST_CASE(silent_peers_are_closed_after_the_timeout_and_floods_beyond_max_pending_at_once) {
  gate_fixture slow(64, 200ms);
  int silent = slow.connect();
  BOOST_TEST(closed_by_peer(silent));
  ::close(silent);

  gate_fixture small(2, 60s);
  int a = small.connect();
  int b = small.connect();
  read_greeting(a);
  read_greeting(b); // both pending now
  int c = small.connect();
  BOOST_TEST(closed_by_peer(c)); // refused at once, long before the 60 s timeout
  ::close(c);
  ::close(a);
  ::close(b);
  // Their slots free again: a real peer gets in.
  int d = -1;
  std::string failed = "not tried";
  for (int i = 0; i < 100 && !failed.empty(); ++i) { // the gate notices a and b closing first
    d = small.connect();
    failed = caf_port_client_handshake(d, "s3cret", 10s);
    if (!failed.empty())
      ::close(d);
  }
  BOOST_TEST(failed == "");
  ::close(d);
}

BOOST_AUTO_TEST_SUITE_END()
