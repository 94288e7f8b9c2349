#include "client/producer.hpp"

#include <memory>

#include <caf/all.hpp>

namespace cafka::client {

namespace {

caf::error closed_error() {
  return caf::make_error(caf::sec::request_receiver_down, "producer is closed");
}

// Calls the callback exactly once: with the result, or with an error if the callback is
// destroyed unused (the producer actor was gone and dropped the message).
class once_callback {
public:
  explicit once_callback(send_callback f) : f_(std::move(f)) {}
  ~once_callback() {
    if (f_)
      f_(caf::make_error(caf::sec::request_receiver_down, "producer stopped before the record was sent"));
  }
  once_callback(const once_callback&) = delete;
  once_callback& operator=(const once_callback&) = delete;
  void operator()(caf::expected<record_metadata> res) {
    auto f = std::move(f_);
    f_ = nullptr;
    if (f)
      f(std::move(res));
  }

private:
  send_callback f_;
};

send_callback guarded(send_callback f) {
  auto holder = std::make_shared<once_callback>(std::move(f));
  return [holder](caf::expected<record_metadata> res) { (*holder)(std::move(res)); };
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
  : sys_(sys), cfg_(cfg), actor_(spawn_producer(sys, std::move(cfg))) {
}

producer::producer(caf::actor_system& sys, node_actor node, producer_config cfg)
  : sys_(sys), cfg_(cfg), actor_(spawn_producer(sys, std::move(node), std::move(cfg))) {
}

producer::~producer() {
  close();
}

void producer::send(producer_record rec, send_callback done) {
  auto cb = guarded(std::move(done));
  if (closed_.load()) {
    cb(closed_error());
    return;
  }
  caf::anon_send(actor_, send_atom_v, std::move(rec), std::move(cb));
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
