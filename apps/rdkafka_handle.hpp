#pragma once
// A librdkafka handle for cafka's tools: made from properties (a bad one is a bad argument,
// exit 2, naming the key), and checked once against the broker so that a tool facing an
// address where no broker answers says so at once instead of retrying quietly.

#include <librdkafka/rdkafka.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "apps/kafka_admin.hpp"

namespace cafka::tools {

struct rdkafka_destroy {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using rdkafka_ptr = std::unique_ptr<rd_kafka_t, rdkafka_destroy>;

/// A handle of `type` with `props` (librdkafka's names) and whatever `prepare` sets on the
/// conf (callbacks); throws usage_error for a property librdkafka refuses, kafka_failure if
/// the handle cannot be made.
rdkafka_ptr make_rdkafka(rd_kafka_type_t type, const std::map<std::string, std::string>& props,
                         const std::function<void(rd_kafka_conf_t*)>& prepare = {});

/// Kafka's error name of `err` (a broker error as protocol/kafka_error.hpp names it, else
/// librdkafka's name: "TIMED_OUT" for its local "_TIMED_OUT").
std::string error_name(rd_kafka_resp_err_t err);

/// Nothing if a broker answered a Metadata request within `timeout_ms`, else why not.
std::optional<kafka_failure> unreachable(rd_kafka_t* rk, int timeout_ms);

} // namespace cafka::tools
