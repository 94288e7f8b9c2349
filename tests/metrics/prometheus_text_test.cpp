// The metrics endpoint's pure parts: counters, the text format, HTTP parsing, /proc parsing
// and the whole exposition's names and values.

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "metrics/broker_report.hpp"
#include "metrics/http_request.hpp"
#include "metrics/prometheus_text.hpp"

using namespace cafka::metrics;

namespace {

// Checks the exposition's syntax as Prometheus reads it: every sample's family declared
// once (HELP then TYPE) before its samples, the samples of a family together, a histogram's
// +Inf bucket equal to its count; returns sample lines by "name{labels}".
std::map<std::string, std::string> parse_exposition(const std::string& text) {
  std::map<std::string, std::string> samples;
  std::set<std::string> declared;
  std::string current;
  std::istringstream in(text);
  std::string line;
  BOOST_REQUIRE(!text.empty() && text.back() == '\n');
  while (std::getline(in, line)) {
    if (line.rfind("# HELP ", 0) == 0) {
      auto name = line.substr(7, line.find(' ', 7) - 7);
      BOOST_CHECK_MESSAGE(declared.insert(name).second, "family declared twice: " << name);
      current = name;
      continue;
    }
    if (line.rfind("# TYPE ", 0) == 0) {
      BOOST_CHECK_EQUAL(line.substr(7, line.find(' ', 7) - 7), current);
      continue;
    }
    auto key_end = line.rfind(' ');
    BOOST_REQUIRE(key_end != std::string::npos);
    auto key = line.substr(0, key_end);
    auto name = key.substr(0, key.find('{'));
    bool belongs = name == current;
    for (auto suffix : {"_bucket", "_sum", "_count"})
      belongs = belongs || name == current + suffix;
    BOOST_CHECK_MESSAGE(belongs, "sample outside its family: " << line);
    BOOST_CHECK_MESSAGE(samples.emplace(key, line.substr(key_end + 1)).second, "sample twice: " << key);
  }
  return samples;
}

broker_gauges two_partitions() {
  broker_gauges g;
  g.broker_id = 1;
  g.cluster = {true, 3, 1, 2, 1};
  partition_gauges led{"orders", 0, true, 1, 3, 2, 4096, 10, 110, 100, 2};
  partition_gauges followed{"orders", 1, false, 2, 3, 3, 2048, 0, 50, 50, 1};
  g.partitions = {led, followed};
  group_gauges grp;
  grp.group = "billing";
  grp.state = "Stable";
  grp.members = 2;
  grp.committed = {{"orders", 0, 60}, {"orders", 1, 50}, {"elsewhere", 0, 7}};
  g.groups = {grp};
  return g;
}

} // namespace

BOOST_AUTO_TEST_SUITE(metrics_text)

BOOST_AUTO_TEST_CASE(values_and_labels_are_written_as_prometheus_reads_them) {
  BOOST_CHECK_EQUAL(format_value(3), "3");
  BOOST_CHECK_EQUAL(format_value(0.25), "0.25");
  BOOST_CHECK_EQUAL(format_value(std::numeric_limits<double>::infinity()), "+Inf");
  BOOST_CHECK_EQUAL(format_value(std::nan("")), "NaN");
  BOOST_CHECK_EQUAL(escape_label("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  exposition out;
  out.family("x_total", "Things\ncounted", "counter");
  out.sample("x_total", {{"topic", "t\"1"}}, uint64_t{5});
  BOOST_CHECK_EQUAL(out.text(), "# HELP x_total Things\\ncounted\n# TYPE x_total counter\nx_total{topic=\"t\\\"1\"} 5\n");
}

BOOST_AUTO_TEST_CASE(a_histogram_is_cumulative_and_its_inf_bucket_is_its_count) {
  latency_histogram h;
  for (double ms : {0.2, 0.7, 3.0, 3.0, 40000.0})
    h.observe(ms);
  auto v = h.read();
  BOOST_CHECK_EQUAL(v.count, 5u);
  BOOST_CHECK_CLOSE(v.sum_ms, 40006.9, 1e-6);
  exposition out;
  out.family("lat_seconds", "Latency", "histogram");
  out.histogram("lat_seconds", {{"request", "Produce"}}, v, 1e-3);
  auto samples = parse_exposition(out.text());
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_bucket{request=\"Produce\",le=\"0.0005\"}"), "1");
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_bucket{request=\"Produce\",le=\"0.001\"}"), "2");
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_bucket{request=\"Produce\",le=\"0.005\"}"), "4");
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_bucket{request=\"Produce\",le=\"30\"}"), "4");
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_bucket{request=\"Produce\",le=\"+Inf\"}"), "5");
  BOOST_CHECK_EQUAL(samples.at("lat_seconds_count{request=\"Produce\"}"), "5");
  // Quantiles as histogram_quantile(): linear inside the bucket.
  BOOST_CHECK_CLOSE(estimate_quantile(v, 0.5), 2.5 + 2.5 * (2.5 - 2) / 2, 1e-9);
  BOOST_CHECK_EQUAL(estimate_quantile(v, 0.99), latency_bounds_ms.back());
  BOOST_CHECK_EQUAL(estimate_quantile(histogram_values{}, 0.5), 0);
}

