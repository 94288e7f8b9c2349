#include "actors/replicated_offsets.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/offset_updates.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/offsets_replication.hpp"

namespace cafka {

namespace {

// The partition actor's answer comes within the commit timeout (acks=all waits end then
// with REQUEST_TIMED_OUT); this much more is for the message to arrive.
constexpr auto answer_grace = std::chrono::seconds(5);

// What the append's failure means for a commit: a local replica that is gone stopped
// leading it (the node closed it); the rest as Kafka maps produce errors.
protocol::kafka_error commit_error_of(const caf::error& err) {
  if (err == caf::sec::request_receiver_down)
    return cluster::offset_commit_error(protocol::kafka_error::not_leader_or_follower);
  return cluster::offset_commit_error(to_kafka_error(err));
}

} // namespace

uint64_t replicated_offsets::begin_load(int32_t p) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& ps = partitions_[p];
  ps.table = cluster::offset_table{};
  ps.leader.reset();
  ps.generation = ++next_generation_;
  return ps.generation;
}

result<int64_t> replicated_offsets::load(int32_t p, uint64_t generation, const std::vector<char>& batches) {
  auto decoded = cluster::decode_offset_batches(protocol::bytes_view{batches.data(), batches.size()});
  if (!decoded)
    return decoded.error();
  std::lock_guard<std::mutex> guard{mutex_};
  auto& ps = partitions_[p];
  if (ps.generation == generation)
    ps.table.apply(*decoded);
  return decoded->next_offset;
}

bool replicated_offsets::finish_load(int32_t p, uint64_t generation, partition_actor leader) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto& ps = partitions_[p];
  if (closed_ || ps.generation != generation)
    return false;
  ps.leader = std::move(leader);
  return true;
}

bool replicated_offsets::still_loading(int32_t p, uint64_t generation) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  return !closed_ && it != partitions_.end() && it->second.generation == generation && !it->second.leader;
}

void replicated_offsets::drop(int32_t p) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  if (it == partitions_.end())
    return;
  it->second.table = cluster::offset_table{};
  it->second.leader.reset();
  it->second.generation = ++next_generation_;
}

bool replicated_offsets::serves(int32_t p) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  return it != partitions_.end() && it->second.leader.has_value();
}

void replicated_offsets::close() {
  std::lock_guard<std::mutex> guard{mutex_};
  closed_ = true;
  for (auto& [_, ps] : partitions_)
    ps.leader.reset();
}

void replicated_offsets::commit(const std::string& group, std::vector<group_offset> offsets, int64_t now_ms,
                                commit_done done) {
  std::vector<cluster::offset_update> updates;
  updates.reserve(offsets.size());
  for (auto& o : offsets)
    updates.push_back(to_offset_update(group, o, now_ms));
  store(group, std::move(updates), now_ms, std::move(done));
}

void replicated_offsets::remove(const std::string& group, const std::vector<storage::topic_partition>& partitions,
                                int64_t now_ms, commit_done done) {
  store(group, tombstones_of(group, partitions), now_ms, std::move(done));
}

void replicated_offsets::store(const std::string& group, std::vector<cluster::offset_update> updates,
                               int64_t now_ms, commit_done done) {
  auto p = partition_of(group);
  if (p < 0) {
    done(protocol::kafka_error::coordinator_not_available);
    return;
  }
  auto leader = served_leader(p);
  if (!leader) { // lost (or not yet loaded) since the group actor was asked
    done(protocol::kafka_error::not_coordinator);
    return;
  }
  append(p, leader->second, leader->first, std::move(updates), now_ms, std::move(done));
}

template <class... Msg>
void replicated_offsets::write_to_leader(int32_t p, uint64_t generation, partition_actor leader, const char* what,
                                         std::function<void(cluster::offset_table&)> apply, error_mapping error_of,
                                         commit_done done, Msg... msg) {
  auto wait = std::chrono::milliseconds(commit_timeout_ms_) + answer_grace;
  std::weak_ptr<replicated_offsets> weak = weak_from_this();
  // A function-based actor ends once its only request is answered.
  sys_.spawn([=](caf::event_based_actor* self) mutable {
    self->request(leader, wait, msg...)
      .then(
        [=](produce_result&) {
          // On the in-sync replicas: stored, also if leadership moved meanwhile (the next
          // leader loads it from its replica).
          if (auto store = weak.lock())
            store->with_table(p, generation, apply);
          done(protocol::kafka_error::none);
        },
        [=](caf::error& err) {
          log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: %s not stored: %s", p, what,
                   describe(err).c_str());
          done(error_of(err));
        });
  });
}

