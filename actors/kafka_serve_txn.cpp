// The transactional producer's requests (docs/transactions.md): InitProducerId with a
// transactional id, AddPartitionsToTxn and EndTxn, answered by the node's transaction
// coordinator (actors/txn_coordinator.hpp), and FindCoordinator for a transactional id.
#include <chrono>
#include <cstdint>
#include <set>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/kafka_serve_groups.hpp"
#include "actors/log_line.hpp"
#include "actors/offsets_store.hpp"
#include "actors/routing_table.hpp"
#include "actors/txn_coordinator.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/offset_records.hpp"

namespace cafka {

namespace {

constexpr auto coordinator_timeout = std::chrono::seconds(60);

// PRODUCER_FENCED is known to clients from InitProducerId v4 and AddPartitionsToTxn /
// EndTxn v2; below, Kafka answers INVALID_PRODUCER_EPOCH (KafkaApis).
int16_t fenced_for(int16_t code, int16_t version, int16_t knows_fenced_from) {
  auto fenced = protocol::wire_code(kafka_error::producer_fenced);
  return code == fenced && version < knows_fenced_from ? protocol::wire_code(kafka_error::invalid_producer_epoch)
                                                       : code;
}

// The coordinator's answer to a failed request (it is gone: the node stops).
int16_t coordinator_gone(const caf::error& err) {
  log_line(log_level::info, log_component::transactions, "transaction coordinator: %s", describe(err).c_str());
  return protocol::wire_code(kafka_error::coordinator_not_available);
}

// Has `call` (which answers through its callback, maybe on another thread) run by a
// short-lived actor, so that `then` runs on the listener's thread with the answer. The
// helper delivers the answer on its own thread and quits then, whether or not the listener
// is still there to take it (a stopping broker must not wait for it).
void ask_store(const kafka_services& s, std::function<void(offsets_store::commit_done)> call,
               std::function<void(int16_t)> then) {
  auto helper = s.self->spawn([call](caf::event_based_actor* self) -> caf::behavior {
    auto promise = std::make_shared<caf::response_promise>();
    return {
      [=](caf::get_atom) {
        *promise = self->make_response_promise();
        auto me = caf::actor_cast<caf::actor>(self);
        call([me](kafka_error e) { caf::anon_send(me, caf::ok_atom_v, protocol::wire_code(e)); });
        return *promise;
      },
      [=](caf::ok_atom, int16_t code) {
        promise->deliver(code);
        self->quit();
      },
    };
  });
  s.self->request(helper, coordinator_timeout, caf::get_atom_v)
    .then([then](int16_t code) { then(code); }, [then](caf::error& err) { then(coordinator_gone(err)); });
}

// A change of a transaction, decided by the coordinator; `answer` gets its error code
// (COORDINATOR_NOT_AVAILABLE when there is no coordinator).
void change_txn(const kafka_services& s, txn_change_request change, std::function<void(int16_t)> answer) {
  if (!s.txn_coordinator)
    return answer(protocol::wire_code(kafka_error::coordinator_not_available));
  s.self->request(s.txn_coordinator, coordinator_timeout, txn_change_atom::value, std::move(change))
    .then([answer](int16_t code) { answer(code); }, [answer](caf::error& err) { answer(coordinator_gone(err)); });
}

// The answer of AddOffsetsToTxn and EndTxn (the same layout; PRODUCER_FENCED from v2).
std::function<void(int16_t)> txn_error_answer(const kafka_reply& reply) {
  auto version = reply.version();
  return [reply, version](int16_t code) {
    wire::txn_error_response resp;
    resp.error_code = fenced_for(code, version, 2);
    reply.send([&](wire::byte_writer& w) { wire::encode_txn_error_response(resp, version, w); });
  };
}

} // namespace

void serve_txn_init(const kafka_services& s, wire::init_producer_id_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto answer = [reply, version](wire::init_producer_id_response resp) {
    resp.error_code = fenced_for(resp.error_code, version, 4);
    reply.send([&](wire::byte_writer& w) { wire::encode_init_producer_id_response(resp, version, w); });
  };
  wire::init_producer_id_response resp;
  // An id __transaction_state's key (an i16-length STRING) cannot hold is refused too: a
  // compact string of a flexible version may be longer.
  auto& id = *req.transactional_id;
  if (id.empty() || id.size() > static_cast<size_t>(INT16_MAX) || !s.txn_coordinator) {
    resp.error_code = protocol::wire_code(s.txn_coordinator ? kafka_error::invalid_request
                                                            : kafka_error::coordinator_not_available);
    return answer(resp);
  }
  txn_init_request ask{std::move(*req.transactional_id), req.transaction_timeout_ms, req.producer_id,
                       req.producer_epoch};
  s.self->request(s.txn_coordinator, coordinator_timeout, txn_init_atom::value, std::move(ask))
    .then(
      [answer](txn_init_answer& a) {
        wire::init_producer_id_response out;
        out.error_code = a.error_code;
        out.producer_id = a.producer_id;
        out.producer_epoch = a.producer_epoch;
        answer(out);
      },
      [answer](caf::error& err) {
        wire::init_producer_id_response failed;
        failed.error_code = coordinator_gone(err);
        answer(failed);
      });
}

void serve_txn_find_coordinator(const kafka_services& s, const std::string& transactional_id,
                                std::function<void(wire::find_coordinator_response)> answer) {
  wire::find_coordinator_response resp;
  s.self->request(*s.node, coordinator_timeout, find_txn_coordinator_atom_v, transactional_id)
    .then(
      [=](broker_info& b) mutable {
        resp.node_id = b.id;
        resp.host = b.id == s.broker_id ? s.host : b.host; // this listener's own address for itself
        resp.port = b.id == s.broker_id ? s.port : b.kafka_port;
        answer(resp);
      },
      [=](caf::error& err) mutable {
        resp.error_code = protocol::wire_code(group_error(err)); // a lost node: retriable
        resp.error_message = describe(err);
        resp.node_id = -1;
        resp.port = -1;
        answer(resp);
      });
}

void serve(const kafka_services& s, wire::add_partitions_to_txn_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  // One error for every partition (the coordinator's, or the refusal of unknown topics).
  auto answer = [reply, version, topics = req.topics](int16_t code, const std::set<topic_partition>& unknown) {
    wire::add_partitions_to_txn_response resp;
    for (auto& t : topics) {
      wire::txn_topic_errors out{t.name, {}};
      for (auto p : t.partitions) {
        auto e = unknown.empty() ? fenced_for(code, version, 2)
                 : unknown.count(topic_partition{t.name, p}) > 0
                   ? protocol::wire_code(kafka_error::unknown_topic_or_partition)
                   : protocol::wire_code(kafka_error::operation_not_attempted);
        out.partitions.push_back({p, e});
      }
      resp.results.push_back(std::move(out));
    }
    reply.send([&](wire::byte_writer& w) { wire::encode_add_partitions_to_txn_response(resp, version, w); });
  };
  // As Kafka: partitions of unknown topics (and of internal ones, which only AddOffsetsToTxn
  // adds) are refused and nothing is added.
  std::set<topic_partition> unknown;
  txn_change_request change{txn_change_request::kind::add_partitions, req.transactional_id, req.producer_id,
                            req.producer_epoch, {}, false};
  for (auto& t : req.topics)
    for (auto p : t.partitions) {
      topic_partition tp{t.name, p};
      auto exists = s.routes->find(tp) || s.routes->miss_error(tp) != kafka_error::unknown_topic_or_partition;
      if (cluster::is_internal_topic(t.name) || !exists)
        unknown.insert(tp);
      change.partitions[t.name].insert(p);
    }
  if (!unknown.empty())
    return answer(0, unknown);
  change_txn(s, std::move(change), [answer](int16_t code) { answer(code, {}); });
}

void serve(const kafka_services& s, wire::end_txn_request&& req, const kafka_reply& reply) {
  change_txn(s,
             txn_change_request{txn_change_request::kind::end, std::move(req.transactional_id), req.producer_id,
                                req.producer_epoch, {}, req.committed},
             txn_error_answer(reply));
}

void serve(const kafka_services& s, wire::add_offsets_to_txn_request&& req, const kafka_reply& reply) {
  auto answer = txn_error_answer(reply);
  auto partition = s.offsets ? s.offsets->partition_of(req.group_id) : -1;
  if (partition < 0) // (in a cluster: __consumer_offsets does not exist yet)
    return answer(protocol::wire_code(kafka_error::coordinator_not_available));
  // As Kafka: the group's __consumer_offsets partition joins the transaction, so that the
  // coordinator's marker reaches the offsets TxnOffsetCommit leaves pending there.
  txn_change_request change{txn_change_request::kind::add_partitions, std::move(req.transactional_id),
                            req.producer_id, req.producer_epoch, {}, false};
  change.partitions[std::string{cluster::offsets_topic_name}].insert(partition);
  change_txn(s, std::move(change), answer);
}

void serve(const kafka_services& s, wire::txn_offset_commit_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto answer = [reply, version, topics = req.topics](int16_t code) {
    wire::add_partitions_to_txn_response resp;
    for (auto& t : topics) {
      wire::txn_topic_errors out{t.name, {}};
      for (auto& p : t.partitions)
        out.partitions.push_back({p.partition_index, code});
      resp.results.push_back(std::move(out));
    }
    reply.send([&](wire::byte_writer& w) { wire::encode_txn_offset_commit_response(resp, version, w); });
  };
  if (req.group_id.empty())
    return answer(protocol::wire_code(kafka_error::invalid_group_id));
  if (!s.offsets)
    return answer(protocol::wire_code(kafka_error::coordinator_not_available));
  if (auto e = coordinator_error(s, req.group_id); e != kafka_error::none)
    return answer(protocol::wire_code(e));
  // The group gets its actor as a commit gives it one: OffsetFetch and ListGroups ask it.
  if (s.groups)
    s.groups->find_or_spawn(req.group_id);
  std::vector<group_offset> offsets;
  for (auto& t : req.topics)
    for (auto& p : t.partitions)
      offsets.push_back({topic_partition{t.name, p.partition_index}, p.committed_offset, p.committed_leader_epoch,
                         p.committed_metadata.value_or("")});
  auto store = s.offsets;
  auto now = s.now_ms();
  ask_store(
    s,
    [store, group = std::move(req.group_id), pid = req.producer_id, epoch = req.producer_epoch,
     offsets = std::move(offsets), now](offsets_store::commit_done done) mutable {
      store->commit_txn(group, pid, epoch, std::move(offsets), now, std::move(done));
    },
    answer);
}

namespace {

wire::described_transaction to_wire(txn_description&& d) {
  wire::described_transaction out;
  out.error_code = d.error_code;
  out.transactional_id = std::move(d.transactional_id);
  if (d.error_code != 0)
    return out;
  auto& m = d.metadata;
  out.transaction_state = cluster::to_string(m.status);
  out.transaction_timeout_ms = m.timeout_ms;
  out.transaction_start_time_ms = m.start_ms;
  out.producer_id = m.producer_id;
  out.producer_epoch = m.producer_epoch;
  for (auto& [topic, partitions] : m.partitions)
    out.topics.push_back({topic, std::vector<int32_t>(partitions.begin(), partitions.end())});
  return out;
}

} // namespace

void serve(const kafka_services& s, wire::describe_transactions_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto answer = [reply, version](wire::describe_transactions_response resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_describe_transactions_response(resp, version, w); });
  };
  auto ids = req.transactional_ids;
  auto unavailable = [answer, ids](int16_t code) {
    wire::describe_transactions_response resp;
    for (auto& id : ids)
      resp.transaction_states.push_back({code, id, "", 0, -1, -1, -1, {}});
    answer(resp);
  };
  if (!s.txn_coordinator)
    return unavailable(protocol::wire_code(kafka_error::coordinator_not_available));
  s.self->request(s.txn_coordinator, coordinator_timeout, txn_describe_atom::value, std::move(req.transactional_ids))
    .then(
      [answer](std::vector<txn_description>& found) {
        wire::describe_transactions_response resp;
        for (auto& d : found)
          resp.transaction_states.push_back(to_wire(std::move(d)));
        answer(resp);
      },
      [unavailable](caf::error& err) { unavailable(coordinator_gone(err)); });
}

