#pragma once
// The bytes of each cafka znode, in the kv text format of cluster/kv_text.hpp (version=1 first,
// one key=value per line). Encoders are total; decoders check everything and return
// errc::malformed_data for any input that is not a valid encoding, never crash, and ignore
// unknown keys. Field by field:
//
// broker registration      controller             controller epoch
//   version=1                version=1              version=1
//   id=1                     broker_id=1            epoch=5
//   host=broker-1            epoch=5
//   kafka_port=9092
//   caf_port=9192
//   rack=r1                  (rack may be absent: no rack)
//
// topic assignment         partition state        topic config
//   version=1                version=1              version=1
//   partition.0=1,2,3        leader=1               config.retention.ms=86400000
//   partition.1=2,3,1        leader_epoch=3         config.cleanup.policy=compact
//                            controller_epoch=5
//                            isr=1,2,3
//
// Checks: ids >= 0 (leader >= -1), epochs >= 0, ports 0..65535; a topic assignment has
// partitions 0..n-1 each exactly once (n >= 1), each with a non-empty list of distinct
// replicas; ISR members are distinct (the ISR may be empty); config keys are percent-encoded
// after "config." (cluster/percent_encoding.hpp), values are any bytes.

#include <cstdint>
#include <string>
#include <string_view>

#include "cluster/metadata.hpp"
#include "protocol/result.hpp"

namespace cafka::cluster {

std::string encode(const broker_registration& b);
std::string encode(const controller_info& c);
std::string encode(const topic_assignment& t);
std::string encode(const partition_state& p);
std::string encode(const topic_config& c);
std::string encode_controller_epoch(int32_t epoch);

result<broker_registration> decode_broker_registration(std::string_view text);
result<controller_info> decode_controller_info(std::string_view text);
result<topic_assignment> decode_topic_assignment(std::string_view text);
result<partition_state> decode_partition_state(std::string_view text);
result<topic_config> decode_topic_config(std::string_view text);
result<int32_t> decode_controller_epoch(std::string_view text);

} // namespace cafka::cluster