BOOST_AUTO_TEST_CASE(the_exposition_has_kafkas_names_and_the_lag_of_local_partitions) {
  broker_metrics m;
  m.record_request(0, 9, 1.5);
  m.record_request(0, 9, 2.5);
  m.record_request(1, 13, 100);
  m.record_error(0, 6);
  m.record_error(0, -1);
  auto& orders = m.topic("orders");
  orders.messages_in += 7;
  orders.bytes_in += 700;
  m.all_topics().messages_in += 7;
  m.listener("PLAINTEXT").created += 3;
  m.listener("PLAINTEXT").closed += 1;
  m.isr_shrinks += 2;
  process_stats p;
  p.resident_bytes = 1 << 20;
  auto s = parse_exposition(render_metrics(m.read(), two_partitions(), p));
  BOOST_CHECK_EQUAL(s.at("kafka_server_brokertopicmetrics_messagesin_total"), "7");
  BOOST_CHECK_EQUAL(s.at("kafka_server_brokertopicmetrics_messagesin_total{topic=\"orders\"}"), "7");
  BOOST_CHECK_EQUAL(s.at("kafka_server_brokertopicmetrics_bytesin_total{topic=\"orders\"}"), "700");
  BOOST_CHECK_EQUAL(s.at("kafka_network_requestmetrics_requests_total{request=\"Produce\",version=\"9\"}"), "2");
  BOOST_CHECK_EQUAL(s.at("kafka_network_requestmetrics_totaltimems_count{request=\"FetchConsumer\"}"), "1");
  BOOST_CHECK_EQUAL(s.at("cafka_request_latency_seconds_count{request=\"Produce\"}"), "2");
  BOOST_CHECK_EQUAL(s.at("kafka_network_requestmetrics_errors_total{request=\"Produce\",error=\"NOT_LEADER_OR_FOLLOWER\"}"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_network_requestmetrics_errors_total{request=\"Produce\",error=\"UNKNOWN_SERVER_ERROR\"}"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_server_replicamanager_partitioncount"), "2");
  BOOST_CHECK_EQUAL(s.at("kafka_server_replicamanager_leadercount"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_server_replicamanager_underreplicatedpartitions"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_server_replicamanager_isrshrinks_total"), "2");
  BOOST_CHECK_EQUAL(s.at("kafka_controller_kafkacontroller_activecontrollercount"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_controller_kafkacontroller_offlinepartitionscount"), "1");
  BOOST_CHECK_EQUAL(s.at("kafka_log_log_size{topic=\"orders\",partition=\"1\"}"), "2048");
  BOOST_CHECK_EQUAL(s.at("kafka_topic_partition_current_offset{topic=\"orders\",partition=\"0\"}"), "100");
  BOOST_CHECK(s.count("kafka_topic_partition_current_offset{topic=\"orders\",partition=\"1\"}") == 0); // led elsewhere
  BOOST_CHECK_EQUAL(s.at("kafka_consumergroup_members{consumergroup=\"billing\"}"), "2");
  BOOST_CHECK_EQUAL(s.at("kafka_consumergroup_lag{consumergroup=\"billing\",topic=\"orders\",partition=\"0\"}"), "40");
  BOOST_CHECK_EQUAL(s.at("kafka_consumergroup_lag{consumergroup=\"billing\",topic=\"orders\",partition=\"1\"}"), "0");
  BOOST_CHECK(s.count("kafka_consumergroup_lag{consumergroup=\"billing\",topic=\"elsewhere\",partition=\"0\"}") == 0);
  BOOST_CHECK_EQUAL(s.at("kafka_consumergroup_lag_sum{consumergroup=\"billing\",topic=\"orders\"}"), "40");
  BOOST_CHECK_EQUAL(s.at("kafka_server_socket_server_metrics_connection_count{listener=\"PLAINTEXT\"}"), "2");
  BOOST_CHECK_EQUAL(s.at("process_resident_memory_bytes"), "1048576");
}

BOOST_AUTO_TEST_CASE(controller_gauges_are_zero_on_other_brokers) {
  auto g = two_partitions();
  g.cluster.active_controller = false;
  auto s = parse_exposition(render_metrics(broker_metrics{}.read(), g, std::nullopt));
  BOOST_CHECK_EQUAL(s.at("kafka_controller_kafkacontroller_activecontrollercount"), "0");
  BOOST_CHECK_EQUAL(s.at("kafka_controller_kafkacontroller_offlinepartitionscount"), "0");
  BOOST_CHECK_EQUAL(s.at("kafka_controller_kafkacontroller_globalpartitioncount"), "0");
  BOOST_CHECK(s.count("process_resident_memory_bytes") == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(metrics_http)

BOOST_AUTO_TEST_CASE(requests_are_read_whole_and_keep_alive_by_default) {
  auto partial = parse_http_request("GET /metrics HTTP/1.1\r\nHost: x\r\n");
  BOOST_CHECK(partial.state == http_request::status::need_more);
  std::string two = "GET /metrics?x=1 HTTP/1.1\r\nHost: x\r\n\r\nHEAD /ready HTTP/1.1\r\nConnection: close\r\n\r\n";
  auto first = parse_http_request(two);
  BOOST_REQUIRE(first.state == http_request::status::complete);
  BOOST_CHECK_EQUAL(first.method, "GET");
  BOOST_CHECK_EQUAL(first.path, "/metrics");
  BOOST_CHECK(first.keep_alive);
  auto second = parse_http_request(std::string_view{two}.substr(first.consumed));
  BOOST_REQUIRE(second.state == http_request::status::complete);
  BOOST_CHECK_EQUAL(second.method, "HEAD");
  BOOST_CHECK_EQUAL(second.path, "/ready");
  BOOST_CHECK(!second.keep_alive);
  BOOST_CHECK(!parse_http_request("GET /health HTTP/1.0\n\n").keep_alive);
}

BOOST_AUTO_TEST_CASE(garbage_and_endless_heads_are_refused) {
  BOOST_CHECK(parse_http_request("\x16\x03\x01 garbage\r\n\r\n").state == http_request::status::bad);
  BOOST_CHECK(parse_http_request("GET metrics HTTP/1.1\r\n\r\n").state == http_request::status::bad);
  BOOST_CHECK(parse_http_request("GET /x HTTP/1.1\r\nno colon here\r\n\r\n").state == http_request::status::bad);
  BOOST_CHECK(parse_http_request(std::string(max_request_head_bytes + 1, 'a')).state == http_request::status::too_large);
  auto r = http_response(200, "text/plain", "ok\n", true, true);
  BOOST_CHECK(r.find("Content-Length: 3\r\n") != std::string::npos);
  BOOST_CHECK(r.size() > 3 && r.substr(r.size() - 4) == "\r\n\r\n"); // HEAD: no body
}

BOOST_AUTO_TEST_CASE(proc_stat_fields_are_read_after_the_command_name) {
  auto f = parse_proc_stat("4242 (cafka (server)) S 1 2 3 4 5 6 7 8 9 10 120 30 0 0 20 0 17 0 5000 123456789 2500 rest");
  BOOST_REQUIRE(f);
  BOOST_CHECK_EQUAL(f->utime, 120u);
  BOOST_CHECK_EQUAL(f->stime, 30u);
  BOOST_CHECK_EQUAL(f->threads, 17u);
  BOOST_CHECK_EQUAL(f->start_ticks, 5000u);
  BOOST_CHECK_EQUAL(f->vsize, 123456789u);
  BOOST_CHECK_EQUAL(f->rss_pages, 2500u);
  BOOST_CHECK(!parse_proc_stat("no parenthesis"));
  auto self = read_process_stats();
  BOOST_REQUIRE(self);
  BOOST_CHECK(self->resident_bytes > 0);
  BOOST_CHECK(self->open_fds > 0);
}

BOOST_AUTO_TEST_SUITE_END()
