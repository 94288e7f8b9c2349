#include "actors/replica_fetch_poll.hpp"

#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "cluster/replication_throttle.hpp"

namespace cafka {

namespace {

// Partition actors live in this process and always answer (or CAF does for them).
constexpr auto partition_timeout = caf::infinite;

struct poll_state {
  static inline const char* name = "cafka.replica_fetch_poll";
  replica_fetch_request req;
  std::shared_ptr<const routing_table::map_type> leaders;
  std::shared_ptr<cluster::replication_throttle> throttle;
  std::function<int64_t()> now_ms;
  caf::typed_response_promise<replica_fetch_result> promise;
  bool second_round = false;
};

using self_ptr = replica_fetch_poll_actor::stateful_pointer<poll_state>;

replica_fetch_partition_result missing(const replica_fetch_partition& p) {
  replica_fetch_partition_result out;
  out.tp = p.tp;
  out.error = protocol::wire_code(kafka_error::not_leader_or_follower);
  return out;
}

// The leader replication quota: data of a throttled partition for an out-of-sync follower is
// held back while the rate is over it (the partition recorded the fetch all the same);
// what is sent counts against it.
void apply_throttle(self_ptr self, replica_fetch_result& answers) {
  auto& st = self->state;
  if (!st.throttle)
    return;
  auto now = st.now_ms();
  for (auto& r : answers.partitions) {
    if (r.records.empty())
      continue;
    if (st.throttle->leader_holds_back(r.tp, st.req.replica_id, now))
      r.records.clear();
    else
      st.throttle->record_leader(r.tp, st.req.replica_id, r.records.size(), now);
  }
}

// Asks every partition; `watch`: leave watches that tell this actor of the next append.
void ask_all(self_ptr self, bool watch) {
  auto& st = self->state;
  auto answers = std::make_shared<replica_fetch_result>();
  answers->partitions.resize(st.req.partitions.size());
  auto outstanding = std::make_shared<size_t>(st.req.partitions.size() + 1);
  auto finish = [=] {
    if (--*outstanding != 0)
      return;
    auto& st = self->state;
    apply_throttle(self, *answers);
    size_t bytes = 0;
    bool failed = false;
    for (auto& r : answers->partitions) {
      bytes += r.records.size();
      failed = failed || r.error != 0;
    }
    if (!watch || failed || bytes >= static_cast<size_t>(std::max(st.req.min_bytes, 1))) {
      st.promise.deliver(std::move(*answers));
      self->quit();
      return;
    }
    self->delayed_send(self, std::chrono::milliseconds(st.req.max_wait_ms), caf::timeout_atom_v);
  };
  auto me = caf::actor_cast<caf::actor>(self);
  for (size_t i = 0; i < st.req.partitions.size(); ++i) {
    auto& p = st.req.partitions[i];
    auto route = st.leaders->find(p.tp);
    if (route == st.leaders->end()) {
      answers->partitions[i] = missing(p);
      finish();
      continue;
    }
    self->request(route->second, partition_timeout, replica_fetch_atom_v, st.req.replica_id, p,
                  watch ? me : caf::actor{}, uint64_t{0})
      .then([=](replica_fetch_partition_result& r) { answers->partitions[i] = std::move(r); finish(); },
            [=](caf::error&) { answers->partitions[i] = missing(self->state.req.partitions[i]); finish(); });
  }
  finish();
}

void last_round(self_ptr self) {
  if (self->state.second_round)
    return;
  self->state.second_round = true;
  ask_all(self, false);
}

replica_fetch_poll_actor::behavior_type poll(self_ptr self, std::shared_ptr<const routing_table::map_type> leaders,
                                              std::shared_ptr<cluster::replication_throttle> throttle,
                                              std::function<int64_t()> now_ms) {
  self->state.leaders = std::move(leaders);
  self->state.throttle = std::move(throttle);
  self->state.now_ms = std::move(now_ms);
  return {
    [=](replica_fetch_atom, replica_fetch_request& req) -> caf::result<replica_fetch_result> {
      auto& st = self->state;
      st.req = std::move(req);
      st.promise = self->make_response_promise<replica_fetch_result>();
      ask_all(self, st.req.max_wait_ms > 0);
      return st.promise;
    },
    [=](replica_fetch_atom, uint64_t) { last_round(self); },
    [=](caf::timeout_atom) { last_round(self); },
  };
}

} // namespace

replica_fetch_poll_actor spawn_replica_fetch_poll(caf::actor_system& sys,
                                                  std::shared_ptr<const routing_table::map_type> leaders,
                                                  std::shared_ptr<cluster::replication_throttle> throttle,
                                                  std::function<int64_t()> now_ms) {
  return sys.spawn(poll, std::move(leaders), std::move(throttle), std::move(now_ms));
}

} // namespace cafka
