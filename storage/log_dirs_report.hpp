#pragma once
// DescribeLogDirs' answer from what a broker holds, without I/O: every log dir in order (an
// offline one with KAFKA_STORAGE_ERROR and nothing listed), and in each the partitions
// asked for (all without a filter) with their size and offset lag (Kafka's: how far the
// log end is below the high watermark, 0 when it is not; there are no future logs, as cafka
// does not move partitions between log dirs).

#include <cstdint>
#include <string>
#include <vector>

#include "protocol/wire/describe_log_dirs.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::storage {

struct log_dir_state {
  std::string root;
  bool offline = false;
};

struct replica_on_disk {
  size_t dir = 0; ///< index into the log dirs
  topic_partition tp;
  int64_t size_bytes = 0;
  int64_t log_end_offset = 0;
  int64_t high_watermark = 0;
};

wire::describe_log_dirs_response log_dirs_report(const std::vector<log_dir_state>& dirs,
                                                 const std::vector<replica_on_disk>& replicas,
                                                 const wire::describe_log_dirs_request& req);

} // namespace cafka::storage
