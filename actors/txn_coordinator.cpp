#include "actors/txn_coordinator.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/producer_id_issuer.hpp"
#include "cluster/txn_log.hpp"
#include "cluster/txn_transitions.hpp"
#include "storage/planted_bugs.hpp"

namespace cafka {

// Work the coordinator does again later on its own thread.
struct txn_work {
  std::function<void()> fn;
};

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::txn_work)

namespace cafka {

namespace {

using protocol::kafka_error;

/// Internal: retry a load step, a marker or a Complete* write after a pause.
using txn_retry_atom = caf::atom_constant<caf::atom("txnretry")>;

constexpr auto request_timeout = std::chrono::seconds(30);
// A state write or marker waits this long for the in-sync replicas (Kafka: request.timeout.ms).
constexpr int32_t write_timeout_ms = 15000;
constexpr int32_t load_step_bytes = 1 << 20;
constexpr auto retry_delay = std::chrono::milliseconds(200);
/// EndTxn waits at most this long for the transaction's markers before it is answered.
constexpr int64_t answer_after_ms = 2000;

struct led_partition {
  partition_actor log;
  node_actor node;
  int32_t coordinator_epoch = 0;
  uint64_t generation = 0;
  bool loaded = false;
  std::map<std::string, cluster::txn_metadata> ids;
  /// Ids with a write or markers in flight (CONCURRENT_TRANSACTIONS to others meanwhile).
  std::set<std::string> busy;
};

struct coordinator_state {
  static inline const char* name = "cafka.txn-coordinator";
  txn_coordinator_config cfg;
  std::map<int32_t, led_partition> led;
  int32_t partition_count = 0; ///< of __transaction_state, from the leads; 0 while unknown
  uint64_t next_generation = 1;
};

using self_ptr = caf::stateful_actor<coordinator_state>*;

int64_t now(self_ptr self) { return self->state.cfg.now_ms(); }

// The led and loaded partition of `id` and its number, or why there is none.
struct lookup {
  int32_t partition = -1;
  led_partition* led = nullptr;
  kafka_error error = kafka_error::none;
};

lookup find_partition(self_ptr self, const std::string& id) {
  auto& st = self->state;
  if (st.partition_count <= 0) // no partition led yet (or the topic is being created)
    return {-1, nullptr, st.led.empty() ? kafka_error::coordinator_not_available : kafka_error::not_coordinator};
  auto p = cluster::txn_partition_for(id, st.partition_count);
  auto it = st.led.find(p);
  if (it == st.led.end())
    return {p, nullptr, kafka_error::not_coordinator};
  if (!it->second.loaded)
    return {p, nullptr, kafka_error::coordinator_load_in_progress};
  return {p, &it->second, kafka_error::none};
}

// The partition `p` while it is still led at `generation`.
led_partition* still_led(self_ptr self, int32_t p, uint64_t generation) {
  auto it = self->state.led.find(p);
  return it != self->state.led.end() && it->second.generation == generation ? &it->second : nullptr;
}

std::optional<cluster::txn_metadata> known(const led_partition& part, const std::string& id) {
  auto it = part.ids.find(id);
  if (it == part.ids.end())
    return std::nullopt;
  return it->second;
}

// What a failed write of the state log answers (Kafka's TransactionStateManager).
kafka_error write_error(const caf::error& err) {
  switch (to_kafka_error(err)) {
    case kafka_error::unknown_topic_or_partition:
    case kafka_error::not_enough_replicas:
    case kafka_error::not_enough_replicas_after_append:
    case kafka_error::request_timed_out:
      return kafka_error::coordinator_not_available;
    case kafka_error::not_leader_or_follower:
    case kafka_error::kafka_storage_error:
      return kafka_error::not_coordinator;
    case kafka_error::message_too_large:
    case kafka_error::record_list_too_large:
      return kafka_error::unknown_server_error;
    default: // the partition actor is gone (the replica closed): another broker leads it
      return kafka_error::not_coordinator;
  }
}

void write_markers(self_ptr self, int32_t p, uint64_t generation, std::string id, cluster::txn_metadata prepared,
                   std::function<void()> completed = {});

// Produces `next` (nullopt: the id's tombstone) to partition `p` with acks=all; applies it
// once written, if the partition is still led at `generation`, then calls `done`.
void write_state(self_ptr self, int32_t p, uint64_t generation, std::string id,
                 std::optional<cluster::txn_metadata> next, std::function<void(kafka_error)> done) {
  auto* part = still_led(self, p, generation);
  if (part == nullptr)
    return done(kafka_error::not_coordinator);
  produce_request req{-1, cluster::encode_txn_batch({id, next}, now(self)), write_timeout_ms};
  self->request(part->log, request_timeout, produce_atom_v, std::move(req))
    .then(
      [=](produce_result&) {
        auto* part = still_led(self, p, generation);
        if (part == nullptr)
          return done(kafka_error::not_coordinator);
        if (next)
          part->ids[id] = *next;
        else
          part->ids.erase(id);
        done(kafka_error::none);
      },
      [=](caf::error& err) {
        log_line(log_level::warn, log_component::transactions, "txn coordinator: writing the state of '%s' to __transaction_state-%d failed: %s",
                 id.c_str(), p, describe(err).c_str());
        done(write_error(err));
      });
}

// Writes a new state of `id` that a request decided; answers `answer` with the write's
// outcome. A Prepare* state goes on to the markers (the id stays busy until complete).
void write_decided(self_ptr self, int32_t p, std::string id, cluster::txn_metadata next,
                   std::function<void(kafka_error)> answer) {
  auto& part = self->state.led.at(p);
  auto generation = part.generation;
  part.busy.insert(id);
  write_state(self, p, generation, id, next, [=](kafka_error e) {
    auto* part = still_led(self, p, generation);
    if (e == kafka_error::none && next.in_prepare() && part != nullptr) {
      // EndTxn is answered once the transaction is complete (its markers and Complete* are
      // written), so that the producer's next AddPartitionsToTxn is not refused with
      // CONCURRENT_TRANSACTIONS and retried after a backoff; Kafka answers after Prepare*
      // already. Markers that take longer than answer_after_ms (a partition without a
      // leader) do not hold the answer: Prepare* is written, the outcome is decided.
      auto answered = std::make_shared<bool>(false);
      auto answer_once = [answered, answer] {
        if (!std::exchange(*answered, true))
          answer(kafka_error::none);
      };
      self->delayed_send(self, std::chrono::milliseconds(answer_after_ms), txn_retry_atom::value,
                         txn_work{answer_once});
      write_markers(self, p, generation, id, next, answer_once);
      return;
    }
    if (part != nullptr)
      part->busy.erase(id);
    answer(e);
  });
}

// Writes CompleteCommit / CompleteAbort after the markers; retried while led.
// Then calls `completed` (if any).
void complete(self_ptr self, int32_t p, uint64_t generation, std::string id, cluster::txn_metadata prepared,
              std::function<void()> completed) {
  auto done = cluster::complete_txn(prepared, now(self));
  write_state(self, p, generation, id, done, [=](kafka_error e) {
    auto* part = still_led(self, p, generation);
    if (part == nullptr)
      return;
    if (e != kafka_error::none) {
      self->delayed_send(self, retry_delay, txn_retry_atom::value,
                         txn_work{[=] { complete(self, p, generation, id, prepared, completed); }});
      return;
    }
    part->busy.erase(id);
    if (completed)
      completed();
    log_line(log_level::debug, log_component::transactions, "txn coordinator: '%s' %s", id.c_str(), cluster::to_string(done.status));
  });
}

// Sends one marker of `prepared` to `tp` through the node actor; calls `written` once it is
// written (or the partition is gone), retrying other failures while `p` is led.
void send_marker(self_ptr self, int32_t p, uint64_t generation, const std::string& id,
                 const cluster::txn_metadata& prepared, topic_partition tp, std::function<void()> written) {
  auto* part = still_led(self, p, generation);
  if (part == nullptr)
    return;
  txn_marker_request req{prepared.producer_id, prepared.producer_epoch,
                         prepared.status == cluster::txn_status::prepare_commit, part->coordinator_epoch,
                         write_timeout_ms};
  self->request(part->node, request_timeout, txn_marker_atom_v, tp, req)
    .then([written](produce_result&) { written(); },
          [=](caf::error& err) {
            if (still_led(self, p, generation) == nullptr)
              return;
            auto code = to_kafka_error(err);
            // The topic is gone; or the partition has a newer producer epoch or coordinator
            // (this transaction's marker is moot there): nothing more to write to it.
            if (code == kafka_error::unknown_topic_or_partition || code == kafka_error::invalid_producer_epoch
                || code == kafka_error::transaction_coordinator_fenced) {
              log_line(log_level::info, log_component::transactions, "txn coordinator: marker of '%s' to %s-%d not written: %s",
                       id.c_str(), tp.topic.c_str(), tp.partition, describe(err).c_str());
              written();
              return;
            }
            self->delayed_send(self, retry_delay, txn_retry_atom::value, txn_work{[=] {
                                 send_marker(self, p, generation, id, prepared, tp, written);
                               }});
          });
}

void write_markers(self_ptr self, int32_t p, uint64_t generation, std::string id, cluster::txn_metadata prepared,
                   std::function<void()> completed) {
  size_t count = 0;
  for (auto& [_, partitions] : prepared.partitions)
    count += partitions.size();
  if (count == 0)
    return complete(self, p, generation, id, prepared, completed);
  auto left = std::make_shared<size_t>(count);
  auto written = [=] {
    if (--*left == 0)
      complete(self, p, generation, id, prepared, completed);
  };
  if (testing::current_planted_bug() == testing::planted_bug::marker_to_one_partition) {
    auto& [topic, partitions] = *prepared.partitions.begin();
    *left = 1;
    send_marker(self, p, generation, id, prepared, topic_partition{topic, *partitions.begin()}, written);
    return;
  }
  for (auto& [topic, partitions] : prepared.partitions)
    for (auto partition : partitions)
      send_marker(self, p, generation, id, prepared, topic_partition{topic, partition}, written);
}

// -- requests --

void init(self_ptr self, txn_init_request req, caf::typed_response_promise<txn_init_answer> rp, int64_t fresh_id) {
  auto found = find_partition(self, req.transactional_id);
  if (found.led == nullptr) {
    rp.deliver(txn_init_answer{protocol::wire_code(found.error), -1, -1});
    return;
  }
  auto& id = req.transactional_id;
  auto current = known(*found.led, id);
  auto busy = found.led->busy.count(id) > 0;
  if (!busy && fresh_id < 0 && cluster::txn_needs_new_producer_id(current)) {
    self->request(self->state.cfg.producer_ids, request_timeout, next_producer_id_atom::value)
      .then([=](int64_t fresh) { init(self, req, rp, fresh); },
            [=](caf::error& err) mutable {
              log_line(log_level::warn, log_component::transactions, "txn coordinator: no producer id for '%s': %s", req.transactional_id.c_str(),
                       describe(err).c_str());
              rp.deliver(txn_init_answer{protocol::wire_code(kafka_error::coordinator_not_available), -1, -1});
            });
    return;
  }
  auto step = cluster::init_txn_producer(current, busy, req.timeout_ms, self->state.cfg.max_timeout_ms, req.producer_id,
                                         req.producer_epoch, now(self), fresh_id);
  txn_init_answer answer{protocol::wire_code(step.error), step.producer_id, step.producer_epoch};
  if (!step.write) {
    rp.deliver(answer);
    return;
  }
  write_decided(self, found.partition, id, *step.write, [rp, answer](kafka_error e) mutable {
    if (e != kafka_error::none)
      answer = txn_init_answer{protocol::wire_code(e), -1, -1};
    rp.deliver(answer);
  });
}

caf::result<int16_t> change(self_ptr self, const txn_change_request& req) {
  auto found = find_partition(self, req.transactional_id);
  if (found.led == nullptr)
    return protocol::wire_code(found.error);
  auto& id = req.transactional_id;
  auto current = known(*found.led, id);
  auto busy = found.led->busy.count(id) > 0;
  auto step = req.what == txn_change_request::kind::end
                ? cluster::end_txn(current, busy, req.producer_id, req.producer_epoch, req.commit, now(self))
                : cluster::add_txn_partitions(current, busy, req.producer_id, req.producer_epoch, req.partitions,
                                              now(self));
  if (!step.write)
    return protocol::wire_code(step.error);
  auto rp = self->make_response_promise<int16_t>();
  auto decided = step.error;
  write_decided(self, found.partition, id, *step.write, [rp, decided](kafka_error e) mutable {
    rp.deliver(protocol::wire_code(e == kafka_error::none ? decided : e));
  });
  return rp;
}

std::vector<txn_description> describe_ids(self_ptr self, const std::vector<std::string>& ids) {
  std::vector<txn_description> out;
  for (auto& id : ids) {
    txn_description d{id, 0, {}};
    auto found = find_partition(self, id);
    if (found.led == nullptr) {
      d.error_code = protocol::wire_code(found.error);
    } else if (auto m = known(*found.led, id)) {
      d.metadata = *m;
    } else {
      d.error_code = protocol::wire_code(kafka_error::transactional_id_not_found);
    }
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<txn_description> list_ids(self_ptr self) {
  std::vector<txn_description> out;
  for (auto& [_, part] : self->state.led)
    if (part.loaded)
      for (auto& [id, m] : part.ids)
        out.push_back({id, 0, m});
  return out;
}

// -- leadership and loading --

void finish_load(self_ptr self, int32_t p, led_partition& part, int64_t end) {
  part.loaded = true;
  log_line(log_level::info, log_component::transactions, "broker %d: coordinating the transactional ids of __transaction_state-%d (%zu, loaded up to offset %lld)",
           self->state.cfg.broker_id, p, part.ids.size(), static_cast<long long>(end));
  // Transactions whose markers were being written when the last coordinator stopped.
  for (auto& [id, m] : part.ids)
    if (m.in_prepare()) {
      part.busy.insert(id);
      write_markers(self, p, part.generation, id, m);
    }
}

// A load step failed (a timeout, the replica busy): `again` after a pause while still led.
void retry_load(self_ptr self, int32_t p, uint64_t generation, const caf::error& err, std::function<void()> again) {
  if (still_led(self, p, generation) == nullptr)
    return;
  log_line(log_level::warn, log_component::transactions, "broker %d: loading __transaction_state-%d: %s; asking again",
           self->state.cfg.broker_id, p, describe(err).c_str());
  self->delayed_send(self, retry_delay, txn_retry_atom::value, txn_work{std::move(again)});
}

void load_from(self_ptr self, int32_t p, uint64_t generation, int64_t offset) {
  auto* part = still_led(self, p, generation);
  if (part == nullptr)
    return;
  self->request(part->log, request_timeout, offsets_load_atom_v, offset, load_step_bytes)
    .then(
      [=](fetch_result& r) {
        auto* part = still_led(self, p, generation);
        if (part == nullptr)
          return;
        if (r.records.empty())
          return finish_load(self, p, *part, offset);
        auto read = cluster::decode_txn_batches(protocol::bytes_view{r.records.data(), r.records.size()});
        if (!read || read->next_offset <= offset) {
          // Never serve a partial state: an id would be answered as unknown or stale.
          log_line(log_level::warn, log_component::transactions, "broker %d: loading __transaction_state-%d stopped at offset %lld: %s; its ids are not served",
                   self->state.cfg.broker_id, p, static_cast<long long>(offset),
                   read ? "no progress" : read.error().message().c_str());
          return;
        }
        for (auto& e : read->entries) {
          if (e.metadata)
            part->ids[e.transactional_id] = std::move(*e.metadata);
          else
            part->ids.erase(e.transactional_id);
        }
        load_from(self, p, generation, read->next_offset);
      },
      [=](caf::error& err) { retry_load(self, p, generation, err, [=] { load_from(self, p, generation, offset); }); });
}

void start_load(self_ptr self, int32_t p, uint64_t generation) {
  auto* part = still_led(self, p, generation);
  if (part == nullptr)
    return;
  self->request(part->log, request_timeout, caf::get_atom_v)
    .then([=](partition_status& s) { load_from(self, p, generation, s.log_start_offset); },
          [=](caf::error& err) { retry_load(self, p, generation, err, [=] { start_load(self, p, generation); }); });
}

// -- the timer --

// Aborts the transactions open past their timeout and forgets ids idle past the expiration.
void on_timer(self_ptr self) {
  auto t = now(self);
  auto& st = self->state;
  for (auto& [p, part] : st.led) {
    if (!part.loaded)
      continue;
    std::vector<std::pair<std::string, cluster::txn_metadata>> aborts;
    std::vector<std::string> expired;
    for (auto& [id, m] : part.ids) {
      if (part.busy.count(id) > 0)
        continue;
      if (auto fenced = cluster::abort_if_timed_out(m, t))
        aborts.emplace_back(id, *fenced);
      else if (m.completed() && t - m.last_update_ms >= st.cfg.id_expiration_ms)
        expired.push_back(id);
    }
    for (auto& [id, fenced] : aborts) {
      log_line(log_level::info, log_component::transactions, "txn coordinator: aborting the transaction of '%s' (open longer than its %d ms)",
               id.c_str(), fenced.timeout_ms);
      write_decided(self, p, id, fenced, [](kafka_error) {});
    }
    for (auto& id : expired) {
      part.busy.insert(id);
      auto generation = part.generation;
      auto partition = p;
      write_state(self, p, generation, id, std::nullopt, [self, partition, generation, id](kafka_error) {
        if (auto* part = still_led(self, partition, generation))
          part->busy.erase(id);
      });
    }
  }
  self->delayed_send(self, std::chrono::milliseconds(st.cfg.abort_interval_ms), caf::tick_atom_v);
}

caf::behavior txn_coordinator(self_ptr self, txn_coordinator_config cfg) {
  self->state.cfg = std::move(cfg);
  self->delayed_send(self, std::chrono::milliseconds(self->state.cfg.abort_interval_ms), caf::tick_atom_v);
  return {
    [=](txn_lead_atom, int32_t p, int32_t partition_count, partition_actor log, int32_t coordinator_epoch,
        node_actor node) {
      auto& st = self->state;
      st.partition_count = partition_count;
      auto generation = st.next_generation++;
      st.led[p] = led_partition{std::move(log), std::move(node), coordinator_epoch, generation, false, {}, {}};
      start_load(self, p, generation);
    },
    [=](txn_leave_atom, int32_t p) {
      if (self->state.led.erase(p) > 0)
        log_line(log_level::info, log_component::transactions, "broker %d: no longer coordinating the transactional ids of __transaction_state-%d",
                 self->state.cfg.broker_id, p);
    },
    [=](txn_init_atom, txn_init_request& req) -> caf::result<txn_init_answer> {
      auto rp = self->make_response_promise<txn_init_answer>();
      init(self, std::move(req), rp, -1);
      return rp;
    },
    [=](txn_change_atom, const txn_change_request& req) { return change(self, req); },
    [=](txn_describe_atom, const std::vector<std::string>& ids) { return describe_ids(self, ids); },
    [=](txn_list_atom) { return list_ids(self); },
    [=](txn_retry_atom, txn_work& work) { work.fn(); },
    [=](caf::tick_atom) { on_timer(self); },
  };
}

} // namespace

caf::actor spawn_txn_coordinator(caf::actor_system& sys, txn_coordinator_config cfg) {
  return sys.spawn(txn_coordinator, std::move(cfg));
}

} // namespace cafka
