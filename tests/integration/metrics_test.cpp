// The metrics endpoint of a cafka-server process, scraped with curl: while kcat produces, every
// scrape answers and the counters only grow; afterwards messages in and the partitions' log end
// offsets equal what kcat produced, a kafka-python group's lag is 0 after its commit and grows
// by what is produced after; /health, /ready, HEAD, 404 and 405; garbage and an oversized head
// close only their own connection. Nothing is timed.
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <map>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";
const std::string curl_bin = "/usr/bin/curl";
const std::string python_bin = "/usr/bin/python3";
const std::string commit_script = CAFKA_SOURCE_DIR "/tests/integration/kafka_python_commit.py";
const std::string topics_bin = CAFKA_BINARY_DIR "/bin/cafka-topics";

using labels = std::map<std::string, std::string>;

// The sum of the samples of `name` whose labels include `want` ("name{a="x",b="y"} value" lines).
double sample_sum(const std::string& text, const std::string& name, const labels& want = {}) {
  double sum = 0;
  for (auto& line : cafka::test::lines(text)) {
    if (line.empty() || line[0] == '#' || line.compare(0, name.size(), name) != 0)
      continue;
    auto rest = line.substr(name.size());
    labels have;
    if (!rest.empty() && rest[0] == '{') {
      auto close = rest.find('}');
      if (close == std::string::npos)
        continue;
      auto inner = rest.substr(1, close - 1);
      for (size_t at = 0; at < inner.size();) {
        auto eq = inner.find("=\"", at);
        auto end = inner.find('"', eq + 2);
        if (eq == std::string::npos || end == std::string::npos)
          break;
        have[inner.substr(at, eq - at)] = inner.substr(eq + 2, end - eq - 2);
        at = end + 2; // past '",'
      }
      rest = rest.substr(close + 1);
    }
    if (rest.empty() || rest[0] != ' ')
      continue; // another metric whose name starts with `name`
    bool match = true;
    for (auto& [k, v] : want)
      match = match && have.count(k) && have[k] == v;
    if (match)
      sum += std::stod(rest.substr(1));
  }
  return sum;
}

bool has_sample(const std::string& text, const std::string& name) {
  for (auto& line : cafka::test::lines(text))
    if (line.compare(0, name.size(), name) == 0 && line.size() > name.size()
        && (line[name.size()] == '{' || line[name.size()] == ' '))
      return true;
  return false;
}

// Sends `bytes` to 127.0.0.1:`port` and reads until the endpoint closes: what it answered, or
// nullopt when it did not close within 10 s.
std::optional<std::string> send_and_read_to_close(uint16_t port, const std::string& bytes) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    if (fd >= 0)
      ::close(fd);
    return std::nullopt;
  }
  ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  std::string got;
  auto deadline = std::chrono::steady_clock::now() + 10s;
  std::optional<std::string> out;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 1000) <= 0)
      continue;
    char buf[4096];
    auto n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) { // closed (or reset after the answer)
      out = got;
      break;
    }
    got.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

// A connection that stays open and silent.
struct idle_connection {
  explicit idle_connection(uint16_t port) : fd(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    BOOST_REQUIRE(fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  }
  ~idle_connection() { ::close(fd); }
  int fd;
};

struct fixture {
  cafka::test::scratch_dir dir;
  cafka::test::server_process server{dir.path + "/logs"};
  std::string base = "http://127.0.0.1:" + std::to_string(server.metrics_port());

