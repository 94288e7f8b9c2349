#include "actors/kafka_listener.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <set>
#include <variant>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/kafka_connection.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/log_line.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/request.hpp"

namespace cafka {

namespace {

// Bytes asked of the socket per read: large enough that a 1 MiB produce request takes
// a handful of reads, small enough that an idle connection's buffer stays small.
constexpr uint32_t read_chunk_bytes = 256 * 1024;

using resume_atom = caf::atom_constant<caf::atom("klresume")>;
using idle_check_atom = caf::atom_constant<caf::atom("klidle")>;
using retrigger_atom = caf::atom_constant<caf::atom("klretrig")>;
using unmute_atom = caf::atom_constant<caf::atom("klunmute")>;

struct listener_state;
using listener_ptr = caf::stateful_actor<listener_state, caf::io::broker>*;

// Answers lower the load; halted connections are looked at again in a message of their
// own (never from inside the reply that answered, which may run while a frame is served).
struct load_tracker final : connection_events {
  listener_ptr self = nullptr;
  listener_load load;
  std::set<caf::io::connection_handle> halted;
  bool resume_scheduled = false;

  void answered(kafka_connection& conn, uint64_t request_bytes) override;
  int32_t throttle(kafka_connection& conn, cluster::quota_kind kind, double value) override;
  void schedule_resume();
};

struct listener_state {
  static inline const char* name = "cafka.kafka-listener";
  kafka_services services;
  std::string listener_name;
  size_t max_request_bytes = 0;
  std::map<caf::io::connection_handle, std::shared_ptr<kafka_connection>> conns;
  std::unique_ptr<load_tracker> tracker = std::make_unique<load_tracker>();
  kafka_listener_context limits;
  metrics::listener_counters* connection_counters = nullptr; ///< null without metrics

