#include "actors/metrics_endpoint.hpp"

#include <chrono>
#include <future>
#include <map>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/group_registry.hpp"
#include "actors/log_line.hpp"
#include "metrics/broker_metrics.hpp"
#include "metrics/broker_report.hpp"
#include "metrics/http_request.hpp"

namespace cafka {

namespace {

using idle_check_atom = caf::atom_constant<caf::atom("meidle")>;

constexpr auto node_timeout = std::chrono::seconds(10);
constexpr auto group_timeout = std::chrono::seconds(5);
constexpr auto idle_check_interval = std::chrono::seconds(30);
/// Keep-alive connections idle this long are closed (Prometheus scrapes every 15-60 s).
constexpr int64_t max_idle_ms = 5 * 60 * 1000;
/// More connections than this are closed as they come: the endpoint serves scrapers, not crowds.
constexpr size_t max_connections = 64;
/// Requests read but not yet answered (pipelined) beyond this close the connection.
constexpr size_t max_buffered_bytes = 64 * 1024;
/// While more of this connection's responses wait for the socket, its next request waits.
constexpr size_t max_unsent_bytes = 1 << 20;

constexpr const char* text_plain = "text/plain; charset=utf-8";
constexpr const char* prometheus_text = "text/plain; version=0.0.4; charset=utf-8";

struct http_connection {
  std::string buffer;
  bool busy = false; ///< a response is being gathered
  size_t unsent = 0;
  int64_t last_active_ms = 0;
};

struct endpoint_state {
  static inline const char* name = "cafka.metrics-endpoint";
  metrics_endpoint_context ctx;
  std::map<caf::io::connection_handle, http_connection> conns;
};

using endpoint_ptr = caf::stateful_actor<endpoint_state, caf::io::broker>*;

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
    .count();
}

void close_connection(endpoint_ptr self, caf::io::connection_handle hdl) {
  self->close(hdl); // what was written still goes out first
  self->state.conns.erase(hdl);
}

void serve_next(endpoint_ptr self, caf::io::connection_handle hdl);

void respond(endpoint_ptr self, caf::io::connection_handle hdl, const metrics::http_request& req, int status,
             const char* content_type, const std::string& body) {
  auto it = self->state.conns.find(hdl);
  if (it == self->state.conns.end()) // closed while the answer was gathered
    return;
  auto text = metrics::http_response(status, content_type, body, req.keep_alive, req.method == "HEAD");
  auto& out = self->wr_buf(hdl);
  out.insert(out.end(), text.begin(), text.end());
  self->flush(hdl);
  it->second.unsent += text.size();
  it->second.busy = false;
  if (!req.keep_alive)
    close_connection(self, hdl);
}

// An answer gathered asynchronously: the connection's next request may go now.
void respond_later(endpoint_ptr self, caf::io::connection_handle hdl, const metrics::http_request& req, int status,
                   const char* content_type, const std::string& body) {
  respond(self, hdl, req, status, content_type, body);
  serve_next(self, hdl);
}

// The groups coordinated here: state, members and committed offsets, each asked of its actor.
struct group_scrape {
  metrics::broker_gauges gauges;
  size_t outstanding = 0;
  std::function<void(metrics::broker_gauges&)> done;