void serve(const kafka_services& s, wire::list_transactions_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto answer = [reply, version](wire::list_transactions_response resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_list_transactions_response(resp, version, w); });
  };
  wire::list_transactions_response resp;
  std::set<std::string> states;
  for (auto& f : req.state_filters) {
    bool known = false;
    for (int8_t v = 0; v <= static_cast<int8_t>(cluster::txn_status::dead); ++v)
      known = known || f == cluster::to_string(static_cast<cluster::txn_status>(v));
    if (known)
      states.insert(f);
    else
      resp.unknown_state_filters.push_back(f);
  }
  if (!s.txn_coordinator) {
    resp.error_code = protocol::wire_code(kafka_error::coordinator_not_available);
    return answer(resp);
  }
  std::set<int64_t> producers(req.producer_id_filters.begin(), req.producer_id_filters.end());
  auto filtered = !req.state_filters.empty();
  auto now = s.now_ms();
  auto duration = req.duration_filter;
  s.self->request(s.txn_coordinator, coordinator_timeout, txn_list_atom::value)
    .then(
      [=](std::vector<txn_description>& found) mutable {
        for (auto& d : found) {
          auto& m = d.metadata;
          auto state = cluster::to_string(m.status);
          if ((filtered && states.count(state) == 0) || (!producers.empty() && producers.count(m.producer_id) == 0))
            continue;
          if (duration >= 0 && (m.start_ms < 0 || now - m.start_ms < duration))
            continue;
          resp.transaction_states.push_back({d.transactional_id, m.producer_id, state});
        }
        answer(resp);
      },
      [=](caf::error& err) mutable {
        resp.error_code = coordinator_gone(err);
        answer(resp);
      });
}

} // namespace cafka