  ~listener_state() { // replies still held elsewhere must not tell a listener that is gone
    for (auto& [_, conn] : conns) {
      conn->events = nullptr;
      conn->open = false;
    }
  }
};

void load_tracker::schedule_resume() {
  if (halted.empty() || resume_scheduled)
    return;
  resume_scheduled = true;
  self->send(self, resume_atom::value);
}

void load_tracker::answered(kafka_connection& conn, uint64_t request_bytes) {
  load.requests -= 1;
  load.request_bytes -= request_bytes;
  conn.unanswered_request_bytes -= request_bytes;
  schedule_resume();
}

// Kafka's throttling (KIP-219): the response goes out at once with throttle_time_ms, and the
// connection is not read from until the time is over (librdkafka and kafka-python do not
// wait by themselves: this is what slows them).
int32_t load_tracker::throttle(kafka_connection& conn, cluster::quota_kind kind, double value) {
  auto& st = self->state;
  if (!st.limits.quotas)
    return 0;
  auto now = st.limits.now_ms();
  auto ms = st.limits.quotas->record(kind, cluster::anonymous_user, conn.client_id, value, now);
  if (ms <= 0)
    return 0;
  conn.muted_until_ms = std::max(conn.muted_until_ms, now + ms);
  return static_cast<int32_t>(std::min<int64_t>(ms, INT32_MAX));
}

std::string peer_of(listener_ptr self, caf::io::connection_handle hdl) {
  return self->remote_addr(hdl) + ":" + std::to_string(self->remote_port(hdl));
}

// The connection is gone: its unanswered requests no longer count, its replies do nothing.
void forget(listener_ptr self, const std::shared_ptr<kafka_connection>& conn) {
  auto& st = self->state;
  auto& load = st.tracker->load;
  load.requests -= std::min(load.requests, conn->order.in_flight());
  load.request_bytes -= std::min(load.request_bytes, conn->unanswered_request_bytes);
  conn->open = false;
  conn->events = nullptr;
  st.tracker->halted.erase(conn->hdl);
  st.limits.connections->release(conn->peer_host.substr(1)); // "/<ip>"
  if (st.connection_counters)
    ++st.connection_counters->closed;
  st.conns.erase(conn->hdl);
  forget_connection(st.services, static_cast<uint64_t>(conn->hdl.id()));
  st.tracker->schedule_resume(); // the listener's load went down
}

// Closes `conn` with the one log line that says why.
void close_connection(listener_ptr self, const std::shared_ptr<kafka_connection>& conn, const std::string& why) {
  log_line(log_level::info, log_component::listener, "kafka listener %s: closing %s: %s", self->state.listener_name.c_str(), peer_of(self, conn->hdl).c_str(),
           why.c_str());
  self->close(conn->hdl);
  forget(self, conn);
}

std::string request_name(int16_t key, int16_t version) {
  return std::string{wire::api_name(key)} + " (key " + std::to_string(key) + ") v" + std::to_string(version);
}

// A reply to the request in `frame`; it counts in the load until it is answered.
kafka_reply make_reply(listener_ptr self, const std::shared_ptr<kafka_connection>& conn,
                       const wire::request_header& header, wire::bytes_view frame) {
  auto& load = self->state.tracker->load;
  load.requests += 1;
  load.request_bytes += frame.size();
  conn->unanswered_request_bytes += frame.size();
  return kafka_reply{self, conn, header, frame.size()};
}

// Serves one request frame; a non-empty answer says why the connection must close.
std::string serve_frame(listener_ptr self, const std::shared_ptr<kafka_connection>& conn, wire::bytes_view frame) {
  wire::byte_reader r{frame};
  auto header = wire::decode_request_header(r);
  if (!header)
    return "malformed request header (" + header.error().message() + ")";
  auto key = header->api_key;
  auto version = header->api_version;
  auto range = wire::find_advertised(key);
  if (key == static_cast<int16_t>(wire::api_key::api_versions) && range
      && (version < 0 || version > range->max_version)) {
    // Kafka's rule: an ApiVersions version we do not know gets the v0 layout, error 35.
    make_reply(self, conn, *header, frame).send([](wire::byte_writer& w) {
      wire::encode_api_versions_response(wire::unsupported_api_versions_response(), 0, w);
    });
    return {};
  }
  if (!range || version < range->min_version || version > range->max_version)
    return "unsupported request " + request_name(key, version);
  auto decoded = wire::decode_request_body(*header, r.rest());
  if (!decoded)
    return "malformed " + request_name(key, version) + " request (" + decoded.error().message() + ")";
  if (header->client_id) // assign, not copy: keeps the buffer from one request to the next
    conn->client_id.assign(*header->client_id);
  else
    conn->client_id.clear();
  auto reply = make_reply(self, conn, *header, frame);
  auto& quotas = self->state.limits.quotas;
  bool metered = quotas && quotas->enabled();
  // Kafka's produce quota counts the request's header and body; the request quota the
  // time its handler took (here: the listener's part of the work).
  auto& tracker = *self->state.tracker;
  if (metered && key == static_cast<int16_t>(wire::api_key::produce))
    reply.set_throttle_time_ms(tracker.throttle(*conn, cluster::quota_kind::producer_byte_rate,
                                                static_cast<double>(frame.size())));
  auto started = metered ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  std::visit([&](auto& req) { serve(self->state.services, std::move(req), reply); }, *decoded);
  if (!metered || !conn->open)
    return {};
  auto nanos = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - started).count();
  tracker.throttle(*conn, cluster::quota_kind::request_percentage, nanos * 100 / 1e9);
  return {};
}

// Whether `conn` is muted by a quota now; schedules the look at it once the time is over.
bool muted(listener_ptr self, kafka_connection& conn) {
  if (conn.muted_until_ms == 0)
    return false;
  auto left = conn.muted_until_ms - self->state.limits.now_ms();
  if (left <= 0) {
    conn.muted_until_ms = 0;
    return false;
  }
  if (!conn.unmute_scheduled) {
    conn.unmute_scheduled = true;
    self->delayed_send(self, std::chrono::milliseconds(left), unmute_atom::value, conn.hdl);
  }
  return true;
}

connection_load load_of(const kafka_connection& conn) {
  return {conn.order.in_flight(), conn.bytes_handed - conn.bytes_written};
}

// Serves the complete requests buffered for `conn` while the limits allow; stops reading
// the socket when they do not, and reads again once they do.
void serve_buffered(listener_ptr self, const std::shared_ptr<kafka_connection>& conn) {
  auto& st = self->state;
  for (;;) {
    if (!may_read(load_of(*conn), st.tracker->load, st.limits.limits) || muted(self, *conn)) {
      if (!conn->halted) {
        conn->halted = true;
        st.tracker->halted.insert(conn->hdl);
        self->halt(conn->hdl);
      }
      conn->frames.compact();
      return;
    }
    auto next = conn->frames.next();
    if (next.state == wire::frame_reader::status::need_more)
      break;
    if (next.state == wire::frame_reader::status::too_large) {
      close_connection(self, conn,
                       "request size " + std::to_string(next.size) + " is outside 0.."
                         + std::to_string(st.max_request_bytes) + " (socket.request.max.bytes)");
      return;
    }
    if (auto why = serve_frame(self, conn, next.frame); !why.empty()) {
      close_connection(self, conn, why);
      return;
    }
    if (!conn->open)
      return;
  }
  conn->frames.compact();
  if (conn->halted) {
    conn->halted = false;
    st.tracker->halted.erase(conn->hdl);
    self->trigger(conn->hdl);
    // CAF 0.17's halt() only queues the removal of the socket from the poll set, applied at
    // the end of the multiplexer's round; a trigger() in the same round is a no-op and the
    // late removal then stops reading for good (a pipelining producer of 1 MB requests
    // stalled so). Triggering again in later rounds is harmless while reading.
    for (auto later : {std::chrono::milliseconds(10), std::chrono::milliseconds(100)})
      self->delayed_send(self, later, retrigger_atom::value, conn->hdl);
  }
}

// A quota's mute is over: serve what is buffered and read again.
void unmute(listener_ptr self, caf::io::connection_handle hdl) {
  auto it = self->state.conns.find(hdl);
  if (it == self->state.conns.end())
    return;
  auto conn = it->second;
  conn->unmute_scheduled = false;
  serve_buffered(self, conn);
}

// A later trigger of serve_buffered(), while the connection still wants reading.
void retrigger(listener_ptr self, caf::io::connection_handle hdl) {
  auto it = self->state.conns.find(hdl);
  if (it != self->state.conns.end() && !it->second->halted)
    self->trigger(hdl);
}

void on_data(listener_ptr self, caf::io::new_data_msg& msg) {
  auto it = self->state.conns.find(msg.handle);
  if (it == self->state.conns.end())
    return;
  auto conn = it->second; // keeps the connection alive while serving
  conn->last_active_ms = self->state.limits.now_ms();
  conn->frames.append({msg.buf.data(), msg.buf.size()});
  serve_buffered(self, conn);
}

void resume_halted(listener_ptr self) {
  auto& tracker = *self->state.tracker;
  tracker.resume_scheduled = false;
  auto halted = tracker.halted; // serving changes the set
  for (auto hdl : halted) {
    auto it = self->state.conns.find(hdl);
    if (it != self->state.conns.end()) {
      auto conn = it->second;
      serve_buffered(self, conn);
    }
  }
}

// Sets SO_SNDBUF / SO_RCVBUF. CAF 0.17's default multiplexer names a connection by its
// native socket, so the handle's id is the descriptor.
void size_socket_buffers(listener_ptr self, caf::io::connection_handle hdl) {
  auto fd = static_cast<int>(hdl.id());
  auto set = [&](int option, int32_t bytes, const char* key) {
    if (bytes > 0 && ::setsockopt(fd, SOL_SOCKET, option, &bytes, sizeof bytes) != 0)
      log_line(log_level::warn, log_component::listener, "kafka listener %s: %s=%d not applied", self->state.listener_name.c_str(), key, bytes);
  };
  set(SO_SNDBUF, self->state.limits.socket_send_buffer_bytes, "socket.send.buffer.bytes");
  set(SO_RCVBUF, self->state.limits.socket_receive_buffer_bytes, "socket.receive.buffer.bytes");
}

std::chrono::milliseconds idle_check_interval(int64_t idle_ms) {
  return std::chrono::milliseconds(std::clamp<int64_t>(idle_ms / 4, 100, 10000));
}

void close_idle(listener_ptr self) {
  auto& st = self->state;
  auto now = st.limits.now_ms();
  std::vector<std::shared_ptr<kafka_connection>> idle;
  for (auto& [_, conn] : st.conns)
    if (now - conn->last_active_ms > st.limits.connections_max_idle_ms)
      idle.push_back(conn);
  for (auto& conn : idle)
    close_connection(self, conn, "idle for more than " + std::to_string(st.limits.connections_max_idle_ms)
                                   + " ms (connections.max.idle.ms)");
  self->delayed_send(self, idle_check_interval(st.limits.connections_max_idle_ms), idle_check_atom::value);
}

} // namespace

