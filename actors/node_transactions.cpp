// The node actor's part in transactions (docs/transactions.md): where a transactional id's
// coordinator is, the __transaction_state partitions this broker leads (handed to its
// transaction coordinator, actors/txn_coordinator.hpp), and the markers coordinators write,
// to a partition led here or relayed to its leader's broker.
#include "actors/cluster_member.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/node_actor_state.hpp"
#include "actors/node_storage.hpp"
#include "actors/offsets_store.hpp"
#include "actors/producer_id_issuer.hpp"
#include "actors/replicated_offsets.hpp"
#include "actors/routing_table.hpp"
#include "actors/txn_coordinator.hpp"
#include "cluster/group_coordinator_location.hpp"
#include "cluster/internal_topics.hpp"
#include "cluster/offset_records.hpp"
#include "cluster/txn_metadata.hpp"

namespace cafka {

namespace {

int32_t txn_partition_count(self_ptr self) {
  std::string name{cluster::transaction_state_topic};
  if (clustered(self)) {
    auto* topic = self->state.applied->view.topic(name);
    return topic == nullptr ? 0 : static_cast<int32_t>(topic->partitions.size());
  }
  auto& topics = self->state.ctx.storage->topics;
  auto it = topics.find(name);
  return it == topics.end() ? 0 : it->second.partitions;
}

} // namespace

void lead_txn_partition(self_ptr self, int32_t p, partition_actor replica, int32_t leader_epoch) {
  if (auto& coordinator = self->state.ctx.txn_coordinator)
    caf::anon_send(coordinator, txn_lead_atom::value, p, txn_partition_count(self), std::move(replica), leader_epoch,
                   caf::actor_cast<node_actor>(self));
}

void leave_txn_partition(self_ptr self, int32_t p) {
  if (auto& coordinator = self->state.ctx.txn_coordinator)
    caf::anon_send(coordinator, txn_leave_atom::value, p);
}

void lead_txn_partitions_alone(self_ptr self) {
  auto& st = self->state;
  if (st.unregistered.count(std::string{cluster::transaction_state_topic}) > 0)
    return;
  for (auto& [tp, actor] : st.partitions)
    if (tp.topic == cluster::transaction_state_topic)
      lead_txn_partition(self, tp.partition, actor, 0);
}

caf::result<broker_info> find_txn_coordinator(self_ptr self, const std::string& transactional_id) {
  auto& st = self->state;
  auto unavailable = [](const std::string& why) { return caf::make_error(kafka_error::coordinator_not_available, why); };
  if (!clustered(self)) {
    std::string name{cluster::transaction_state_topic};
    if (st.ctx.storage->topics.count(name) == 0) {
      create_txn_topic_alone(self);
      return unavailable("the transaction state topic is being created");
    }
    if (st.unregistered.count(name) > 0)
      return unavailable("the transaction state topic is being created");
    return this_broker(st.ctx.storage->config);
  }
  auto where = cluster::locate_txn_coordinator(st.applied->view, transactional_id);
  if (!where.topic_exists()) { // as Kafka: created on the first lookup
    caf::anon_send(st.member, ensure_txn_topic_atom::value);
    return unavailable("the transaction state topic is being created");
  }
  if (!where.available())
    return unavailable("the transactional id's partition of __transaction_state has no live leader");
  return broker_info{where.broker->id, where.broker->host, where.broker->kafka_port, where.broker->caf_port};
}

namespace {

constexpr auto coordinator_timeout = std::chrono::seconds(60);

int16_t code_of(kafka_error e) { return protocol::wire_code(e); }

} // namespace

// As the listener's InitProducerId (kafka_serve_admin.cpp, kafka_serve_txn.cpp) answers it.
caf::result<producer_id_answer> init_producer_id(self_ptr self, producer_id_request& req) {
  auto& ctx = self->state.ctx;
  auto refused = [](kafka_error e) { return producer_id_answer{code_of(e), -1, -1}; };
  if ((req.producer_id < 0) != (req.producer_epoch < 0))
    return refused(kafka_error::invalid_request);
  auto rp = self->make_response_promise<producer_id_answer>();
  auto unavailable = [rp, refused](caf::error& err) mutable {
    log_line(log_level::info, log_component::transactions, "InitProducerId: %s", describe(err).c_str());
    rp.deliver(refused(kafka_error::coordinator_not_available));
  };
  if (req.transactional_id.empty()) {
    if (!ctx.producer_ids)
      return refused(kafka_error::coordinator_not_available);
    self->request(ctx.producer_ids, coordinator_timeout, next_producer_id_atom::value)
      .then([rp](int64_t id) mutable { rp.deliver(producer_id_answer{0, id, 0}); }, unavailable);
    return rp;
  }
  if (req.transactional_id.size() > static_cast<size_t>(INT16_MAX))
    return refused(kafka_error::invalid_request);
  if (!ctx.txn_coordinator)
    return refused(kafka_error::coordinator_not_available);
  txn_init_request ask{std::move(req.transactional_id), req.transaction_timeout_ms, req.producer_id,
                       req.producer_epoch};
  self->request(ctx.txn_coordinator, coordinator_timeout, txn_init_atom::value, std::move(ask))
    .then([rp](txn_init_answer& a) mutable { rp.deliver(producer_id_answer{a.error_code, a.producer_id, a.producer_epoch}); },
          unavailable);
  return rp;
}

// As the listener's AddPartitionsToTxn / AddOffsetsToTxn / EndTxn (kafka_serve_txn.cpp).
caf::result<int16_t> change_transaction(self_ptr self, txn_request& req) {
  auto& ctx = self->state.ctx;
  if (!ctx.txn_coordinator)
    return code_of(kafka_error::coordinator_not_available);
  txn_change_request change{txn_change_request::kind::add_partitions, std::move(req.transactional_id),
                            req.producer_id, req.producer_epoch, {}, req.commit};
  switch (req.what) {
    case txn_request::kind::add_partitions:
      for (auto& tp : req.partitions) {
        auto exists = ctx.routes->find(tp) || ctx.routes->miss_error(tp) != kafka_error::unknown_topic_or_partition;
        if (cluster::is_internal_topic(tp.topic) || !exists)
          return code_of(kafka_error::unknown_topic_or_partition);
        change.partitions[tp.topic].insert(tp.partition);
      }
      break;
    case txn_request::kind::add_offsets: {
      auto partition = ctx.offset_store ? ctx.offset_store->partition_of(req.group_id) : -1;
      if (partition < 0)
        return code_of(kafka_error::coordinator_not_available);
      change.partitions[std::string{cluster::offsets_topic_name}].insert(partition);
      break;
    }
    case txn_request::kind::end:
      change.what = txn_change_request::kind::end;
      break;
  }
  auto rp = self->make_response_promise<int16_t>();
  self->request(ctx.txn_coordinator, coordinator_timeout, txn_change_atom::value, std::move(change))
    .then([rp](int16_t code) mutable { rp.deliver(code); },
          [rp](caf::error&) mutable { rp.deliver(code_of(kafka_error::coordinator_not_available)); });
  return rp;
}

namespace {

// The marker's answer as `dest` gives it.
template <class Dest, class... Msg>
caf::result<produce_result> answered_by(self_ptr self, const Dest& dest, caf::timespan timeout, Msg... msg) {
  auto rp = self->make_response_promise<produce_result>();
  self->request(dest, timeout, msg...)
    .then([rp](produce_result& r) mutable { rp.deliver(std::move(r)); },
          [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
  return rp;
}

// A marker for a __consumer_offsets partition whose groups this broker coordinates: written
// by the offsets store, which then applies or drops the producer's pending offset commits.
caf::result<produce_result> write_offsets_marker(self_ptr self, const topic_partition& tp, const txn_marker_request& req) {
  auto rp = self->make_response_promise<produce_result>();
  self->state.ctx.offset_store->write_txn_marker(tp.partition, req.producer_id, req.producer_epoch, req.commit,
                                                 req.coordinator_epoch, self->state.ctx.now_ms(),
                                                 [rp](kafka_error e) mutable {
                                                   if (e == kafka_error::none)
                                                     rp.deliver(produce_result{});
                                                   else
                                                     rp.deliver(caf::make_error(e));
                                                 });
  return rp;
}

} // namespace

caf::result<produce_result> write_txn_marker(self_ptr self, const topic_partition& tp, const txn_marker_request& req,
                                             bool may_relay) {
  auto& st = self->state;
  if (tp.topic == cluster::offsets_topic_name && st.ctx.offset_store
      && (!clustered(self) || (st.ctx.offsets && st.ctx.offsets->serves(tp.partition))))
    return write_offsets_marker(self, tp, req);
  auto timeout = std::chrono::milliseconds(req.timeout_ms) + std::chrono::seconds(5);
  if (auto local = st.partitions.find(tp); local != st.partitions.end())
    return answered_by(self, local->second, timeout, txn_marker_atom_v, req);
  auto leader = clustered(self) ? recorded_leader(self, tp) : cluster::no_broker;
  if (!may_relay || leader == cluster::no_broker || leader == my_id(self))
    return miss(self, tp);
  return answered_by(self, st.member, timeout + std::chrono::seconds(5), txn_marker_atom_v, leader, tp, req);
}

} // namespace cafka
