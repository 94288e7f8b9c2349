// One client that pipelines Metadata v1 requests as fast as the socket takes them and
// never reads an answer must slow only itself: while it runs (CAFKA_HOSTILE_SECONDS,
// default 60), kcat -L and a librdkafka producer (acks=1, a record every few ms) keep
// working without a timeout or a failed delivery, and the broker's resident memory stays
// below its start plus 128 MiB (the bound: 100 unanswered requests and 100 KiB of unsent
// answers per connection, plus what the socket buffers hold). After the client has gone,
// the broker serves again at once. Waits are bounded; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

namespace {

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

// VmRSS of `pid` in KiB (0 if unreadable).
long resident_kib(pid_t pid) {
  std::ifstream status{"/proc/" + std::to_string(pid) + "/status"};
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::atol(line.c_str() + 6);
  return 0;
}

// Writes Metadata v1 requests (all topics) into a non-blocking socket whenever it takes
// more, never reading, until `stop`.
void pipeline_without_reading(uint16_t port, const std::atomic<bool>& stop, long& sent) {
  int fd = cafka::test::connect_nonblocking(port);
  std::vector<char> many;
  for (int i = 0; i < 64; ++i) {
    auto body = cafka::test::request_frame(3, 1, i, {'\xff', '\xff', '\xff', '\xff'}); // topics: null = all
    auto size = htonl(static_cast<uint32_t>(body.size()));
    many.insert(many.end(), reinterpret_cast<char*>(&size), reinterpret_cast<char*>(&size) + 4);
    many.insert(many.end(), body.begin(), body.end());
  }
  size_t at = 0;
  while (!stop) {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, 100) <= 0)
      continue;
    auto n = ::send(fd, many.data() + at, many.size() - at, MSG_NOSIGNAL);
    if (n <= 0)
      break; // closed by the broker (e.g. idle): the test goes on
    sent += n;
    at = (at + static_cast<size_t>(n)) % many.size();
  }
  ::close(fd);
}

struct delivery_count : RdKafka::DeliveryReportCb {
  std::atomic<long> ok{0}, failed{0};
  std::string first_error;
  void dr_cb(RdKafka::Message& m) override {
    if (m.err() == RdKafka::ERR_NO_ERROR) {
      ++ok;
    } else {
      if (failed++ == 0)
        first_error = m.errstr();
    }
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(hostile_client)

BOOST_AUTO_TEST_CASE(a_client_that_never_reads_slows_only_itself) {
  auto seconds = std::getenv("CAFKA_HOSTILE_SECONDS") ? std::atoi(std::getenv("CAFKA_HOSTILE_SECONDS")) : 60;
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path};
  auto created = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                                   "127.0.0.1:" + std::to_string(server.kafka_port()), "--create", "--topic", "steady",
                                   "--partitions", "1"},
                                  "", 60s);
  BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  auto kcat_list = [&] {
    return cafka::test::run({"/usr/bin/kcat", "-b", server.bootstrap(), "-L", "-m", "10"}, "", 60s);
  };
  BOOST_REQUIRE(kcat_list().code == 0);
  auto rss_before = resident_kib(server.pid());

  delivery_count reports;
  std::string err;
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  BOOST_REQUIRE(conf->set("bootstrap.servers", server.bootstrap(), err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("acks", "1", err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("message.timeout.ms", "10000", err) == RdKafka::Conf::CONF_OK);
  BOOST_REQUIRE(conf->set("dr_cb", &reports, err) == RdKafka::Conf::CONF_OK);
  std::unique_ptr<RdKafka::Producer> producer{RdKafka::Producer::create(conf.get(), err)};
  BOOST_REQUIRE_MESSAGE(producer, err);

  std::atomic<bool> stop{false};
  long hostile_bytes = 0;
  std::thread hostile{[&] { pipeline_without_reading(server.kafka_port(), stop, hostile_bytes); }};
  long rss_peak = rss_before;
  int listings = 0;
  auto until = clock_type::now() + std::chrono::seconds(seconds);
  while (clock_type::now() < until) {
    for (int i = 0; i < 100; ++i) {
      std::string value = "steady-" + std::to_string(i);
      producer->produce("steady", 0, RdKafka::Producer::RK_MSG_COPY, value.data(), value.size(), nullptr, 0, 0,
                        nullptr);
      producer->poll(10);
    }
    auto listed = kcat_list();
    BOOST_REQUIRE_MESSAGE(listed.code == 0, "kcat -L while the hostile client runs: " << show(listed));
    ++listings;
    rss_peak = std::max(rss_peak, resident_kib(server.pid()));
  }
  stop = true;
  hostile.join();
  producer->flush(30000);
  BOOST_TEST_MESSAGE("hostile client sent " << hostile_bytes << " bytes; " << listings << " kcat -L runs; "
                                            << reports.ok << " records delivered; RSS " << rss_before << " KiB -> peak "
                                            << rss_peak << " KiB");
  BOOST_TEST(reports.failed == 0, "failed deliveries: " << reports.failed << " (" << reports.first_error << ")");
  BOOST_TEST(producer->outq_len() == 0);
  BOOST_TEST(rss_peak - rss_before < 128 * 1024, "resident memory grew by " << (rss_peak - rss_before) << " KiB");
  BOOST_TEST(kcat_list().code == 0); // after it has gone
  producer.reset();
  BOOST_TEST(resident_kib(server.pid()) - rss_before < 128 * 1024);
}

// librdkafka pipelines up to a million requests per connection by default: with 16 KiB
// records each is a 1 MB batch, so the listener stops and resumes reading this connection
// all the time. It must always resume (CAF 0.17 dropped a resume that came within the same
// multiplexer round as the stop, and the producer stalled after a few hundred records).
BOOST_AUTO_TEST_CASE(a_pipelining_producer_of_large_batches_is_always_read_again) {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path};
  auto perf = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-perf", "--bootstrap-server", server.bootstrap(),
                                "--phases", "produce,consume", "--topic", "large", "--records", "20000",
                                "--record-size", "16384", "--timeout-ms", "60000"},
                               "", 300s);
  BOOST_TEST_MESSAGE(perf.out);
  BOOST_TEST(perf.code == 0, show(perf));
  BOOST_TEST(perf.out.find("20000 records of 16384 B") != std::string::npos, perf.out);
  BOOST_TEST(perf.out.find(" 0 delivery errors") != std::string::npos, perf.out);
  BOOST_TEST(perf.out.find("0 missing") != std::string::npos, perf.out);
}