read_limits read_limits_of(const config::server_config& cfg) {
  read_limits out;
  out.unsent_bytes_per_connection = std::max<uint64_t>(
    cfg.socket_send_buffer_bytes > 0 ? static_cast<uint64_t>(cfg.socket_send_buffer_bytes) : 0, 64 * 1024);
  out.queued_requests = static_cast<uint64_t>(cfg.queued_max_requests);
  if (cfg.queued_max_request_bytes > 0)
    out.queued_request_bytes = static_cast<uint64_t>(cfg.queued_max_request_bytes);
  return out;
}

namespace {

caf::behavior listener_behavior(listener_ptr self, kafka_listener_context ctx, config::listener address,
                                std::shared_ptr<std::promise<caf::expected<uint16_t>>> bound) {
  auto added = self->add_tcp_doorman(static_cast<uint16_t>(address.port),
                                     address.host.empty() ? nullptr : address.host.c_str(), true);
  if (!added) {
    bound->set_value(added.error());
    self->quit();
    return {};
  }
  bound->set_value(added->second);
  auto& st = self->state;
  st.services = kafka_services{self,      ctx.routes,       std::nullopt,       ctx.broker_id,
                               ctx.now_ms, ctx.producer_ids, make_fetch_polls(), ctx.groups,
                               address.host, added->second, ctx.quotas, ctx.quota_admin,
                               ctx.metrics,  ctx.txn_coordinator, ctx.offsets};
  st.listener_name = address.name;
  st.max_request_bytes = ctx.max_request_bytes;
  st.tracker->self = self;
  if (!ctx.connections) // a listener started alone (tests): no connection limits
    ctx.connections = std::make_shared<connection_counts>(INT32_MAX, INT32_MAX, std::map<std::string, int32_t>{});
  st.limits = std::move(ctx);
  if (st.limits.metrics)
    st.connection_counters = &st.limits.metrics->listener(address.name);
  self->delayed_send(self, idle_check_interval(st.limits.connections_max_idle_ms), idle_check_atom::value);
  return {
    [=](const caf::io::new_connection_msg& msg) {
      auto& st = self->state;
      auto ip = self->remote_addr(msg.handle);
      if (auto refused_by = st.limits.connections->admit(ip); !refused_by.empty()) {
        log_line(log_level::warn, log_component::listener, "kafka listener %s: closing %s:%d: too many connections (%s)", st.listener_name.c_str(),
                 ip.c_str(), static_cast<int>(self->remote_port(msg.handle)), refused_by.c_str());
        self->close(msg.handle);
        return;
      }
      auto conn = std::make_shared<kafka_connection>(msg.handle, st.max_request_bytes);
      conn->peer_host = "/" + ip;
      conn->events = st.tracker.get();
      conn->metrics = st.limits.metrics.get();
      if (st.connection_counters)
        ++st.connection_counters->created;
      conn->last_active_ms = st.limits.now_ms();
      st.conns.emplace(msg.handle, std::move(conn));
      size_socket_buffers(self, msg.handle);
      self->ack_writes(msg.handle, true); // data_transferred_msg: what the socket took
      self->configure_read(msg.handle, caf::io::receive_policy::at_most(read_chunk_bytes));
    },
    [=](caf::io::new_data_msg& msg) { on_data(self, msg); },
    [=](const caf::io::data_transferred_msg& msg) {
      auto it = self->state.conns.find(msg.handle);
      if (it == self->state.conns.end())
        return;
      it->second->bytes_written += msg.written;
      it->second->last_active_ms = self->state.limits.now_ms();
      if (it->second->halted)
        self->state.tracker->schedule_resume();
    },
    [=](resume_atom) { resume_halted(self); },
    [=](retrigger_atom, caf::io::connection_handle hdl) { retrigger(self, hdl); },
    [=](unmute_atom, caf::io::connection_handle hdl) { unmute(self, hdl); },
    [=](idle_check_atom) { close_idle(self); },
    [=](const caf::io::connection_closed_msg& msg) {
      auto it = self->state.conns.find(msg.handle);
      if (it != self->state.conns.end()) {
        auto conn = it->second;
        forget(self, conn);
      } else {
        forget_connection(self->state.services, static_cast<uint64_t>(msg.handle.id()));
      }
    },
    [=](const caf::io::acceptor_closed_msg&) {},
    [=](node_actor& node) { self->state.services.node = std::move(node); },
    [=](fetch_atom, uint64_t connection_key, topic_partition& tp, fetch_result& r) {
      on_watch_data(self->state.services, connection_key, tp, std::move(r));
    },
    [=](caf::timeout_atom, uint64_t timer_id) { on_poll_timeout(self->state.services, timer_id); },
  };
}

} // namespace

result<kafka_listener> start_kafka_listener(caf::actor_system& sys, const config::listener& address,
                                            kafka_listener_context ctx, std::string& error_text) {
  auto bound = std::make_shared<std::promise<caf::expected<uint16_t>>>();
  auto port = bound->get_future();
  auto actor = sys.middleman().spawn_broker(listener_behavior, std::move(ctx), address, bound);
  auto result_port = port.get();
  if (!result_port) {
    error_text = "listeners '" + address.name + "://" + address.host + ":" + std::to_string(address.port)
                 + "': cannot listen: " + sys.render(result_port.error());
    return std::make_error_code(std::errc::address_not_available);
  }
  kafka_listener out{actor, address};
  out.address.port = *result_port;
  return out;
}

void attach_node(const kafka_listener& listener, const node_actor& node) {
  caf::anon_send(listener.actor, node);
}

} // namespace cafka
