#include "apps/rdkafka_handle.hpp"

#include "apps/tool_args.hpp"
#include "protocol/kafka_error.hpp"

#include <string_view>

namespace cafka::tools {

rdkafka_ptr make_rdkafka(rd_kafka_type_t type, const std::map<std::string, std::string>& props,
                         const std::function<void(rd_kafka_conf_t*)>& prepare) {
  char errstr[512];
  auto* conf = rd_kafka_conf_new();
  for (auto& [key, value] : props) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw usage_error("property " + key + ": " + errstr);
    }
  }
  if (prepare)
    prepare(conf);
  rdkafka_ptr rk{rd_kafka_new(type, conf, errstr, sizeof errstr)};
  if (!rk) {
    rd_kafka_conf_destroy(conf);
    throw kafka_failure("INVALID_CONFIG", errstr);
  }
  return rk;
}

std::string error_name(rd_kafka_resp_err_t err) {
  // A broker's error by Kafka's name (librdkafka shortens some: UNKNOWN_TOPIC_OR_PART).
  auto known = protocol::to_string(static_cast<protocol::kafka_error>(err));
  if (err > 0 && (err == RD_KAFKA_RESP_ERR_UNKNOWN || std::string_view{known} != "UNKNOWN_SERVER_ERROR"))
    return known;
  std::string name = rd_kafka_err2name(err);
  return name.empty() || name[0] != '_' ? name : name.substr(1);
}

std::optional<kafka_failure> unreachable(rd_kafka_t* rk, int timeout_ms) {
  const rd_kafka_metadata_t* md = nullptr;
  auto err = rd_kafka_metadata(rk, 0, nullptr, &md, timeout_ms);
  if (md)
    rd_kafka_metadata_destroy(md);
  if (err == RD_KAFKA_RESP_ERR_NO_ERROR)
    return std::nullopt;
  return kafka_failure(error_name(err), "no broker answered in " + std::to_string(timeout_ms) + " ms");
}

} // namespace cafka::tools
