#include "actors/offset_log_store.hpp"

#include <utility>

#include "actors/log_line.hpp"
#include "cluster/offset_records.hpp"

namespace cafka {

namespace {

// How much of the log one replay step reads.
constexpr size_t replay_read_bytes = 1 << 20;

cluster::offset_update to_update(const std::string& group, const group_offset& o, int64_t now_ms) {
  cluster::committed_offset value;
  value.offset = o.offset;
  value.leader_epoch = o.leader_epoch;
  value.metadata = o.metadata;
  value.commit_timestamp_ms = now_ms;
  return cluster::offset_update{cluster::offset_key{group, o.tp.topic, o.tp.partition}, std::move(value)};
}

group_offset to_group_offset(const std::string& topic, int32_t partition, const cluster::committed_offset& c) {
  return group_offset{storage::topic_partition{topic, partition}, c.offset, c.leader_epoch, c.metadata};
}

} // namespace

result<std::shared_ptr<offset_log_store>> offset_log_store::open(const storage::log_directory& dir,
                                                                 storage::log_config cfg, int64_t now_ms,
                                                                 blocking_runner run_blocking) {
  // Committed offsets leave the log only as tombstones (expiry), never by log retention.
  cfg.retention_ms = -1;
  cfg.retention_bytes = -1;
  auto log = dir.open_log(partition(), cfg, now_ms);
  if (!log)
    return log.error();
  std::shared_ptr<offset_log_store> store{new offset_log_store(std::move(*log), std::move(run_blocking))};
  if (auto st = store->replay(); !st)
    return st.error();
  return store;
}

status offset_log_store::replay() {
  std::lock_guard<std::mutex> guard{mutex_};
  auto offset = log_->log_start_offset();
  while (offset < log_->log_end_offset()) {
    auto bytes = log_->read(offset, replay_read_bytes);
    if (!bytes)
      return bytes.error();
    if (bytes->empty())
      break;
    auto decoded = cluster::decode_offset_batches(protocol::bytes_view{bytes->data(), bytes->size()});
    if (!decoded)
      return decoded.error();
    table_.apply(decoded->updates);
    if (decoded->next_offset <= offset) // no progress: never loop forever
      break;
    offset = decoded->next_offset;
  }
  return {};
}

protocol::kafka_error offset_log_store::commit(const std::string& group, const std::vector<group_offset>& offsets,
                                               int64_t now_ms) {
  std::vector<cluster::offset_update> updates;
  updates.reserve(offsets.size());
  for (auto& o : offsets)
    updates.push_back(to_update(group, o, now_ms));
  flush_start flush;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return protocol::kafka_error::coordinator_not_available;
    if (auto st = append_locked(updates, now_ms, flush); !st) {
      log_line("__consumer_offsets: commit of group %s failed: %s", group.c_str(), st.error().message().c_str());
      return protocol::kafka_error::unknown_server_error;
    }
  }
  start_flush(std::move(flush));
  return protocol::kafka_error::none;
}

std::vector<group_offset> offset_log_store::fetch(const std::string& group, const group_offset_query& query) const {
  std::lock_guard<std::mutex> guard{mutex_};
  std::vector<group_offset> out;
  if (query.all) {
    for (auto& p : table_.group_offsets(group))
      out.push_back(to_group_offset(p.topic, p.partition, p.committed));
    return out;
  }
  for (auto& tp : query.partitions)
    if (auto* c = table_.find(cluster::offset_key{group, tp.topic, tp.partition}))
      out.push_back(to_group_offset(tp.topic, tp.partition, *c));
  return out;
}

std::vector<std::string> offset_log_store::groups() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return table_.groups();
}

result<size_t> offset_log_store::expire(int64_t now_ms, int64_t retention_ms,
                                        const cluster::group_expiry_probe& probe) {
  flush_start flush;
  size_t expired = 0;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return size_t{0};
    auto tombstones = table_.expired(now_ms, retention_ms, probe);
    if (tombstones.empty())
      return size_t{0};
    if (auto st = append_locked(tombstones, now_ms, flush); !st)
      return st.error();
    expired = tombstones.size();
  }
  start_flush(std::move(flush));
  return expired;
}

size_t offset_log_store::log_records() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return table_.log_records();
}

size_t offset_log_store::size() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return table_.size();
}

status offset_log_store::append_locked(const std::vector<cluster::offset_update>& updates, int64_t now_ms,
                                       flush_start& flush) {
  auto max_batch = static_cast<size_t>(log_->config().max_message_bytes);
  auto batches = cluster::encode_offset_batches(updates, now_ms, max_batch);
  if (batches.empty())
    return {};
  auto appended = log_->append(batches, now_ms);
  if (!appended)
    return appended.error();
  table_.apply(updates); // only once the records are in the log
  flush = prepare_flush_locked(now_ms);
  return {};
}

// As partition_actor's flush: prepared under the mutex, the fsync on the I/O worker, then
// completed under the mutex again.
offset_log_store::flush_start offset_log_store::prepare_flush_locked(int64_t now_ms) {
  if (flush_in_flight_ || !run_blocking_ || !log_->flush_due(now_ms))
    return {};
  auto prepared = log_->prepare_flush();
  if (!prepared) {
    log_line("__consumer_offsets: flush failed: %s", prepared.error().message().c_str());
    return {};
  }
  auto job = std::make_shared<storage::flush_job>(std::move(*prepared));
  flush_in_flight_ = true;
  std::weak_ptr<offset_log_store> weak = weak_from_this();
  return [weak, job]() -> std::error_code {
    auto ec = job->run().error();
    if (auto self = weak.lock()) {
      std::lock_guard<std::mutex> guard{self->mutex_};
      self->flush_in_flight_ = false;
      if (!ec && !self->closed_)
        self->log_->complete_flush(*job);
    }
    if (ec)
      log_line("__consumer_offsets: fsync failed: %s", ec.message().c_str());
    return ec;
  };
}

void offset_log_store::start_flush(flush_start flush) {
  if (flush)
    run_blocking_(std::move(flush));
}

status offset_log_store::close() {
  std::lock_guard<std::mutex> guard{mutex_};
  if (closed_)
    return {};
  closed_ = true;
  return log_->close();
}

} // namespace cafka
