#include "actors/offset_log_store.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <utility>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/offset_updates.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/offsets_partition.hpp"
#include "protocol/control_batch.hpp"
#include "storage/topic_partition.hpp"

namespace cafka {

namespace {

// How much of the log one replay step reads.
constexpr size_t replay_read_bytes = 1 << 20;

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The partitions of __consumer_offsets with a folder in `root`, also those of which a crash
// left only a .cleaned or .deleted folder.
result<std::set<int32_t>> offsets_partitions_in(const std::string& root) {
  std::set<int32_t> out;
  std::error_code ec;
  for (auto& entry : std::filesystem::directory_iterator(root, ec)) {
    if (!entry.is_directory())
      continue;
    auto name = entry.path().filename().string();
    for (auto* suffix : {".cleaned", ".deleted"})
      if (ends_with(name, suffix))
        name.resize(name.size() - std::string{suffix}.size());
    auto tp = storage::parse_partition_dir_name(name);
    if (tp && tp->topic == cluster::offsets_topic_name)
      out.insert(tp->partition);
  }
  if (ec)
    return ec;
  return out;
}

} // namespace

result<std::shared_ptr<offset_log_store>> offset_log_store::open(const storage::log_directory& dir,
                                                                 storage::log_config cfg, int64_t now_ms,
                                                                 blocking_runner run_blocking,
                                                                 offset_store_options options) {
  if (options.partitions < 1)
    return std::make_error_code(std::errc::invalid_argument);
  // Committed offsets leave the log only as tombstones (expiry) and by compaction, never by
  // log retention.
  cfg.retention_ms = -1;
  cfg.retention_bytes = -1;
  cfg.cleanup_delete = false;
  cfg.cleanup_compact = true;
  std::shared_ptr<offset_log_store> store{new offset_log_store(dir, cfg, std::move(run_blocking), options)};
  if (auto st = store->load(now_ms); !st)
    return st.error();
  return store;
}

status offset_log_store::load(int64_t now_ms) {
  auto found = offsets_partitions_in(dir_.root());
  if (!found)
    return found.error();
  for (auto p : *found) {
    auto log = dir_.open_log(partition(p), cfg_, now_ms);
    if (!log)
      return log.error();
    partitions_[p].log = std::move(*log);
    if (auto st = replay(p); !st)
      return st;
  }
  std::vector<blocking_job> jobs;
  if (auto st = move_strays(now_ms, jobs); !st)
    return st;
  start(std::move(jobs));
  return {};
}

status offset_log_store::replay(int32_t p) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& ps = partitions_[p];
  auto& log = *ps.log;
  auto offset = log.log_start_offset();
  while (offset < log.log_end_offset()) {
    auto bytes = log.read(offset, replay_read_bytes);
    if (!bytes)
      return bytes.error();
    if (bytes->empty())
      break;
    auto decoded = cluster::decode_offset_batches(protocol::bytes_view{bytes->data(), bytes->size()});
    if (!decoded)
      return decoded.error();
    ps.table.apply(*decoded);
    if (decoded->next_offset <= offset) // no progress: never loop forever
      break;
    offset = decoded->next_offset;
  }
  return {};
}

// Groups found outside their home partition (offsets.topic.num.partitions changed) move
// home: copied there first (unless the home has a newer commit), then tombstoned.
status offset_log_store::move_strays(int64_t now_ms, std::vector<blocking_job>& jobs) {
  std::lock_guard<std::mutex> guard{mutex_};
  std::map<int32_t, std::vector<cluster::offset_update>> copies, tombstones;
  for (auto& [p, ps] : partitions_) {
    for (auto& group : ps.table.groups()) {
      auto home = cluster::offsets_partition_for(group, options_.partitions);
      if (home == p)
        continue;
      for (auto& entry : ps.table.group_offsets(group)) {
        cluster::offset_key key{group, entry.topic, entry.partition};
        tombstones[p].push_back(cluster::offset_update{key, std::nullopt});
        auto it = partitions_.find(home);
        auto* there = it == partitions_.end() ? nullptr : it->second.table.find(key);
        if (!there || there->commit_timestamp_ms < entry.committed.commit_timestamp_ms)
          copies[home].push_back(cluster::offset_update{key, entry.committed});
      }
    }
  }
  if (tombstones.empty())
    return {};
  log_line(log_level::info, log_component::groups, "__consumer_offsets: moving the offsets of groups into their partition of %d", options_.partitions);
  for (auto& [home, updates] : copies)
    if (auto st = append_locked(home, updates, now_ms, jobs); !st)
      return st;
  for (auto& [p, updates] : tombstones)
    if (auto st = append_locked(p, updates, now_ms, jobs); !st)
      return st;
  return {};
}