// max.connections.per.ip refuses the connection beyond the limit at once and admits again
// when one closes; connections.max.idle.ms closes a connection that stays silent.
BOOST_AUTO_TEST_CASE(connection_limits_and_idle_connections_in_a_real_server) {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path, {"max.connections.per.ip=3", "connections.max.idle.ms=2000"}};
  auto api_versions = cafka::test::request_frame(18, 0, 1);
  std::vector<std::unique_ptr<cafka::test::kafka_socket>> open;
  for (int i = 0; i < 3; ++i) {
    open.push_back(std::make_unique<cafka::test::kafka_socket>(server.kafka_port()));
    open.back()->send_frame(api_versions);
    BOOST_REQUIRE_MESSAGE(open.back()->receive_frame(), "connection " << i << " not served");
  }
  cafka::test::kafka_socket fourth{server.kafka_port()};
  BOOST_TEST(fourth.closed_by_peer(), "a 4th connection from 127.0.0.1 was kept");
  BOOST_TEST(server.output().find("too many connections (max.connections.per.ip)") != std::string::npos);
  open.pop_back();
  // The broker notices the close; then a new connection is served (bounded retries).
  bool served = false;
  for (int attempt = 0; attempt < 50 && !served; ++attempt) {
    cafka::test::kafka_socket again{server.kafka_port()};
    again.send_frame(api_versions);
    served = again.receive_frame(1000).has_value();
  }
  BOOST_TEST(served);
  // The two left open have been silent since: closed as idle after 2 s.
  for (auto& s : open)
    BOOST_TEST(s->closed_by_peer(30'000), "an idle connection was not closed");
  auto listed = cafka::test::run({"/usr/bin/kcat", "-b", server.bootstrap(), "-L"}, "", 60s);
  BOOST_TEST(listed.code == 0, show(listed));
}

// max.connections.per.ip changed at run time (a dynamic broker config, as Kafka's
// DynamicConnectionQuota): connections beyond the new limit are refused, open ones stay, and
// the limit holds after a restart from the stored config.
BOOST_AUTO_TEST_CASE(connection_limits_change_at_run_time) {
  cafka::test::scratch_dir dir;
  std::optional<cafka::test::server_process> server{std::in_place, dir.path};
  auto api_versions = cafka::test::request_frame(18, 0, 1);
  std::vector<std::unique_ptr<cafka::test::kafka_socket>> open;
  for (int i = 0; i < 2; ++i) {
    open.push_back(std::make_unique<cafka::test::kafka_socket>(server->kafka_port()));
    open.back()->send_frame(api_versions);
    BOOST_REQUIRE_MESSAGE(open.back()->receive_frame(), "connection " << i << " not served");
  }
  auto set = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-configs", "--bootstrap-server", server->bootstrap(),
                               "--entity-type", "brokers", "--entity-default", "--alter", "--add-config",
                               "max.connections.per.ip=3"},
                              "", 60s);
  BOOST_REQUIRE_MESSAGE(set.code == 0, show(set));
  // The tool's own connection has gone; two are open: one more is admitted, the next refused.
  bool refused = false;
  for (int attempt = 0; attempt < 50 && !refused; ++attempt) {
    cafka::test::kafka_socket third{server->kafka_port()};
    third.send_frame(api_versions);
    BOOST_REQUIRE(third.receive_frame(5000));
    cafka::test::kafka_socket fourth{server->kafka_port()};
    refused = fourth.closed_by_peer(5000);
  }
  BOOST_TEST(refused, "a 4th connection was kept with max.connections.per.ip=3");
  for (auto& s : open) { // the open ones were kept
    s->send_frame(api_versions);
    BOOST_TEST(s->receive_frame(5000).has_value());
  }
  open.clear();
  server->kill_hard();
  server.emplace(dir.path);
  for (int i = 0; i < 3; ++i) {
    open.push_back(std::make_unique<cafka::test::kafka_socket>(server->kafka_port()));
    open.back()->send_frame(api_versions);
    BOOST_REQUIRE_MESSAGE(open.back()->receive_frame(), "connection " << i << " not served after the restart");
  }
  cafka::test::kafka_socket fourth{server->kafka_port()};
  BOOST_TEST(fourth.closed_by_peer(), "the stored limit did not hold after a restart");
}

BOOST_AUTO_TEST_SUITE_END()