  // curl's status line and body: "-w" appends the status after the body.
  struct http_answer {
    int status = 0;
    std::string body;
  };
  http_answer http(const std::string& path, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{curl_bin, "-s", "-m", "30", "-o", "-", "-w", "\n%{http_code}"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(base + path);
    auto r = cafka::test::run(args, "", 60s);
    BOOST_REQUIRE_MESSAGE(r.code == 0, "curl " << path << " exited " << r.code << ": " << r.err);
    auto nl = r.out.rfind('\n');
    return {std::stoi(r.out.substr(nl + 1)), r.out.substr(0, nl)};
  }
  std::string scrape() {
    auto a = http("/metrics");
    BOOST_REQUIRE_EQUAL(a.status, 200);
    return a.body;
  }
  void produce(const std::string& topic, int from, int to) {
    std::string input;
    for (int i = from; i < to; ++i)
      input += "key-" + std::to_string(i % 17) + ":value-" + std::to_string(i) + "\n";
    auto r = cafka::test::run({kcat_bin, "-b", server.bootstrap(), "-P", "-t", topic, "-K:"}, input, 120s);
    BOOST_REQUIRE_MESSAGE(r.code == 0, "kcat -P: " << r.err);
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(metrics_endpoint, fixture)

BOOST_AUTO_TEST_CASE(counters_match_what_was_produced_and_consumed) {
  BOOST_REQUIRE_NE(server.metrics_port(), 0);
  const std::string topic = "metered";
  auto created = cafka::test::run({topics_bin, "--bootstrap-server", server.bootstrap(), "--create", "--topic", topic,
                                   "--partitions", "3"});
  BOOST_REQUIRE_MESSAGE(created.code == 0, created.err);
  const labels of_topic{{"topic", topic}};

  // Load: kcat produces in the background while the endpoint is scraped.
  constexpr int produced = 30'000;
  std::string input;
  for (int i = 0; i < produced; ++i)
    input += "key-" + std::to_string(i % 17) + ":value-" + std::to_string(i) + "-" + std::string(i % 29, 'x') + "\n";
  cafka::test::child kcat({kcat_bin, "-b", server.bootstrap(), "-P", "-t", topic, "-K:", "-X", "linger.ms=5"}, input);
  double last_in = 0;
  int scrapes = 0;
  for (; scrapes < 200 && kcat.running(); ++scrapes) {
    auto text = scrape();
    auto in = sample_sum(text, "kafka_server_brokertopicmetrics_messagesin_total", of_topic);
    BOOST_TEST(in >= last_in); // counters never go back
    last_in = in;
  }
  auto done = kcat.wait(120s);
  BOOST_REQUIRE_MESSAGE(done.code == 0, "kcat -P: " << done.err);
  BOOST_TEST(scrapes > 0);

  auto text = scrape();
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_messagesin_total", of_topic) == produced);
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_messagesin_total", {}) >= produced);
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_bytesin_total", of_topic) > produced * 10.0);
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_failedproducerequests_total", of_topic) == 0);
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_totalproducerequests_total", of_topic) > 0);
  BOOST_TEST(sample_sum(text, "kafka_network_requestmetrics_requests_total", {{"request", "Produce"}}) > 0);
  BOOST_TEST(sample_sum(text, "kafka_network_requestmetrics_requests_total", {{"request", "Metadata"}}) > 0);
  BOOST_TEST(sample_sum(text, "cafka_request_latency_seconds_count", {{"request", "Produce"}})
             == sample_sum(text, "kafka_network_requestmetrics_requests_total", {{"request", "Produce"}}));
  BOOST_TEST(sample_sum(text, "kafka_log_log_logendoffset", of_topic) == produced);
  BOOST_TEST(sample_sum(text, "kafka_topic_partition_current_offset", of_topic) == produced);
  BOOST_TEST(sample_sum(text, "kafka_log_log_size", of_topic) > 0);
  BOOST_TEST(sample_sum(text, "kafka_log_log_numlogsegments", of_topic) >= 3);
  BOOST_TEST(sample_sum(text, "kafka_server_replicamanager_partitioncount") >= 3);
  BOOST_TEST(sample_sum(text, "kafka_server_replicamanager_leadercount") >= 3);
  BOOST_TEST(sample_sum(text, "kafka_server_replicamanager_underreplicatedpartitions") == 0);
  BOOST_TEST(sample_sum(text, "kafka_controller_kafkacontroller_activecontrollercount") == 1);
  BOOST_TEST(sample_sum(text, "kafka_controller_kafkacontroller_offlinepartitionscount") == 0);
  BOOST_TEST(sample_sum(text, "kafka_server_socket_server_metrics_connection_creation_total") > 0);
  BOOST_TEST(sample_sum(text, "process_resident_memory_bytes") > 0);
  BOOST_TEST(has_sample(text, "process_cpu_seconds_total"));

  // A kafka-python group reads everything and commits: its lag is then 0.
  const std::string group = "metered-readers";
  auto consumed = cafka::test::run({python_bin, commit_script, "consume", "--bootstrap", server.bootstrap(), "--topic",
                                    topic, "--group", group, "--count", std::to_string(produced)},
                                   "", 240s);
  BOOST_REQUIRE_MESSAGE(consumed.code == 0, "kafka_python_commit.py: " << consumed.err);
  text = scrape();
  const labels of_group{{"consumergroup", group}, {"topic", topic}};
  BOOST_TEST(sample_sum(text, "cafka_server_brokertopicmetrics_messagesout_total", of_topic) >= produced);
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_bytesout_total", of_topic) > produced * 10.0);
  BOOST_TEST(sample_sum(text, "kafka_network_requestmetrics_requests_total", {{"request", "Fetch"}}) > 0);
  BOOST_TEST(sample_sum(text, "kafka_consumergroup_current_offset", of_group) == produced);
  BOOST_TEST(has_sample(text, "kafka_consumergroup_lag_sum"), text);
  BOOST_TEST(sample_sum(text, "kafka_consumergroup_lag_sum", of_group) == 0);
  BOOST_TEST(sample_sum(text, "kafka_consumergroup_lag", of_group) == 0);

  // What is produced after the commit is the group's lag.
  produce(topic, produced, produced + 100);
  text = scrape();
  BOOST_TEST(sample_sum(text, "kafka_server_brokertopicmetrics_messagesin_total", of_topic) == produced + 100);
  BOOST_TEST(sample_sum(text, "kafka_consumergroup_lag_sum", of_group) == 100);
  BOOST_TEST(sample_sum(text, "kafka_consumergroup_lag", of_group) == 100);
}

BOOST_AUTO_TEST_CASE(health_ready_and_http_errors) {
  auto health = http("/health");
  BOOST_TEST(health.status == 200);
  BOOST_TEST(health.body == "ok\n");
  auto ready = http("/ready");
  BOOST_TEST(ready.status == 200);
  BOOST_TEST(ready.body == "ready\n");
  auto head = http("/metrics", {"-I"});
  BOOST_TEST(head.status == 200);
  BOOST_TEST(head.body.find("text/plain; version=0.0.4") != std::string::npos, head.body);
  BOOST_TEST(head.body.find("kafka_server") == std::string::npos); // headers only
  BOOST_TEST(http("/nothing-here").status == 404);
  BOOST_TEST(http("/metrics", {"-X", "POST", "-d", "x=1"}).status == 405);
}

BOOST_AUTO_TEST_CASE(garbage_and_oversized_heads_close_only_their_connection) {
  idle_connection idle{server.metrics_port()}; // connected, never sends a byte
  auto garbage = send_and_read_to_close(server.metrics_port(), std::string("\x00\x01\xff GET\r\n\r\n", 11));
  BOOST_REQUIRE(garbage);
  BOOST_TEST(garbage->rfind("HTTP/1.1 400 ", 0) == 0, *garbage);
  auto huge = send_and_read_to_close(server.metrics_port(), "GET /metrics HTTP/1.1\r\nX-Long: " + std::string(20'000, 'A'));
  BOOST_REQUIRE(huge);
  BOOST_TEST(huge->rfind("HTTP/1.1 431 ", 0) == 0, *huge);
  // The endpoint and the Kafka listener still serve.
  BOOST_TEST(http("/health").status == 200);
  BOOST_TEST(sample_sum(scrape(), "kafka_controller_kafkacontroller_activecontrollercount") == 1);
  auto listed = cafka::test::run({kcat_bin, "-b", server.bootstrap(), "-L"}, "", 60s);
  BOOST_TEST(listed.code == 0, listed.err);
}

BOOST_AUTO_TEST_SUITE_END()
