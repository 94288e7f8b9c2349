#pragma once
// Kafka's JSON files of kafka-reassign-partitions.sh and kafka-delete-records.sh, for
// cafka-reassign-partitions and cafka-delete-records:
//
//   reassignment  {"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],
//                  "log_dirs":["any","any"]}, ...]}      (log_dirs optional; only "any" is taken)
//   topics        {"version":1,"topics":[{"topic":"t"}, ...]}
//   offsets       {"version":1,"partitions":[{"topic":"t","partition":0,"offset":3}, ...]}
//                 (offset -1: up to the high watermark)
//
// Parsed by a small JSON reader (objects, arrays, strings with escapes, integers, true, false,
// null); anything else, a missing field or a wrong type is an error naming what is wrong.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::cluster {

struct partition_target {
  std::string topic;
  int32_t partition = 0;
  std::vector<int32_t> replicas;
};

/// nullopt with `error` set if the text is not such a file.
std::optional<std::vector<partition_target>> parse_reassignment_json(std::string_view text, std::string& error);
std::optional<std::vector<std::string>> parse_topics_json(std::string_view text, std::string& error);

struct records_cutoff {
  std::string topic;
  int32_t partition = 0;
  int64_t offset = 0;
};

std::optional<std::vector<records_cutoff>> parse_offsets_json(std::string_view text, std::string& error);

/// The reassignment file of `targets`, in Kafka's compact form (log_dirs "any").
std::string reassignment_json(const std::vector<partition_target>& targets);

} // namespace cafka::cluster
