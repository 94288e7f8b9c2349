#include "client/producer.hpp"

#include <memory>

#include <caf/all.hpp>

namespace cafka::client {

namespace {

caf::error closed_error() {
  return caf::make_error(caf::sec::request_receiver_down, "producer is closed");
}

producer_record make_record(std::string topic, std::optional<std::string> key, std::optional<std::string> value,
                            std::vector<protocol::record_header> headers, std::optional<int64_t> timestamp) {
  producer_record rec;
  rec.topic = std::move(topic);
  rec.key = std::move(key);
  rec.value = std::move(value);
  rec.headers = std::move(headers);
  rec.timestamp = timestamp;
  return rec;
}

} // namespace

producer::producer(caf::actor_system& sys, producer_config cfg)
  : sys_(sys),
    cfg_(cfg),
    buffer_(std::make_shared<send_buffer>()),
    actor_(spawn_producer(sys, node_actor{}, std::move(cfg), buffer_)) {
}

producer::producer(caf::actor_system& sys, node_actor node, producer_config cfg)
  : sys_(sys),
    cfg_(cfg),
    buffer_(std::make_shared<send_buffer>()),
    actor_(spawn_producer(sys, std::move(node), std::move(cfg), buffer_)) {
}

producer::~producer() {
  close();
}

void producer::send(producer_record rec, send_callback done) {
  record_completion cb{std::move(done)};
  if (closed_.load()) {
    cb(closed_error());
    return;
  }
  // The actor system's clock, as the actor's: simulated under CAF's testing scheduler.
  switch (buffer_->push(rec, cb, sys_.clock().now())) {
    case send_buffer::push_result::notify:
      caf::anon_send(actor_, drain_atom_v);
      break;
    case send_buffer::push_result::queued:
      break;
    case send_buffer::push_result::closed: // the actor is gone
      cb(closed_error());
      break;
  }
}

void producer::send(std::vector<producer_record> recs, bulk_callback done) {
  if (recs.empty())
    return;
  auto n = recs.size();
  auto shared = std::make_shared<const bulk_callback>(std::move(done));
  auto fail_all = [&] {
    caf::expected<record_metadata> err{closed_error()};
    for (size_t i = 0; i < n; ++i)
      (*shared)(i, err);
  };
  if (closed_.load()) {
    fail_all();
    return;
  }
  switch (buffer_->push(recs, shared, sys_.clock().now())) {
    case send_buffer::push_result::notify:
      caf::anon_send(actor_, drain_atom_v);
      break;
    case send_buffer::push_result::queued:
      break;
    case send_buffer::push_result::closed: // the actor is gone
      fail_all();
      break;
  }
}

producer::result_future producer::send(producer_record rec) {
  auto promise = std::make_shared<std::promise<caf::expected<record_metadata>>>();
  auto fut = promise->get_future();
  send(std::move(rec), [promise](caf::expected<record_metadata> res) { promise->set_value(std::move(res)); });
  return fut;
}

producer::result_future producer::send(std::string topic, std::optional<std::string> key,
                                       std::optional<std::string> value,
                                       std::vector<protocol::record_header> headers,
                                       std::optional<int64_t> timestamp) {
  return send(make_record(std::move(topic), std::move(key), std::move(value), std::move(headers), timestamp));
}

caf::expected<int64_t> producer::send_sync(producer_record rec) {
  auto fut = send(std::move(rec));
  // The actor answers within delivery_timeout (plus one request); the margin guards
  // against a lost answer.
  auto limit = cfg_.delivery_timeout + cfg_.request_timeout + std::chrono::seconds(5);
  if (fut.wait_for(limit) != std::future_status::ready)
    return caf::make_error(caf::sec::request_timeout, "send_sync: no answer from the producer");
  auto res = fut.get();
  if (!res)
    return res.error();
  return res->offset;
}

caf::expected<int64_t> producer::send_sync(std::string topic, std::optional<std::string> key,
                                           std::optional<std::string> value,
                                           std::vector<protocol::record_header> headers,
                                           std::optional<int64_t> timestamp) {
  return send_sync(make_record(std::move(topic), std::move(key), std::move(value), std::move(headers), timestamp));
}

caf::error producer::flush() {
  if (closed_.load())
    return closed_error();
  caf::error out;
  caf::scoped_actor self{sys_};
  self->request(actor_, cfg_.delivery_timeout + cfg_.request_timeout + std::chrono::seconds(5), caf::flush_atom_v)
    .receive(
      [&](bool ok) {
        if (!ok)
          out = closed_error();
      },
      [&](caf::error& err) { out = std::move(err); });
  return out;
}

namespace {

// Asks the producer actor and BLOCKS for its answer (true, or the error).
template <class... Ts>
caf::error ask_blocking(caf::actor_system& sys, const producer_actor& actor, caf::timespan timeout, Ts&&... xs) {
  caf::error out;
  caf::scoped_actor self{sys};
  self->request(actor, timeout, std::forward<Ts>(xs)...)
    .receive([](bool) {}, [&](caf::error& err) { out = std::move(err); });
  return out;
}

} // namespace

// Each waits as long as the actor may take: a commit flushes (delivery_timeout) and then
// asks the coordinator (request_timeout per attempt, retried within delivery_timeout).
template <class... Ts>
caf::error producer::ask_transaction(std::chrono::milliseconds timeout, Ts&&... xs) {
  if (closed_.load())
    return closed_error();
  return ask_blocking(sys_, actor_, timeout, std::forward<Ts>(xs)...);
}

caf::error producer::init_transactions() {
  return ask_transaction(cfg_.delivery_timeout + cfg_.request_timeout, init_transactions_atom_v);
}

caf::error producer::begin_transaction() {
  return ask_transaction(cfg_.request_timeout, begin_txn_atom_v);
}

caf::error producer::send_offsets_to_transaction(std::vector<group_offset> offsets, const std::string& group_id) {
  return ask_transaction(cfg_.delivery_timeout + cfg_.request_timeout, send_offsets_atom_v, group_id,
                         std::move(offsets));
}

caf::error producer::commit_transaction() {
  return ask_transaction(2 * cfg_.delivery_timeout + cfg_.request_timeout, commit_txn_atom_v);
}

caf::error producer::abort_transaction() {
  return ask_transaction(2 * cfg_.delivery_timeout + cfg_.request_timeout, abort_txn_atom_v);
}

void producer::close(std::chrono::milliseconds timeout) {
  if (closed_.exchange(true))
    return;
  caf::scoped_actor self{sys_};
  self->request(actor_, timeout, caf::flush_atom_v).receive([](bool) {}, [](caf::error&) {});
  self->monitor(actor_);
  caf::anon_send_exit(actor_, caf::exit_reason::user_shutdown);
  bool down = false;
  self->receive_while([&] { return !down; })(
    [&](caf::down_msg& dm) {
      if (dm.source == actor_.address())
        down = true;
    },
    caf::after(timeout) >> [&] { down = true; });
}

} // namespace cafka::client
