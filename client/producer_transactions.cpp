// The idempotent and the transactional producer (producer_actor.hpp, "Idempotence" and
// "Transactions"): the producer id, what a broken numbering does, and the transaction's
// requests to its coordinator (retried after a backoff while they may succeed).
#include <algorithm>
#include <memory>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/producer_actor_state.hpp"
#include "client/retry.hpp"

namespace cafka::client::detail {

namespace {

caf::error code_error(int16_t code, const std::string& what) {
  return caf::make_error(from_wire(code), what);
}

caf::timespan remaining(self_ptr self, clock_type::time_point deadline) {
  return std::max<caf::timespan>(deadline - self->clock().now(), std::chrono::milliseconds(1));
}

void defer(self_ptr self, caf::timespan delay, std::function<void()> fn) {
  auto at = self->clock().now() + delay;
  self->state.eo.deferred.emplace(at, std::move(fn));
  arm_wakeup(self, at);
}

// The transaction is lost for good (fenced): everything it would send fails with `err`.
void go_fatal(self_ptr self, caf::error err) {
  auto& eo = self->state.eo;
  eo.phase = txn_phase::fatal;
  if (!eo.fatal)
    eo.fatal = std::move(err);
}

// A request of the open transaction failed with `err`: fatal when fenced, else the
// transaction can only abort now.
void txn_request_failed(self_ptr self, const caf::error& err, bool fenced) {
  auto& eo = self->state.eo;
  if (fenced)
    go_fatal(self, err);
  else if (!eo.abortable)
    eo.abortable = err;
}

// -- the idempotent producer's id ---------------------------------------------

void ask_producer_id(self_ptr self) {
  auto& st = self->state;
  st.eo.asking_id = true;
  auto retry = [self](const caf::error&) {
    auto& st = self->state;
    st.eo.asking_id = false;
    st.eo.id_not_before = self->clock().now() + backoff_delay(st.cfg.retry_backoff, st.eo.id_failures++);
    arm_wakeup(self, st.eo.id_not_before);
  };
  self->request(st.link, st.cfg.request_timeout, caf::get_atom_v)
    .then(
      [=](node_actor& node) {
        self->request(node, self->state.cfg.request_timeout, init_producer_id_atom_v, producer_id_request{})
          .then(
            [=](producer_id_answer& a) {
              if (a.error_code != 0)
                return retry(code_error(a.error_code, "InitProducerId"));
              auto& eo = self->state.eo;
              eo.asking_id = false;
              eo.id_failures = 0;
              eo.who = producer_identity{a.producer_id, a.producer_epoch};
              eo.numbering.reset();
              pump(self);
            },
            retry);
      },
      retry);
}

// -- calls to the transaction coordinator -------------------------------------

/// One request to the coordinator with its retries: `send` asks a coordinator's node and
/// calls back with the answer's error code; `done` gets the final code.
struct coordinator_call {
  std::function<void(const node_actor&, std::function<void(int16_t)>)> send;
  std::function<void(int16_t)> done;
  clock_type::time_point deadline;
  unsigned failures = 0;
};

using call_ptr = std::shared_ptr<coordinator_call>;

void attempt(self_ptr self, const call_ptr& call);

void again(self_ptr self, const call_ptr& call, bool relocate, int16_t last) {
  auto& st = self->state;
  if (relocate)
    st.eo.coordinator = nullptr;
  // CONCURRENT_TRANSACTIONS (the markers of the previous transaction are being written) and
  // loading end soon: retried after 20 ms at first, as Kafka's producer does.
  auto policy = st.cfg.retry_backoff;
  if (!relocate)
    policy.initial = std::min<std::chrono::milliseconds>(policy.initial, std::chrono::milliseconds(20));
  auto delay = backoff_delay(policy, call->failures++);
  if (self->clock().now() + delay >= call->deadline)
    return call->done(last);
  defer(self, delay, [self, call] { attempt(self, call); });
}

void attempt(self_ptr self, const call_ptr& call) {
  auto& st = self->state;
  if (st.eo.coordinator) {
    call->send(st.eo.coordinator, [self, call](int16_t code) {
      switch (classify_coordinator_code(code)) {
        case coordinator_outcome::retry:
          return again(self, call, false, code);
        case coordinator_outcome::relocate:
          return again(self, call, true, code);
        default:
          return call->done(code);
      }
    });
    return;
  }
  self->request(st.link, remaining(self, call->deadline), txn_coordinator_atom_v, st.cfg.transactional_id)
    .then(
      [=](node_actor& node) {
        self->state.eo.coordinator = std::move(node);
        attempt(self, call);
      },
      [=](caf::error& err) { again(self, call, true, protocol::wire_code(to_kafka_error(err))); });
}

void call_coordinator(self_ptr self, std::function<void(const node_actor&, std::function<void(int16_t)>)> send,
                      std::function<void(int16_t)> done) {
  auto call = std::make_shared<coordinator_call>();
  call->send = std::move(send);
  call->done = std::move(done);
  call->deadline = self->clock().now() + self->state.cfg.delivery_timeout;
  attempt(self, call);
}

// A txn_request to the coordinator; `done` gets the final code.
void change_txn(self_ptr self, txn_request req, std::function<void(int16_t)> done) {
  auto& st = self->state;
  req.transactional_id = st.cfg.transactional_id;
  req.producer_id = st.eo.who.id;
  req.producer_epoch = st.eo.who.epoch;
  auto timeout = st.cfg.request_timeout;
  call_coordinator(
    self,
    [self, req, timeout](const node_actor& node, std::function<void(int16_t)> k) {
      self->request(node, timeout, txn_request_atom_v, req)
        .then([k](int16_t code) { k(code); },
              [k](caf::error& err) { k(protocol::wire_code(to_kafka_error(err))); });
    },
    std::move(done));
}

// InitProducerId for the transactional id (`bump`: KIP-360, with the current id and epoch,
// after the numbering broke); `done` with none or the error.
void get_transactional_id(self_ptr self, bool bump, std::function<void(caf::error)> done) {
  auto& st = self->state;
  producer_id_request req{st.cfg.transactional_id, static_cast<int32_t>(st.cfg.transaction_timeout.count()),
                          bump ? st.eo.who.id : -1, bump ? st.eo.who.epoch : int16_t{-1}};
  auto answer = std::make_shared<producer_id_answer>();
  auto timeout = st.cfg.request_timeout;
  call_coordinator(
    self,
    [self, req, answer, timeout](const node_actor& node, std::function<void(int16_t)> k) {
      self->request(node, timeout, init_producer_id_atom_v, req)
        .then(
          [answer, k](producer_id_answer& a) {
            *answer = a;
            k(a.error_code);
          },
          [k](caf::error& err) { k(protocol::wire_code(to_kafka_error(err))); });
    },
    [self, answer, bump, done](int16_t code) {
      auto& eo = self->state.eo;
      if (code == 0) {
        eo.who = producer_identity{answer->producer_id, answer->producer_epoch};
        eo.numbering.reset();
        eo.bump_after_abort = false;
        eo.phase = txn_phase::ready;
        done(caf::error{});
        pump(self);
        return;
      }
      auto err = code_error(code, "InitProducerId for transactional id '" + self->state.cfg.transactional_id + "'");
      if (bump || classify_coordinator_code(code) == coordinator_outcome::fenced)
        go_fatal(self, err);
      else
        eo.phase = txn_phase::uninitialized; // init_transactions may be called again
      done(std::move(err));
    });
}

} // namespace

// AddPartitionsToTxn for the partitions waiting for it (one request at a time).
void add_partitions(self_ptr self) {
  auto& eo = self->state.eo;
  if (!eo.adding.empty() || eo.to_add.empty()
      || (eo.phase != txn_phase::in_txn && eo.phase != txn_phase::flushing))
    return;
  eo.adding = std::move(eo.to_add);
  eo.to_add.clear();
  txn_request req;
  req.what = txn_request::kind::add_partitions;
  req.partitions.assign(eo.adding.begin(), eo.adding.end());
  change_txn(self, std::move(req), [self](int16_t code) {
    auto& eo = self->state.eo;
    if (code == 0) {
      eo.added.insert(eo.adding.begin(), eo.adding.end());
    } else {
      txn_request_failed(self, code_error(code, "AddPartitionsToTxn"),
                         classify_coordinator_code(code) == coordinator_outcome::fenced);
    }
    eo.adding.clear();
    pump(self); // sends to the added partitions, fails the batches of the others
  });
}

namespace {

// The transaction ended (or never reached the coordinator): ready for the next one.
void forget_transaction(exactly_once_state& eo) {
  eo.added.clear();
  eo.adding.clear();
  eo.to_add.clear();
  eo.group_added = false;
  eo.abortable = caf::error{};
  eo.phase = txn_phase::ready;
}

caf::error not_in_transaction(const exactly_once_state& eo, const char* what) {
  if (eo.phase == txn_phase::fatal)
    return eo.fatal;
  return caf::make_error(kafka_error::invalid_txn_state,
                         std::string{what} + ": no transaction is open (begin_transaction first)");
}

// TxnOffsetCommit through the group's actor (from its coordinator); retried within `deadline`.
void commit_txn_offsets(self_ptr self, std::string group, std::vector<group_offset> offsets,
                        clock_type::time_point deadline, unsigned failures, caf::typed_response_promise<bool> rp) {
  auto& st = self->state;
  auto retry_or_fail = [=](const caf::error& err) mutable {
    auto& st = self->state;
    auto e = to_kafka_error(err);
    auto delay = backoff_delay(st.cfg.retry_backoff, failures);
    if ((is_retriable(err) || e == kafka_error::coordinator_load_in_progress || e == kafka_error::concurrent_transactions)
        && self->clock().now() + delay < deadline) {
      defer(self, delay, [=] { commit_txn_offsets(self, group, offsets, deadline, failures + 1, rp); });
      return;
    }
    txn_request_failed(self, err, e == kafka_error::producer_fenced || e == kafka_error::invalid_producer_epoch);
    rp.deliver(err);
  };
  txn_offset_commit commit{st.eo.who.id, st.eo.who.epoch, offsets};
  auto timeout = st.cfg.request_timeout;
  self->request(st.link, remaining(self, deadline), group_coordinator_atom_v, group)
    .then(
      [=](group_actor& g) mutable {
        self->request(g, timeout, txn_offset_commit_atom_v, commit)
          .then([rp]() mutable { rp.deliver(true); }, retry_or_fail);
      },
      retry_or_fail);
}

// EndTxn once the records are flushed (phase ending); `rp` gets the outcome.
void send_end_txn(self_ptr self, bool commit, caf::typed_response_promise<bool> rp) {
  auto& eo = self->state.eo;
  auto finish = [self, commit, rp]() mutable {
    auto& eo = self->state.eo;
    forget_transaction(eo);
    if (commit || !eo.bump_after_abort) {
      rp.deliver(true);
      return;
    }
    // The numbering broke in the aborted transaction: a new epoch restarts it.
    get_transactional_id(self, true, [rp](caf::error err) mutable {
      if (err)
        rp.deliver(std::move(err));
      else
        rp.deliver(true);
    });
  };
  if (eo.added.empty() && eo.adding.empty() && !eo.group_added) // nothing reached the coordinator
    return finish();
  txn_request req;
  req.what = txn_request::kind::end;
  req.commit = commit;
  change_txn(self, std::move(req), [self, commit, rp, finish](int16_t code) mutable {
    if (code == 0)
      return finish();
    auto err = code_error(code, commit ? "EndTxn (commit)" : "EndTxn (abort)");
    auto& eo = self->state.eo;
    if (classify_coordinator_code(code) == coordinator_outcome::fenced) {
      go_fatal(self, err);
    } else {
      eo.phase = txn_phase::in_txn; // the caller may try again, or abort
      if (commit && !eo.abortable)
        eo.abortable = err;
    }
    rp.deliver(std::move(err));
  });
}

} // namespace

bool ready_to_number(self_ptr self) {
  auto& eo = self->state.eo;
  if (!eo.idempotent || eo.who.valid())
    return true;
  if (!eo.transactional && !eo.asking_id) {
    if (self->clock().now() >= eo.id_not_before)
      ask_producer_id(self);
    else
      arm_wakeup(self, eo.id_not_before);
  }
  return false;
}

std::optional<clock_type::time_point> run_deferred(self_ptr self, clock_type::time_point now) {
  auto& deferred = self->state.eo.deferred;
  while (!deferred.empty() && deferred.begin()->first <= now) {
    auto fn = std::move(deferred.begin()->second);
    deferred.erase(deferred.begin());
    fn();
  }
  if (deferred.empty())
    return std::nullopt;
  return deferred.begin()->first;
}

bool may_send_to(self_ptr self, const topic_partition& tp) {
  auto& eo = self->state.eo;
  if (!eo.transactional)
    return true;
  if (eo.phase != txn_phase::fatal && eo.added.count(tp) > 0)
    return true;
  if (eo.phase == txn_phase::fatal || eo.abortable) {
    auto& q = self->state.queues[tp];
    for (auto& b : q.take_all())
      fail_batch(self, b, eo.phase == txn_phase::fatal ? eo.fatal : eo.abortable);
    return false;
  }
  if (eo.adding.count(tp) == 0)
    eo.to_add.insert(tp); // asked for by pump(), together with the others it finds
  return false;
}

void on_sequence_error(self_ptr self, const sealed_batch& b, sequence_outcome outcome) {
  auto& eo = self->state.eo;
  if (eo.transactional) {
    if (outcome == sequence_outcome::fenced)
      go_fatal(self, caf::make_error(kafka_error::producer_fenced,
                                     "another producer uses transactional id '" + self->state.cfg.transactional_id + "'"));
    else
      eo.bump_after_abort = true; // the record's failure makes the transaction abortable
    return;
  }
  if (b.producer_id == eo.who.id)
    eo.who = producer_identity{}; // later batches: a new producer id, sequences from 0
}

void on_numbered_batch_expired(self_ptr self, const sealed_batch& b) {
  on_sequence_error(self, b, sequence_outcome::broken);
}

caf::error send_refusal(const producer_state& st) {
  auto& eo = st.eo;
  if (!eo.transactional)
    return caf::error{};
  if (eo.phase != txn_phase::in_txn && eo.phase != txn_phase::flushing)
    return not_in_transaction(eo, "send");
  return eo.abortable;
}

void note_record_failure(producer_state& st, const caf::error& err) {
  auto& eo = st.eo;
  if (eo.transactional && !eo.abortable && (eo.phase == txn_phase::in_txn || eo.phase == txn_phase::flushing))
    eo.abortable = err;
}

caf::result<bool> init_transactions(self_ptr self) {
  auto& eo = self->state.eo;
  if (!eo.transactional)
    return caf::make_error(caf::sec::invalid_argument, "init_transactions: the producer has no transactional_id");
  if (eo.phase == txn_phase::fatal)
    return eo.fatal;
  if (eo.phase != txn_phase::uninitialized)
    return caf::make_error(kafka_error::invalid_txn_state, "init_transactions: called before");
  eo.phase = txn_phase::initializing;
  auto rp = self->make_response_promise<bool>();
  get_transactional_id(self, false, [rp](caf::error err) mutable {
    if (err)
      rp.deliver(std::move(err));
    else
      rp.deliver(true);
  });
  return rp;
}

caf::result<bool> begin_transaction(self_ptr self) {
  auto& eo = self->state.eo;
  if (!eo.transactional)
    return caf::make_error(caf::sec::invalid_argument, "begin_transaction: the producer has no transactional_id");
  if (eo.phase == txn_phase::fatal)
    return eo.fatal;
  if (eo.phase != txn_phase::ready)
    return caf::make_error(kafka_error::invalid_txn_state,
                           eo.phase == txn_phase::uninitialized || eo.phase == txn_phase::initializing
                             ? "begin_transaction: init_transactions first"
                             : "begin_transaction: a transaction is open");
  forget_transaction(eo);
  eo.phase = txn_phase::in_txn;
  return true;
}

caf::result<bool> send_offsets(self_ptr self, std::string group, std::vector<group_offset> offsets) {
  auto& eo = self->state.eo;
  if (!eo.transactional || eo.phase != txn_phase::in_txn)
    return not_in_transaction(eo, "send_offsets");
  if (eo.abortable)
    return eo.abortable;
  if (group.empty())
    return caf::make_error(kafka_error::invalid_group_id, "send_offsets: empty group id");
  auto rp = self->make_response_promise<bool>();
  txn_request req;
  req.what = txn_request::kind::add_offsets;
  req.group_id = group;
  change_txn(self, std::move(req), [=](int16_t code) mutable {
    auto& eo = self->state.eo;
    if (code != 0) {
      auto err = code_error(code, "AddOffsetsToTxn for group '" + group + "'");
      txn_request_failed(self, err, classify_coordinator_code(code) == coordinator_outcome::fenced);
      rp.deliver(std::move(err));
      return;
    }
    eo.group_added = true;
    commit_txn_offsets(self, group, std::move(offsets), self->clock().now() + self->state.cfg.delivery_timeout, 0,
                       rp);
  });
  return rp;
}

caf::result<bool> end_transaction(self_ptr self, bool commit) {
  auto& eo = self->state.eo;
  if (!eo.transactional || eo.phase != txn_phase::in_txn)
    return not_in_transaction(eo, commit ? "commit_transaction" : "abort_transaction");
  if (commit && eo.abortable)
    return eo.abortable;
  eo.phase = txn_phase::flushing;
  auto rp = self->make_response_promise<bool>();
  // Every record sent so far is acknowledged or failed first (a flush to itself).
  auto& cfg = self->state.cfg;
  self->request(caf::actor_cast<producer_actor>(self), 2 * cfg.delivery_timeout + cfg.request_timeout,
                caf::flush_atom_v)
    .then(
      [=](bool) mutable {
        auto& eo = self->state.eo;
        if (eo.phase == txn_phase::fatal) {
          rp.deliver(eo.fatal);
          return;
        }
        if (commit && eo.abortable) {
          eo.phase = txn_phase::in_txn;
          rp.deliver(eo.abortable);
          return;
        }
        eo.phase = txn_phase::ending;
        send_end_txn(self, commit, rp);
      },
      [=](caf::error& err) mutable {
        self->state.eo.phase = txn_phase::in_txn;
        rp.deliver(std::move(err));
      });
  return rp;
}

} // namespace cafka::client::detail
