#include "storage/log_dirs_report.hpp"

#include <algorithm>
#include <map>

namespace cafka::storage {

namespace {

constexpr int16_t kafka_storage_error = 56;

bool asked(const wire::describe_log_dirs_request& req, const topic_partition& tp) {
  if (!req.topics)
    return true;
  return std::any_of(req.topics->begin(), req.topics->end(), [&](const wire::log_dirs_topic& t) {
    return t.topic == tp.topic && std::find(t.partitions.begin(), t.partitions.end(), tp.partition) != t.partitions.end();
  });
}

} // namespace

wire::describe_log_dirs_response log_dirs_report(const std::vector<log_dir_state>& dirs,
                                                 const std::vector<replica_on_disk>& replicas,
                                                 const wire::describe_log_dirs_request& req) {
  // dir -> topic -> partitions, sorted by name and partition.
  std::vector<std::map<std::string, std::vector<wire::log_dir_partition>>> found(dirs.size());
  auto sorted = replicas;
  std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.tp < b.tp; });
  for (auto& r : sorted)
    if (r.dir < dirs.size() && asked(req, r.tp))
      found[r.dir][r.tp.topic].push_back(
        {r.tp.partition, r.size_bytes, std::max<int64_t>(0, r.high_watermark - r.log_end_offset), false});
  wire::describe_log_dirs_response resp;
  for (size_t i = 0; i < dirs.size(); ++i) {
    wire::log_dir_result d;
    d.log_dir = dirs[i].root;
    if (dirs[i].offline)
      d.error_code = kafka_storage_error;
    else
      for (auto& [name, partitions] : found[i])
        d.topics.push_back({name, partitions});
    resp.results.push_back(std::move(d));
  }
  return resp;
}

} // namespace cafka::storage
