// Node actors of the other brokers, for the cluster member (actors/cluster_member.hpp):
// connections over CAF's middleman, cached, with a back-off after failed attempts.
#include <set>

#include <caf/io/middleman.hpp>

#include "actors/caf_port.hpp"
#include "actors/cluster_member_state.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/node_connect.hpp"

namespace cafka::member {

namespace {

// One connection attempt to another broker's caf.port.
constexpr auto connect_timeout = std::chrono::seconds(5);
// Failed connections to one broker: no new attempt for 100 ms, doubling up to 5 s, until one
// succeeds (cluster/backoff.hpp); meanwhile requests for that broker are handled here.
constexpr cluster::backoff_policy reconnect_policy{std::chrono::milliseconds(100), std::chrono::seconds(5)};

} // namespace

void with_link(self_ptr self, int32_t id, std::function<void(node_actor)> use, std::function<void()> fail) {
  auto& st = self->state;
  if (auto it = st.links.find(id); it != st.links.end()) {
    use(it->second);
    return;
  }
  auto* reg = st.view.broker(id);
  if (reg == nullptr || reg->caf_port == 0 || !self->system().has_middleman()) {
    fail();
    return;
  }
  auto backoff = st.link_backoff.try_emplace(id, reconnect_policy).first;
  if (!backoff->second.may_try(self->clock().now())) {
    fail(); // failed recently: no new attempt before its back-off has passed
    return;
  }
  auto failed = [=](const std::string& why) {
    auto& backoff = self->state.link_backoff.try_emplace(id, reconnect_policy).first->second;
    auto now = self->clock().now();
    backoff.failed(now);
    auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(backoff.not_before() - now);
    log_line(log_level::warn, log_component::cluster, "broker %d: cannot connect to broker %d (%s); no new attempt for %lld ms", self->state.ctx.broker_id, id,
             why.c_str(), static_cast<long long>(wait.count()));
    fail();
  };
  auto mm = caf_port_connector(self->system());
  self->request(mm, connect_timeout, caf::connect_atom_v, reg->host, reg->caf_port)
    .then(
      [=](const caf::node_id&, caf::strong_actor_ptr& ptr, const std::set<std::string>& ifs) {
        auto& st = self->state;
        auto lost = st.lost_links.find(id);
        auto lost_proxy = lost != st.lost_links.end() && lost->second == caf::actor_cast<caf::actor_addr>(ptr);
        if (auto why = unusable_node(self->system(), ptr, ifs, lost_proxy)) {
          failed(*why);
          return;
        }
        auto node = caf::actor_cast<node_actor>(std::move(ptr));
        self->monitor(node); // a lost connection drops the cached proxy
        st.links[id] = node;
        st.link_backoff.erase(id);
        use(node);
      },
      [=](caf::error& err) { failed(describe(err)); });
}

void forget_link(self_ptr self, const caf::down_msg& dm) {
  auto& st = self->state;
  for (auto it = st.links.begin(); it != st.links.end();) {
    if (it->second.address() == dm.source) {
      st.lost_links[it->first] = dm.source;
      it = st.links.erase(it);
    } else {
      ++it;
    }
  }
}

caf::result<produce_result> relay_txn_marker(self_ptr self, int32_t broker, topic_partition tp, txn_marker_request req) {
  auto rp = self->make_response_promise<produce_result>();
  auto timeout = std::chrono::milliseconds(req.timeout_ms) + std::chrono::seconds(5);
  with_link(
    self, broker,
    [=](node_actor node) mutable {
      self->request(node, timeout, txn_marker_atom_v, tp, req, forwarded_atom_v)
        .then([rp](produce_result& r) mutable { rp.deliver(std::move(r)); },
              [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
    },
    [rp, broker]() mutable {
      rp.deliver(caf::make_error(kafka_error::not_leader_or_follower,
                                 "broker " + std::to_string(broker) + " cannot be reached"));
    });
  return rp;
}

} // namespace cafka::member
