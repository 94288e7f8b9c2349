#include "tests/integration/kafka_endpoint.hpp"

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "tests/integration/child_process.hpp"

namespace cafka::test {

namespace {

bool mock_requested() {
  auto* v = std::getenv("CAFKA_IT_KAFKA_MOCK");
  return v != nullptr && std::string_view{v} == "1";
}

} // namespace

kafka_endpoint::kafka_endpoint() {
  if (!mock_requested()) {
    server_ = std::make_unique<server_process>(dir_.path + "/logs");
    if (server_->kafka_port() == 0)
      throw std::runtime_error("cafka-server names no Kafka listener (\"kafka HOST:PORT\") in its listening line: "
                               + server_->output());
    bootstrap_ = server_->bootstrap();
    broker_id_ = 0;
    return;
  }
  // The mock cluster needs a client instance for its bookkeeping; it runs on its own
  // thread and serves real TCP connections, so child processes (kcat, python) reach it.
  char err[512];
  auto* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "4", err, sizeof(err)); // not the notice about its missing bootstrap.servers
  mock_handle_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
  if (mock_handle_ == nullptr) {
    rd_kafka_conf_destroy(conf); // still ours when rd_kafka_new fails
    throw std::runtime_error(std::string{"rd_kafka_new: "} + err);
  }
  mock_ = rd_kafka_mock_cluster_new(mock_handle_, 1);
  if (mock_ == nullptr) {
    rd_kafka_destroy(mock_handle_);
    throw std::runtime_error("rd_kafka_mock_cluster_new failed");
  }
  bootstrap_ = rd_kafka_mock_cluster_bootstraps(mock_);
  broker_id_ = 1; // mock broker ids start at 1
}

kafka_endpoint::~kafka_endpoint() {
  if (mock_ != nullptr)
    rd_kafka_mock_cluster_destroy(mock_); // before its handle, as librdkafka requires
  if (mock_handle_ != nullptr)
    rd_kafka_destroy(mock_handle_);
}

void kafka_endpoint::create_topic(const std::string& name, int32_t partitions) {
  if (mock_ != nullptr) {
    auto e = rd_kafka_mock_topic_create(mock_, name.c_str(), partitions, 1);
    if (e != RD_KAFKA_RESP_ERR_NO_ERROR)
      throw std::runtime_error("mock topic " + name + ": " + rd_kafka_err2name(e));
    return;
  }
  auto created = run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server",
                      "127.0.0.1:" + std::to_string(server_->kafka_port()), "--create", "--topic", name,
                      "--partitions", std::to_string(partitions)},
                     "", std::chrono::seconds(60));
  if (created.code != 0)
    throw std::runtime_error("cafka-topics --create " + name + " exited " + std::to_string(created.code) + ": "
                             + created.err);
}

} // namespace cafka::test