int32_t offset_log_store::partition_for(const std::string& group) const {
  return cluster::offsets_partition_for(group, options_.partitions);
}

protocol::kafka_error offset_log_store::commit(const std::string& group, const std::vector<group_offset>& offsets,
                                               int64_t now_ms) {
  std::vector<cluster::offset_update> updates;
  updates.reserve(offsets.size());
  for (auto& o : offsets)
    updates.push_back(to_offset_update(group, o, now_ms));
  return store(group, updates, now_ms);
}

void offset_log_store::remove(const std::string& group, const std::vector<storage::topic_partition>& partitions,
                              int64_t now_ms, commit_done done) {
  done(store(group, tombstones_of(group, partitions), now_ms));
}

protocol::kafka_error offset_log_store::store(const std::string& group,
                                              const std::vector<cluster::offset_update>& updates, int64_t now_ms) {
  auto p = partition_for(group);
  std::vector<blocking_job> jobs;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return protocol::kafka_error::coordinator_not_available;
    if (auto st = append_locked(p, updates, now_ms, jobs); !st) {
      log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: commit of group %s failed: %s", p, group.c_str(),
               st.error().message().c_str());
      return protocol::kafka_error::unknown_server_error;
    }
    if (auto clean = prepare_clean_locked(p, now_ms))
      jobs.push_back(std::move(clean));
  }
  start(std::move(jobs));
  return protocol::kafka_error::none;
}

void offset_log_store::commit_txn(const std::string& group, int64_t producer_id, int16_t producer_epoch,
                                  std::vector<group_offset> offsets, int64_t now_ms, commit_done done) {
  std::vector<cluster::offset_update> updates;
  for (auto& o : offsets)
    updates.push_back(to_offset_update(group, o, now_ms));
  auto batch = cluster::encode_txn_offset_batch(updates, producer_id, producer_epoch, now_ms);
  append_for_txn(partition_for(group), now_ms, true, [&](partition_state& ps) -> status {
    if (batch.empty())
      return {};
    if (auto appended = ps.log->append_as_coordinator(batch, now_ms, -1); !appended)
      return appended.error();
    ps.table.add_pending(producer_id, updates);
    return {};
  }, std::move(done));
}

void offset_log_store::write_txn_marker(int32_t p, int64_t producer_id, int16_t producer_epoch, bool commit,
                                        int32_t coordinator_epoch, int64_t now_ms, commit_done done) {
  protocol::txn_marker marker{commit ? protocol::control_type::commit : protocol::control_type::abort,
                              coordinator_epoch};
  // (A partition without a log holds nothing of the transaction: nothing to mark.)
  append_for_txn(p, now_ms, false, [&](partition_state& ps) -> status {
    if (auto appended = ps.log->append_txn_marker(producer_id, producer_epoch, marker, now_ms, -1); !appended)
      return appended.error();
    ps.table.complete_pending(producer_id, commit);
    return {};
  }, std::move(done));
}

void offset_log_store::append_for_txn(int32_t p, int64_t now_ms, bool create_log,
                                      const std::function<status(partition_state&)>& append, commit_done done) {
  std::vector<blocking_job> jobs;
  auto outcome = protocol::kafka_error::none;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_) {
      outcome = protocol::kafka_error::coordinator_not_available;
    } else if (auto opened = create_log ? open_log_locked(p, now_ms) : status{}; !opened) {
      outcome = protocol::kafka_error::unknown_server_error;
    } else if (auto found = partitions_.find(p); found != partitions_.end() && found->second.log) {
      if (auto st = append(found->second); !st)
        outcome = to_kafka_error(st.error());
      else if (auto flush = prepare_flush_locked(p, now_ms))
        jobs.push_back(std::move(flush));
    }
  }
  start(std::move(jobs));
  done(outcome);
}

std::vector<group_offset> offset_log_store::fetch(const std::string& group, const group_offset_query& query) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(partition_for(group));
  if (it == partitions_.end())
    return {};
  return offsets_of(it->second.table, group, query);
}

std::vector<std::string> offset_log_store::groups() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return groups_in(partitions_);
}

