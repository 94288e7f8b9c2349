#include "actors/kafka_listener.hpp"

#include <future>
#include <map>
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

struct listener_state {
  static inline const char* name = "cafka.kafka-listener";
  kafka_services services;
  std::string listener_name;
  size_t max_request_bytes = 0;
  std::map<caf::io::connection_handle, std::shared_ptr<kafka_connection>> conns;
};

using listener_ptr = caf::stateful_actor<listener_state, caf::io::broker>*;

std::string peer_of(listener_ptr self, caf::io::connection_handle hdl) {
  return self->remote_addr(hdl) + ":" + std::to_string(self->remote_port(hdl));
}

// Closes `conn` with the one log line that says why.
void close_connection(listener_ptr self, const std::shared_ptr<kafka_connection>& conn, const std::string& why) {
  log_line("kafka listener %s: closing %s: %s", self->state.listener_name.c_str(), peer_of(self, conn->hdl).c_str(),
           why.c_str());
  conn->open = false;
  self->close(conn->hdl);
  self->state.conns.erase(conn->hdl);
  forget_connection(self->state.services, static_cast<uint64_t>(conn->hdl.id()));
}

std::string request_name(int16_t key, int16_t version) {
  return std::string{wire::api_name(key)} + " (key " + std::to_string(key) + ") v" + std::to_string(version);
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
    kafka_reply{self, conn, *header}.send([](wire::byte_writer& w) {
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
  kafka_reply reply{self, conn, *header};
  std::visit([&](auto& req) { serve(self->state.services, std::move(req), reply); }, *decoded);
  return {};
}

void on_data(listener_ptr self, caf::io::new_data_msg& msg) {
  auto it = self->state.conns.find(msg.handle);
  if (it == self->state.conns.end())
    return;
  auto conn = it->second; // keeps the connection alive while serving
  conn->frames.append({msg.buf.data(), msg.buf.size()});
  for (;;) {
    auto next = conn->frames.next();
    if (next.state == wire::frame_reader::status::need_more)
      break;
    if (next.state == wire::frame_reader::status::too_large) {
      close_connection(self, conn,
                       "request size " + std::to_string(next.size) + " is outside 0.."
                         + std::to_string(self->state.max_request_bytes) + " (socket.request.max.bytes)");
      return;
    }
    if (auto why = serve_frame(self, conn, next.frame); !why.empty()) {
      close_connection(self, conn, why);
      return;
    }
  }
  conn->frames.compact();
}

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
                               address.host, added->second};
  st.listener_name = address.name;
  st.max_request_bytes = ctx.max_request_bytes;
  return {
    [=](const caf::io::new_connection_msg& msg) {
      auto conn = std::make_shared<kafka_connection>(msg.handle, self->state.max_request_bytes);
      conn->peer_host = "/" + self->remote_addr(msg.handle);
      self->state.conns.emplace(msg.handle, std::move(conn));
      self->configure_read(msg.handle, caf::io::receive_policy::at_most(read_chunk_bytes));
    },
    [=](caf::io::new_data_msg& msg) { on_data(self, msg); },
    [=](const caf::io::connection_closed_msg& msg) {
      auto it = self->state.conns.find(msg.handle);
      if (it != self->state.conns.end()) {
        it->second->open = false;
        self->state.conns.erase(it);
      }
      forget_connection(self->state.services, static_cast<uint64_t>(msg.handle.id()));
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
