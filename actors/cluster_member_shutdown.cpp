// Controlled shutdown in the cluster member (cluster/controlled_shutdown.hpp): the leaving
// broker's side (ask the controller, retry) and the controller's (remember who leaves, move
// them with the other decisions, answer once written).
#include "actors/cluster_member_state.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "cluster/controlled_shutdown.hpp"

namespace cafka::member {

namespace {

// One ask of the controller; Kafka's controller.socket.timeout.ms.
constexpr auto shutdown_request_timeout = std::chrono::seconds(30);

void try_controlled_shutdown(self_ptr self, caf::typed_response_promise<bool> rp, int32_t attempt) {
  auto& st = self->state;
  auto me = st.ctx.broker_id;
  auto again = [=](const std::string& why) mutable {
    auto& cfg = self->state.ctx.config;
    if (attempt >= cfg.controlled_shutdown_max_retries) {
      log_line(log_level::warn, log_component::cluster, "broker %d: controlled shutdown: %s; stopping anyway", me, why.c_str());
      rp.deliver(false);
      return;
    }
    log_line(log_level::warn, log_component::cluster, "broker %d: controlled shutdown: %s; trying again in %lld ms", me, why.c_str(),
             static_cast<long long>(cfg.controlled_shutdown_retry_backoff_ms));
    self->delayed_send(self, std::chrono::milliseconds(cfg.controlled_shutdown_retry_backoff_ms),
                       run_here{[=] { try_controlled_shutdown(self, rp, attempt + 1); }});
  };
  auto* registration = st.view.broker(me);
  auto& controller = st.view.controller();
  if (registration == nullptr || !controller) {
    again(registration == nullptr ? "this broker is not registered" : "no controller now");
    return;
  }
  auto epoch = registration->epoch; // the view (and so *registration) may be replaced before the link is up
  auto ask = [=](auto target) mutable {
    self->request(target, shutdown_request_timeout, controlled_shutdown_atom_v, me, epoch)
      .then(
        [=](int32_t left) mutable {
          if (left == 0) {
            log_line(log_level::info, log_component::cluster, "broker %d: controlled shutdown: leaderships and ISR memberships moved", me);
            rp.deliver(true);
          } else {
            again(std::to_string(left) + " partition(s) left to move");
          }
        },
        [=](caf::error& err) mutable { again("the controller answered " + describe(err)); });
  };
  if (controller->broker_id != me && !self->system().has_middleman()) {
    // An in-process node without CAF's network layer: no retry can reach the controller.
    log_line(log_level::info, log_component::cluster, "broker %d: controlled shutdown: no network layer to reach controller %d; stopping without it", me,
             controller->broker_id);
    rp.deliver(false);
    return;
  }
  log_line(log_level::info, log_component::cluster, "broker %d: controlled shutdown: asking controller %d to move this broker's partitions", me,
           controller->broker_id);
  if (controller->broker_id == me) {
    ask(caf::actor_cast<caf::actor>(self));
    return;
  }
  with_link(
    self, controller->broker_id, [=](node_actor node) mutable { ask(node); },
    [=]() mutable { again("cannot reach the controller"); });
}

} // namespace

caf::result<bool> shut_down_controlled(self_ptr self) {
  auto rp = self->make_response_promise<bool>();
  try_controlled_shutdown(self, rp, 0);
  return rp;
}

caf::result<int32_t> take_shutdown_request(self_ptr self, int32_t id, int64_t broker_epoch) {
  auto& st = self->state;
  if (st.controller_epoch == 0)
    return caf::make_error(kafka_error::not_controller, "broker " + std::to_string(st.ctx.broker_id)
                                                          + " is not the controller");
  auto* registration = st.view.broker(id);
  if (registration == nullptr || registration->epoch != broker_epoch)
    return caf::make_error(kafka_error::stale_broker_epoch,
                           "broker " + std::to_string(id) + " is not registered with that broker epoch here (yet)");
  if (st.leaving.emplace(id, broker_epoch).second)
    log_line(log_level::info, log_component::cluster, "controller %d: broker %d is shutting down: moving its leaderships and ISR memberships",
             st.ctx.broker_id, id);
  auto rp = self->make_response_promise<int32_t>();
  st.leaving_answers.emplace_back(id, rp);
  act_as_controller(self); // answers at once if nothing is being written
  return rp;
}

std::set<int32_t> leaving_brokers(self_ptr self) {
  auto& st = self->state;
  std::set<int32_t> out;
  for (auto it = st.leaving.begin(); it != st.leaving.end();) {
    auto* registration = st.view.broker(it->first);
    if (registration == nullptr || registration->epoch != it->second) {
      it = st.leaving.erase(it); // gone, or back with a new session
      continue;
    }
    out.insert(it->first);
    ++it;
  }
  return out;
}

void answer_leaving(self_ptr self) {
  auto& st = self->state;
  auto answers = std::move(st.leaving_answers);
  st.leaving_answers.clear();
  for (auto& [id, rp] : answers) {
    if (st.controller_epoch == 0)
      rp.deliver(caf::make_error(kafka_error::not_controller, "the controller changed"));
    else
      rp.deliver(cluster::partitions_left_to_move(st.view, id, st.controller_epoch));
  }
  if (st.controller_epoch == 0)
    st.leaving.clear();
}

} // namespace cafka::member