void replicated_offsets::append(int32_t p, uint64_t generation, partition_actor leader,
                                std::vector<cluster::offset_update> updates, int64_t now_ms, commit_done done) {
  auto batches = cluster::encode_offset_batches(updates, now_ms, max_batch_bytes_);
  if (batches.empty()) {
    done(protocol::kafka_error::none);
    return;
  }
  auto shared_updates = std::make_shared<std::vector<cluster::offset_update>>(std::move(updates));
  write_to_leader(
    p, generation, std::move(leader), "commit", [shared_updates](cluster::offset_table& t) { t.apply(*shared_updates); },
    commit_error_of, std::move(done), produce_atom_v, produce_request{-1, std::move(batches), commit_timeout_ms_});
}

std::optional<std::pair<partition_actor, uint64_t>> replicated_offsets::served_leader(int32_t p) const {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  if (closed_ || it == partitions_.end() || !it->second.leader)
    return std::nullopt;
  return std::make_pair(*it->second.leader, it->second.generation);
}

void replicated_offsets::commit_txn(const std::string& group, int64_t producer_id, int16_t producer_epoch,
                                    std::vector<group_offset> offsets, int64_t now_ms, commit_done done) {
  auto p = partition_of(group);
  auto leader = p < 0 ? std::nullopt : served_leader(p);
  if (!leader) {
    done(p < 0 ? protocol::kafka_error::coordinator_not_available : protocol::kafka_error::not_coordinator);
    return;
  }
  auto updates = std::make_shared<std::vector<cluster::offset_update>>();
  for (auto& o : offsets)
    updates->push_back(to_offset_update(group, o, now_ms));
  produce_request req{-1, cluster::encode_txn_offset_batch(*updates, producer_id, producer_epoch, now_ms),
                      commit_timeout_ms_, true};
  if (req.records.empty()) {
    done(protocol::kafka_error::none);
    return;
  }
  auto error_of = [](const caf::error& err) { // a fenced producer is told so
    auto code = to_kafka_error(err);
    return code == protocol::kafka_error::invalid_producer_epoch ? code : commit_error_of(err);
  };
  write_to_leader(
    p, leader->second, leader->first, "transactional commit",
    [updates, producer_id](cluster::offset_table& t) { t.add_pending(producer_id, *updates); }, error_of,
    std::move(done), produce_atom_v, std::move(req));
}

void replicated_offsets::write_txn_marker(int32_t p, int64_t producer_id, int16_t producer_epoch, bool commit,
                                          int32_t coordinator_epoch, int64_t, commit_done done) {
  auto leader = served_leader(p);
  if (!leader) {
    done(protocol::kafka_error::not_leader_or_follower);
    return;
  }
  write_to_leader(
    p, leader->second, leader->first, "transaction marker",
    [producer_id, commit](cluster::offset_table& t) { t.complete_pending(producer_id, commit); },
    [](const caf::error& err) { return to_kafka_error(err); }, std::move(done), txn_marker_atom_v,
    txn_marker_request{producer_id, producer_epoch, commit, coordinator_epoch, commit_timeout_ms_});
}

void replicated_offsets::with_table(int32_t p, uint64_t generation, const std::function<void(cluster::offset_table&)>& f) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  if (it != partitions_.end() && it->second.generation == generation)
    f(it->second.table);
}

std::vector<group_offset> replicated_offsets::fetch(const std::string& group, const group_offset_query& query) const {
  auto p = partition_of(group);
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = partitions_.find(p);
  if (it == partitions_.end() || !it->second.leader)
    return {};
  return offsets_of(it->second.table, group, query);
}

std::vector<std::string> replicated_offsets::groups() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return groups_in(partitions_);
}

result<size_t> replicated_offsets::expire(int64_t now_ms, int64_t retention_ms,
                                          const cluster::group_expiry_probe& probe) {
  struct expiry {
    int32_t p;
    uint64_t generation;
    partition_actor leader;
    std::vector<cluster::offset_update> tombstones;
  };
  std::vector<expiry> due;
  {
    std::lock_guard<std::mutex> guard{mutex_};
    if (closed_)
      return size_t{0};
    for (auto& [p, ps] : partitions_) {
      if (!ps.leader)
        continue;
      auto tombstones = ps.table.expired(now_ms, retention_ms, probe);
      if (!tombstones.empty())
        due.push_back({p, ps.generation, *ps.leader, std::move(tombstones)});
    }
  }
  size_t sent = 0;
  for (auto& e : due) {
    sent += e.tombstones.size();
    auto p = e.p;
    append(e.p, e.generation, e.leader, std::move(e.tombstones), now_ms, [p](protocol::kafka_error err) {
      if (err != protocol::kafka_error::none)
        log_line(log_level::warn, log_component::groups, "__consumer_offsets-%d: expiry not stored (%s); the next pass tries again", p,
                 protocol::to_string(err));
    });
  }
  return sent;
}

size_t replicated_offsets::size() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return offsets_in(partitions_);
}

} // namespace cafka
