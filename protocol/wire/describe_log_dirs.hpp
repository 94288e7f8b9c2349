#pragma once
// DescribeLogDirs (key 35), v0-v1 (v2 is the first flexible version; v1 changes nothing on
// the wire). KIP-113: each log dir of the broker asked and the partitions in it.
//
//   request:  topics:NULLABLE [topic:STRING partitions:[i32]]   (null: every partition)
//   response: throttle_time_ms:i32 results:[error_code:i16 log_dir:STRING
//             topics:[name:STRING partitions:[partition_index:i32 partition_size:i64
//             offset_lag:i64 is_future_key:BOOL]]]
//
// error_code 56 (KAFKA_STORAGE_ERROR) marks an offline log dir (no topics listed).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct log_dirs_topic {
  std::string topic;
  std::vector<int32_t> partitions;
};

struct describe_log_dirs_request {
  std::optional<std::vector<log_dirs_topic>> topics; ///< nullopt: every partition
};

struct log_dir_partition {
  int32_t partition_index = 0;
  int64_t partition_size = 0;
  int64_t offset_lag = 0;
  bool is_future_key = false;
};

struct log_dir_topic {
  std::string name;
  std::vector<log_dir_partition> partitions;
};

struct log_dir_result {
  int16_t error_code = 0;
  std::string log_dir;
  std::vector<log_dir_topic> topics;
};

struct describe_log_dirs_response {
  int32_t throttle_time_ms = 0;
  std::vector<log_dir_result> results;
};

result<describe_log_dirs_request> decode_describe_log_dirs_request(bytes_view body, int16_t version);
void encode_describe_log_dirs_response(const describe_log_dirs_response& resp, int16_t version, byte_writer& w);

} // namespace cafka::wire
