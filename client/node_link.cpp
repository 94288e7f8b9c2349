#include "client/node_link.hpp"

#include <map>
#include <optional>
#include <set>
#include <string>

#include <caf/all.hpp>
#include <caf/io/middleman.hpp>
#include <caf/io/middleman_actor.hpp>

#include "actors/caf_port.hpp"
#include "actors/errors.hpp"
#include "client/same_actor.hpp"

namespace cafka::client {

namespace {

using clock_type = std::chrono::steady_clock;

// A request from an owner: metadata (req set) or the node handle (req empty).
struct request_entry {
  clock_type::time_point deadline;
  std::optional<metadata_request> req;
  caf::typed_response_promise<cluster_metadata> metadata_promise;
  caf::typed_response_promise<node_actor> node_promise;
};

enum class phase {
  backing_off, ///< a connection attempt is scheduled
  connecting,  ///< waiting for the middleman
  confirming,  ///< got a proxy, probing it
  connected,
  stranded,    ///< disconnected with nowhere to reconnect to
};

struct link_state {
  static inline const char* name = "cafka.client.node_link";
  link_options opts;
  node_actor node;
  phase state = phase::stranded;
  uint64_t attempt_id = 0;  ///< the current connection attempt
  unsigned failures = 0;    ///< consecutive failed attempts (backoff)
  size_t next_endpoint = 0;
  caf::error last_error;
  std::map<uint64_t, request_entry> waiting;   ///< not at the node
  std::map<uint64_t, request_entry> forwarded; ///< out at the node
  uint64_t next_id = 1;
  bool retry_scheduled = false;
};

using self_ptr = node_link_actor::stateful_pointer<link_state>;

std::string where(self_ptr self) {
  auto& eps = self->state.opts.endpoints;
  if (eps.empty())
    return "the node";
  std::string out;
  for (auto& ep : eps)
    out += (out.empty() ? "" : ",") + to_string(ep);
  return out;
}

caf::error not_connected(self_ptr self) {
  std::string text = "no connection to " + where(self);
  if (self->state.last_error)
    text += ": " + describe(self->state.last_error);
  return caf::make_error(kafka_error::network_exception, std::move(text));
}

void fail(request_entry& r, const caf::error& err) {
  if (r.req)
    r.metadata_promise.deliver(err);
  else
    r.node_promise.deliver(err);
}

// Queues `r` until connected; fails it if its deadline has passed.
void wait(self_ptr self, uint64_t id, request_entry r) {
  auto now = self->clock().now();
  if (now >= r.deadline) {
    fail(r, self->state.last_error && self->state.state == phase::connected ? self->state.last_error
                                                                           : not_connected(self));
    return;
  }
  self->delayed_send(self, r.deadline - now, caf::timeout_atom_v, id);
  self->state.waiting.emplace(id, std::move(r));
}

void forward(self_ptr self, uint64_t id, request_entry r) {
  auto& st = self->state;
  auto timeout = std::max(r.deadline - self->clock().now(), clock_type::duration{std::chrono::milliseconds(1)});
  auto req = *r.req;
  st.forwarded.emplace(id, std::move(r));
  self->request(st.node, timeout, metadata_atom_v, std::move(req))
    .then(
      [=](cluster_metadata& md) {
        auto it = self->state.forwarded.find(id);
        if (it == self->state.forwarded.end())
          return; // sent again after a reconnect
        it->second.metadata_promise.deliver(std::move(md));
        self->state.forwarded.erase(it);
      },
      [=](caf::error& err) {
        auto& st = self->state;
        auto it = st.forwarded.find(id);
        if (it == st.forwarded.end())
          return;
        auto r = std::move(it->second);
        st.forwarded.erase(it);
        if (!is_retriable(err) || self->clock().now() >= r.deadline) {
          r.metadata_promise.deliver(err);
          return;
        }
        // Try again after a backoff (a lost connection also shows up as a down message,
        // which reconnects first).
        st.last_error = err;
        wait(self, id, std::move(r));
        if (!st.retry_scheduled) {
          st.retry_scheduled = true;
          self->delayed_send(self, st.opts.reconnect_backoff.initial, retry_atom_v);
        }
      });
}

void dispatch(self_ptr self) {
  auto& st = self->state;
  if (st.state != phase::connected)
    return;
  auto ready = std::move(st.waiting);
  st.waiting.clear();
  for (auto& [id, r] : ready) {
    if (r.req)
      forward(self, id, std::move(r));
    else
      r.node_promise.deliver(st.node);
  }
}

// Schedules the next connection attempt: at once for the first connection, after a
// backoff otherwise (which also gives the middleman time to drop a dead proxy).
void schedule_connect(self_ptr self, bool at_once = false) {
  auto& st = self->state;
  if (st.opts.endpoints.empty()) {
    st.state = phase::stranded;
    auto err = not_connected(self);
    for (auto& [id, r] : st.waiting)
      fail(r, err);
    st.waiting.clear();
    return;
  }
  st.state = phase::backing_off;
  auto id = ++st.attempt_id;
  auto delay = at_once ? std::chrono::milliseconds(0) : backoff_delay(st.opts.reconnect_backoff, st.failures++);
  self->delayed_send(self, delay, caf::connect_atom_v, id);
}

void confirm(self_ptr self, uint64_t id);

void connect_now(self_ptr self, uint64_t id) {
  auto& st = self->state;
  if (id != st.attempt_id || st.state != phase::backing_off)
    return;
  st.state = phase::connecting;
  auto ep = st.opts.endpoints[st.next_endpoint++ % st.opts.endpoints.size()];
  auto mm = caf_port_connector(self->system());
  self->request(mm, st.opts.connect_timeout, caf::connect_atom_v, ep.host, ep.port)
    .then(
      [=](const caf::node_id&, caf::strong_actor_ptr& ptr, const std::set<std::string>& ifs) {
        auto& st = self->state;
        if (id != st.attempt_id)
          return;
        if (!ptr) {
          st.last_error = caf::make_error(caf::sec::no_actor_published_at_port, to_string(ep));
          schedule_connect(self);
          return;
        }
        if (!self->system().assignable<node_actor>(ifs)) {
          st.last_error = caf::make_error(caf::sec::unexpected_actor_messaging_interface,
                                          "the actor at " + to_string(ep) + " is not a cafka node");
          schedule_connect(self);
          return;
        }
        st.node = caf::actor_cast<node_actor>(std::move(ptr));
        st.state = phase::confirming;
        // The middleman may hand back the cached proxy of a connection that is lost (or
        // about to be noticed as lost). A dead proxy's down message is enqueued by
        // monitor() itself; one whose loss is not yet noticed fails the probe (or dies
        // before it is answered). Only a proxy that answers is used.
        self->monitor(st.node);
        confirm(self, id);
      },
      [=](caf::error& err) {
        auto& st = self->state;
        if (id != st.attempt_id)
          return;
        st.last_error = std::move(err);
        schedule_connect(self);
      });
}

// Probes the new proxy of attempt `id` with a harmless request (list_topics).
void confirm(self_ptr self, uint64_t id) {
  auto& st = self->state;
  self->request(st.node, st.opts.connect_timeout, list_topics_atom_v)
    .then(
      [=](const std::vector<std::string>&) {
        auto& st = self->state;
        if (id != st.attempt_id || st.state != phase::confirming)
          return;
        st.state = phase::connected;
        st.failures = 0;
        st.last_error = caf::error{};
        dispatch(self);
      },
      [=](caf::error& err) {
        auto& st = self->state;
        if (id != st.attempt_id || st.state != phase::confirming)
          return;
        st.last_error = std::move(err);
        self->demonitor(st.node.address());
        st.node = nullptr;
        schedule_connect(self);
      });
}

void connection_lost(self_ptr self, const caf::error& reason) {
  auto& st = self->state;
  st.node = nullptr;
  st.last_error = reason ? reason : caf::make_error(kafka_error::network_exception, "connection lost");
  // What was out at the node will never be answered: send it again once reconnected.
  auto out = std::move(st.forwarded);
  st.forwarded.clear();
  for (auto& [id, r] : out)
    wait(self, id, std::move(r));
  schedule_connect(self);
}

node_link_actor::behavior_type node_link(self_ptr self, node_actor node, link_options opts) {
  auto& st = self->state;
  st.opts = std::move(opts);
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (same_actor(st.node, dm.source))
      connection_lost(self, dm.reason);
  });
  if (node) {
    st.node = std::move(node);
    st.state = phase::connected;
    self->monitor(st.node);
    if (st.opts.endpoints.empty() && st.node.node() != self->node()) {
      // Remember where this node's connection goes, to reconnect there later.
      auto mm = self->system().middleman().actor_handle();
      self->request(mm, st.opts.connect_timeout, caf::get_atom_v, st.node.node())
        .then(
          [=](const caf::node_id&, const std::string& host, uint16_t port) {
            auto& st = self->state;
            if (!host.empty() && port != 0 && st.opts.endpoints.empty())
              st.opts.endpoints.push_back(endpoint{host, port});
          },
          [](caf::error&) {});
    }
  } else {
    schedule_connect(self, true);
  }
  return {
    [=](metadata_atom, metadata_request& req) -> caf::result<cluster_metadata> {
      auto& st = self->state;
      auto id = st.next_id++;
      request_entry r;
      r.deadline = self->clock().now() + st.opts.request_timeout;
      r.req = std::move(req);
      r.metadata_promise = self->make_response_promise<cluster_metadata>();
      auto rp = r.metadata_promise;
      if (st.state == phase::connected && st.waiting.empty())
        forward(self, id, std::move(r));
      else if (st.state == phase::stranded)
        return not_connected(self);
      else
        wait(self, id, std::move(r));
      return rp;
    },
    [=](caf::get_atom) -> caf::result<node_actor> {
      auto& st = self->state;
      if (st.state == phase::connected)
        return st.node;
      if (st.state == phase::stranded)
        return not_connected(self);
      auto id = st.next_id++;
      request_entry r;
      r.deadline = self->clock().now() + st.opts.request_timeout;
      r.node_promise = self->make_response_promise<node_actor>();
      auto rp = r.node_promise;
      wait(self, id, std::move(r));
      return rp;
    },
    [=](caf::connect_atom, uint64_t id) { connect_now(self, id); },
    [=](caf::timeout_atom, uint64_t id) {
      auto& st = self->state;
      auto it = st.waiting.find(id);
      if (it == st.waiting.end())
        return;
      if (auto now = self->clock().now(); now < it->second.deadline) {
        self->delayed_send(self, it->second.deadline - now, caf::timeout_atom_v, id);
        return;
      }
      auto err = st.state == phase::connected && st.last_error ? st.last_error : not_connected(self);
      fail(it->second, err);
      st.waiting.erase(it);
    },
    [=](retry_atom) {
      self->state.retry_scheduled = false;
      dispatch(self);
    },
  };
}

} // namespace

node_link_actor spawn_node_link(caf::actor_system& sys, node_actor node, link_options opts) {
  return sys.spawn(node_link, std::move(node), std::move(opts));
}

} // namespace cafka::client