  void arrive() {
    if (--outstanding == 0)
      done(gauges);
  }
};

void scrape(endpoint_ptr self, std::function<void(metrics::broker_gauges&)> done, metrics::broker_gauges gauges) {
  auto groups = self->state.ctx.groups ? self->state.ctx.groups->list() : decltype(self->state.ctx.groups->list()){};
  auto acc = std::make_shared<group_scrape>();
  acc->gauges = std::move(gauges);
  acc->done = std::move(done);
  acc->outstanding = 1 + 2 * groups.size();
  acc->gauges.groups.resize(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) {
    acc->gauges.groups[i].group = groups[i].first;
    self->request(groups[i].second, group_timeout, describe_atom_v)
      .then(
        [acc, i](cluster::group_description& d) {
          acc->gauges.groups[i].state = cluster::to_string(d.state);
          acc->gauges.groups[i].members = static_cast<int32_t>(d.members.size());
          acc->arrive();
        },
        [acc](caf::error&) { acc->arrive(); });
    self->request(groups[i].second, group_timeout, fetch_offsets_atom_v, group_offset_query{true, {}})
      .then(
        [acc, i](std::vector<group_offset>& offsets) {
          for (auto& o : offsets)
            if (o.offset >= 0) // kafkajs' -1/-2 markers are no position
              acc->gauges.groups[i].committed.push_back({o.tp.topic, o.tp.partition, o.offset});
          acc->arrive();
        },
        [acc](caf::error&) { acc->arrive(); });
  }
  acc->arrive();
}

void serve_metrics(endpoint_ptr self, caf::io::connection_handle hdl, const metrics::http_request& req) {
  self->request(self->state.ctx.node, node_timeout, metrics_atom_v)
    .then(
      [=](metrics::broker_gauges& gauges) {
        scrape(self, [=](metrics::broker_gauges& all) {
          // (/proc/self is served from memory: reading it does not block on a disk.)
          auto text = metrics::render_metrics(self->state.ctx.metrics->read(), all, metrics::read_process_stats());
          respond_later(self, hdl, req, 200, prometheus_text, text);
        }, std::move(gauges));
      },
      [=](caf::error& err) {
        respond_later(self, hdl, req, 503, text_plain, "the broker did not answer: " + self->system().render(err) + "\n");
      });
}

void serve_ready(endpoint_ptr self, caf::io::connection_handle hdl, const metrics::http_request& req) {
  self->request(self->state.ctx.node, node_timeout, readiness_atom_v)
    .then(
      [=](std::string& why_not) {
        if (why_not.empty())
          respond_later(self, hdl, req, 200, text_plain, "ready\n");
        else
          respond_later(self, hdl, req, 503, text_plain, why_not + "\n");
      },
      [=](caf::error& err) {
        respond_later(self, hdl, req, 503, text_plain, "the broker did not answer: " + self->system().render(err) + "\n");
      });
}

void serve(endpoint_ptr self, caf::io::connection_handle hdl, const metrics::http_request& req) {
  if (req.method != "GET" && req.method != "HEAD") { // its body, if any, is not read: close after
    auto last = req;
    last.keep_alive = false;
    return respond(self, hdl, last, 405, text_plain, "only GET and HEAD\n");
  }
  if (req.path == "/metrics")
    return serve_metrics(self, hdl, req);
  if (req.path == "/ready")
    return serve_ready(self, hdl, req);
  if (req.path == "/health")
    return respond(self, hdl, req, 200, text_plain, "ok\n");
  respond(self, hdl, req, 404, text_plain, "not found: try /metrics, /health or /ready\n");
}

void refuse(endpoint_ptr self, caf::io::connection_handle hdl, int status, const std::string& why) {
  log_line(log_level::info, log_component::listener, "metrics endpoint: closing %s:%d: %s",
           self->remote_addr(hdl).c_str(), static_cast<int>(self->remote_port(hdl)), why.c_str());
  metrics::http_request req;
  req.keep_alive = false;
  respond(self, hdl, req, status, text_plain, why + "\n");
}

// Serves the connection's buffered requests in order, one at a time (an answer gathered
// asynchronously holds back the next: HTTP/1.1 answers in order).
void serve_next(endpoint_ptr self, caf::io::connection_handle hdl) {
  for (;;) {
    auto it = self->state.conns.find(hdl);
    if (it == self->state.conns.end())
      return;
    auto& conn = it->second;
    if (conn.busy || conn.unsent > max_unsent_bytes || conn.buffer.empty())
      return;
    auto req = metrics::parse_http_request(conn.buffer);
    switch (req.state) {
      case metrics::http_request::status::need_more:
        return;
      case metrics::http_request::status::bad:
        return refuse(self, hdl, 400, "bad request");
      case metrics::http_request::status::too_large:
        return refuse(self, hdl, 431,
                      "request head over " + std::to_string(metrics::max_request_head_bytes) + " bytes");
      case metrics::http_request::status::complete:
        conn.buffer.erase(0, req.consumed);
        conn.busy = true;
        serve(self, hdl, req);
    }
  }
}

void close_idle(endpoint_ptr self) {
  auto now = steady_ms();
  std::vector<caf::io::connection_handle> idle;
  for (auto& [hdl, conn] : self->state.conns)
    if (!conn.busy && now - conn.last_active_ms > max_idle_ms)
      idle.push_back(hdl);
  for (auto& hdl : idle)
    close_connection(self, hdl);
}

caf::behavior endpoint_behavior(endpoint_ptr self, metrics_endpoint_context ctx, std::string host, uint16_t port,
                                std::shared_ptr<std::promise<caf::expected<uint16_t>>> bound) {
  auto added = self->add_tcp_doorman(port, host.empty() ? nullptr : host.c_str(), true);
  if (!added) {
    bound->set_value(added.error());
    self->quit();
    return {};
  }
  bound->set_value(added->second);
  self->state.ctx = std::move(ctx);
  self->delayed_send(self, idle_check_interval, idle_check_atom::value);
  return {
    [=](const caf::io::new_connection_msg& msg) {
      if (self->state.conns.size() >= max_connections) {
        log_line(log_level::warn, log_component::listener, "metrics endpoint: closing %s: more than %zu connections",
                 self->remote_addr(msg.handle).c_str(), max_connections);
        self->close(msg.handle);
        return;
      }
      self->state.conns[msg.handle].last_active_ms = steady_ms();
      self->ack_writes(msg.handle, true);
      self->configure_read(msg.handle, caf::io::receive_policy::at_most(8192));
    },
    [=](caf::io::new_data_msg& msg) {
      auto it = self->state.conns.find(msg.handle);
      if (it == self->state.conns.end())
        return;
      auto& conn = it->second;
      conn.last_active_ms = steady_ms();
      conn.buffer.append(msg.buf.begin(), msg.buf.end());
      if (conn.buffer.size() > max_buffered_bytes)
        return refuse(self, msg.handle, 431, "more than " + std::to_string(max_buffered_bytes) + " bytes of unanswered requests");
      serve_next(self, msg.handle);
    },
    [=](const caf::io::data_transferred_msg& msg) {
      auto it = self->state.conns.find(msg.handle);
      if (it == self->state.conns.end())
        return;
      it->second.unsent -= std::min(it->second.unsent, msg.written);
      it->second.last_active_ms = steady_ms();
      serve_next(self, msg.handle);
    },
    [=](const caf::io::connection_closed_msg& msg) { self->state.conns.erase(msg.handle); },
    [=](const caf::io::acceptor_closed_msg&) {},
    [=](idle_check_atom) {
      close_idle(self);
      self->delayed_send(self, idle_check_interval, idle_check_atom::value);
    },
  };
}

} // namespace

result<metrics_endpoint> start_metrics_endpoint(caf::actor_system& sys, const std::string& host, uint16_t port,
                                                metrics_endpoint_context ctx, std::string& error_text) {
  auto bound = std::make_shared<std::promise<caf::expected<uint16_t>>>();
  auto bound_port = bound->get_future();
  auto actor = sys.middleman().spawn_broker(endpoint_behavior, std::move(ctx), host, port, bound);
  auto result_port = bound_port.get();
  if (!result_port) {
    error_text = "metrics.listener '" + host + ":" + std::to_string(port) + "': cannot listen: "
                 + sys.render(result_port.error());
    return std::make_error_code(std::errc::address_not_available);
  }
  return metrics_endpoint{actor, host, *result_port};
}

void stop_metrics_endpoint(const metrics_endpoint& endpoint) {
  caf::anon_send_exit(endpoint.actor, caf::exit_reason::user_shutdown);
}

} // namespace cafka
