#pragma once
// The broker the real-client tests (kcat, librdkafka, kafka-python) talk to: a
// cafka-server process with a Kafka listener on a free port. With the environment
// variable CAFKA_IT_KAFKA_MOCK=1 it is librdkafka's in-process mock cluster instead, a
// reference broker that checks the tests' own logic without cafka.

#include <cstdint>
#include <memory>
#include <string>

#include "tests/integration/server_process.hpp"

struct rd_kafka_s;
struct rd_kafka_mock_cluster_s;

namespace cafka::test {

class kafka_endpoint {
public:
  /// Starts the broker; throws if it does not come up or offers no Kafka listener.
  kafka_endpoint();
  ~kafka_endpoint();
  kafka_endpoint(const kafka_endpoint&) = delete;
  kafka_endpoint& operator=(const kafka_endpoint&) = delete;

  /// "host:port" for a client's bootstrap servers.
  const std::string& bootstrap() const noexcept { return bootstrap_; }
  /// The id Metadata reports for the (only) broker: 0 for cafka, 1 for the mock.
  int32_t broker_id() const noexcept { return broker_id_; }
  bool is_mock() const noexcept { return mock_ != nullptr; }

  /// Creates `name` with `partitions` partitions by a path independent of the Kafka
  /// listener (cafka-topics over CAF, or the mock's own API), so a failing CreateTopics
  /// does not hide a working produce/fetch; throws on failure.
  void create_topic(const std::string& name, int32_t partitions);

private:
  scratch_dir dir_;
  std::unique_ptr<server_process> server_;
  rd_kafka_s* mock_handle_ = nullptr;
  rd_kafka_mock_cluster_s* mock_ = nullptr;
  std::string bootstrap_;
  int32_t broker_id_ = 0;
};

} // namespace cafka::test