result<size_t> offset_log_store::expire(int64_t now_ms, int64_t retention_ms,
                                        const cluster::group_expiry_probe& probe) {
  std::vector<blocking_job> jobs;
  size_t expired = 0;
  status failed;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return size_t{0};
    for (auto& [p, ps] : partitions_) {
      auto tombstones = ps.table.expired(now_ms, retention_ms, probe);
      if (tombstones.empty())
        continue;
      if (failed = append_locked(p, tombstones, now_ms, jobs); !failed)
        break;
      expired += tombstones.size();
      if (auto clean = prepare_clean_locked(p, now_ms))
        jobs.push_back(std::move(clean));
    }
  }
  start(std::move(jobs)); // without the mutex: an inline job takes it
  if (!failed)
    return failed.error();
  return expired;
}

size_t offset_log_store::log_records() const {
  std::lock_guard<std::mutex> guard{mutex_};
  size_t n = 0;
  for (auto& [_, ps] : partitions_)
    n += ps.table.log_records();
  return n;
}

size_t offset_log_store::size() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return offsets_in(partitions_);
}

size_t offset_log_store::cleans() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return cleans_;
}

std::shared_ptr<storage::partition_log> offset_log_store::log(int32_t p) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  return it == partitions_.end() ? nullptr : it->second.log;
}

offset_log_store::log_map offset_log_store::logs() const {
  std::lock_guard<std::mutex> guard{mutex_};
  log_map out;
  for (auto& [p, ps] : partitions_)
    if (ps.log)
      out[partition(p)] = ps.log;
  return out;
}

status offset_log_store::open_log_locked(int32_t p, int64_t now_ms) {
  auto& ps = partitions_[p];
  if (ps.log) // else the partition's first commit creates its folder
    return {};
  auto log = dir_.open_log(partition(p), cfg_, now_ms);
  if (!log)
    return log.error();
  ps.log = std::move(*log);
  return {};
}

status offset_log_store::append_locked(int32_t p, const std::vector<cluster::offset_update>& updates, int64_t now_ms,
                                       std::vector<blocking_job>& jobs) {
  if (auto st = open_log_locked(p, now_ms); !st)
    return st;
  auto& ps = partitions_[p];
  if (auto st = append_to(*ps.log, updates, now_ms); !st)
    return st;
  ps.table.apply(updates); // only once the records are in the log
  if (auto flush = prepare_flush_locked(p, now_ms))
    jobs.push_back(std::move(flush));
  return {};
}

status offset_log_store::append_to(storage::partition_log& log, const std::vector<cluster::offset_update>& updates,
                                   int64_t now_ms) {
  auto max_batch = static_cast<size_t>(log.config().max_message_bytes);
  auto batches = cluster::encode_offset_batches(updates, now_ms, max_batch);
  if (batches.empty())
    return {};
  auto appended = log.append(batches, now_ms);
  if (!appended)
    return appended.error();
  return {};
}

// As partition_actor's flush: prepared under the mutex, the fsync on the I/O worker, then
// completed under the mutex again, if the store is still open.
offset_log_store::blocking_job offset_log_store::prepare_flush_locked(int32_t p, int64_t now_ms) {
  auto& ps = partitions_[p];
  if (ps.flush_in_flight || !run_blocking_ || !ps.log->flush_due(now_ms))
    return {};
  auto prepared = ps.log->prepare_flush();
  if (!prepared) {
    log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: flush failed: %s", p, prepared.error().message().c_str());
    return {};
  }
  auto job = std::make_shared<storage::flush_job>(std::move(*prepared));
  ps.flush_in_flight = true;
  std::weak_ptr<offset_log_store> weak = weak_from_this();
  std::weak_ptr<storage::partition_log> flushed = ps.log;
  return [weak, flushed, job, p]() -> std::error_code {
    auto ec = job->run().error();
    if (auto self = weak.lock()) {
      std::lock_guard<std::mutex> guard{self->mutex_};
      auto& state = self->partitions_[p];
      state.flush_in_flight = false;
      if (!ec && !self->closed_ && state.log && state.log == flushed.lock())
        state.log->complete_flush(*job);
    }
    if (ec)
      log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: fsync failed: %s", p, ec.message().c_str());
    return ec;
  };
}

void offset_log_store::start(std::vector<blocking_job> jobs) {
  for (auto& job : jobs) {
    if (run_blocking_)
      run_blocking_(std::move(job));
    else
      job(); // only cleans are prepared without a runner
  }
}

status offset_log_store::close() {
  std::lock_guard<std::mutex> guard{mutex_};
  if (closed_)
    return {};
  closed_ = true;
  status first;
  for (auto& [_, ps] : partitions_)
    if (ps.log)
      if (auto st = ps.log->close(); !st && first)
        first = st;
  return first;
}

} // namespace cafka
