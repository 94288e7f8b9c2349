#include "actors/replica_fetcher.hpp"

#include <chrono>
#include <map>
#include <optional>

#include <caf/all.hpp>
#include <caf/io/middleman.hpp>

#include "actors/caf_port.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/node_connect.hpp"
#include "actors/node_actor.hpp"
#include "cluster/backoff.hpp"
#include "cluster/replication_throttle.hpp"

namespace cafka {

namespace {

constexpr auto connect_timeout = std::chrono::seconds(5);
/// Beyond the long poll's own wait: how long an answer may take before the leader counts as lost.
constexpr auto fetch_grace = std::chrono::seconds(10);
constexpr auto local_timeout = std::chrono::seconds(30);
/// The first retry of a partition after an error. The usual error is a leader that has not yet
/// applied the view that made it leader (it learns of it at about the time its followers do),
/// a few milliseconds behind: waiting the whole replica.fetch.backoff.ms there stalled every
/// new or moved partition's high watermark (acks=all) for a second. Later retries double up
/// to replica.fetch.backoff.ms.
constexpr auto first_partition_retry = std::chrono::milliseconds(20);

enum class phase { truncating, fetching, fenced };

struct followed {
  partition_actor local;
  int32_t leader_epoch = 0;
  phase state = phase::truncating;
  bool busy = false;   ///< a truncation step or an append is under way
  bool remote = false; ///< busy waiting for the leader (a fetch or OffsetForLeaderEpoch)
  int64_t fetch_offset = 0;
  int64_t log_start_offset = 0;
  caf::actor_clock::time_point not_before{}; ///< retry after an error
  unsigned errors = 0;                       ///< errors since the last success (the back-off's attempt)
};

struct fetcher_state {
  static inline const char* name = "cafka.replica_fetcher";
  replica_fetcher_config cfg;
  std::string host;
  uint16_t port = 0;
  std::optional<node_actor> leader;
  /// The proxy of the last lost connection (this very proxy object: a proxy of the same node
  /// actor over a new connection compares equal as an actor_addr, by node and actor id).
  caf::weak_actor_ptr lost_leader;
  bool connecting = false;
  bool fetch_in_flight = false;
  /// Counts lost leaders: an answer to a request made before the last loss is ignored (a
  /// request out when the connection went may get neither an answer nor its timeout).
  uint64_t session = 0;
  caf::actor_clock::time_point connect_not_before{};
  std::optional<caf::actor_clock::time_point> retry_at; ///< when the armed tick comes
  std::map<topic_partition, followed> partitions;
};

using self_ptr = caf::stateful_actor<fetcher_state>*;

void step(self_ptr self);

std::chrono::milliseconds backoff(self_ptr self) { return std::chrono::milliseconds(self->state.cfg.backoff_ms); }

// Runs step() again after `delay` (default: the back-off), unless a tick is armed for no
// later: step() arms one again for whatever still waits when it comes.
void retry_later(self_ptr self, caf::timespan delay) {
  auto at = self->clock().now() + delay;
  auto& armed = self->state.retry_at;
  if (armed && *armed <= at)
    return;
  armed = at;
  self->delayed_send(self, delay, caf::tick_atom_v);
}

void retry_later(self_ptr self) { retry_later(self, backoff(self)); }

// Makes `f` wait before its next attempt after an error (see first_partition_retry), and
// makes sure a tick comes then.
void back_off_partition(self_ptr self, followed& f) {
  cluster::backoff_policy policy{std::min(first_partition_retry, backoff(self)), backoff(self)};
  auto delay = cluster::backoff_delay(policy, f.errors++);
  f.not_before = self->clock().now() + delay;
  retry_later(self, delay);
}

// Forgets the leader's proxy and connects again after the back-off. `connection_lost`: its
// connection is gone (the proxy went down), so a connect that hands back the same proxy (the
// middleman's cache, not yet cleaned) is refused. After a failed request (a timeout: the leader
// was slow, cut off for a while, or paused) the connection may well be up, and the middleman's
// cached proxy of it is the right one to take again.
void lose_leader(self_ptr self, const std::string& why, bool connection_lost) {
  auto& st = self->state;
  if (st.leader) {
    log_line(log_level::warn, log_component::replication, "broker %d: replica fetcher from broker %d: %s", st.cfg.broker_id, st.cfg.leader_id, why.c_str());
    if (connection_lost)
      st.lost_leader = caf::actor_cast<caf::weak_actor_ptr>(*st.leader);
    st.leader.reset();
  }
  // Every request still out to that leader is given up: its partitions ask again.
  ++st.session;
  st.fetch_in_flight = false;
  for (auto& [_, f] : st.partitions)
    if (f.busy && f.remote)
      f.busy = f.remote = false;
  st.connect_not_before = self->clock().now() + backoff(self);
  retry_later(self);
}

void connect(self_ptr self) {
  auto& st = self->state;
  if (st.connecting || st.port == 0)
    return;
  if (auto now = self->clock().now(); now < st.connect_not_before) {
    // Too early: a tick armed for an earlier wait (a partition's back-off) may have brought
    // us here; make sure one comes once the connect back-off is over.
    retry_later(self, st.connect_not_before - now);
    return;
  }
  st.connecting = true;
  auto mm = caf_port_connector(self->system());
  auto failed = [=](const std::string& why) {
    self->state.connecting = false;
    log_line(log_level::warn, log_component::replication, "broker %d: cannot reach leader broker %d at %s:%u (%s)", self->state.cfg.broker_id,
             self->state.cfg.leader_id, self->state.host.c_str(), static_cast<unsigned>(self->state.port), why.c_str());
    self->state.connect_not_before = self->clock().now() + backoff(self);
    retry_later(self);
  };
  self->request(mm, connect_timeout, caf::connect_atom_v, st.host, st.port)
    .then(
      [=](const caf::node_id&, caf::strong_actor_ptr& ptr, const std::set<std::string>& ifs) {
        auto& st = self->state;
        if (auto why = unusable_node(self->system(), ptr, ifs, ptr.get() == st.lost_leader.get())) {
          failed(*why);
          return;
        }
        st.connecting = false;
        auto node = caf::actor_cast<node_actor>(std::move(ptr));
        self->monitor(node);
        st.leader = node;
        step(self);
      },
      [=](caf::error& err) { failed(describe(err)); });
}

void wait_partition(self_ptr self, const topic_partition& tp) {
  auto it = self->state.partitions.find(tp);
  if (it == self->state.partitions.end())
    return;
  it->second.busy = false;
  back_off_partition(self, it->second);
}

// The entry for `tp` if it still follows at `epoch` (a follow message may have replaced it).
followed* current(self_ptr self, const topic_partition& tp, int32_t epoch) {
  auto it = self->state.partitions.find(tp);
  if (it == self->state.partitions.end() || it->second.leader_epoch != epoch)
    return nullptr;
  return &it->second;
}

void ask_epoch_end(self_ptr self, const topic_partition& tp, int32_t epoch, int32_t asked);

// The local replica truncated by the leader's answer: fetch from its new end, or ask again.
void truncated(self_ptr self, const topic_partition& tp, int32_t epoch, const truncation_done& done) {
  auto* f = current(self, tp, epoch);
  if (f == nullptr)
    return;
  if (done.ask_again) {
    ask_epoch_end(self, tp, epoch, done.next_epoch);
    return;
  }
  f->busy = false;
  f->errors = 0;
  f->state = phase::fetching;
  f->fetch_offset = done.log_end_offset;
  step(self);
}

void ask_epoch_end(self_ptr self, const topic_partition& tp, int32_t epoch, int32_t asked) {
  auto& st = self->state;
  if (!st.leader) {
    wait_partition(self, tp);
    return;
  }
  if (auto* f = current(self, tp, epoch))
    f->remote = true;
  auto session = st.session;
  self->request(*st.leader, connect_timeout, epoch_end_atom_v, tp, epoch, asked)
    .then(
      [=](epoch_end_answer& answer) {
        auto* f = current(self, tp, epoch);
        if (f == nullptr || session != self->state.session)
          return;
        f->remote = false;
        if (answer.error == protocol::wire_code(kafka_error::fenced_leader_epoch)) {
          f->busy = false;
          f->state = phase::fenced;
          return;
        }
        if (answer.error != 0) { // not leading (yet), or an epoch it has not learned yet
          wait_partition(self, tp);
          return;
        }
        self->request(f->local, local_timeout, truncate_atom_v, answer)
          .then([=](truncation_done& done) { truncated(self, tp, epoch, done); },
                [=](caf::error& err) {
                  log_line(log_level::warn, log_component::replication, "broker %d: truncating %s-%d failed: %s", self->state.cfg.broker_id, tp.topic.c_str(),
                           tp.partition, describe(err).c_str());
                  wait_partition(self, tp);
                });
      },
      [=](caf::error& err) {
        if (session != self->state.session)
          return;
        if (auto* f = current(self, tp, epoch))
          f->remote = false;
        wait_partition(self, tp);
        lose_leader(self, "OffsetForLeaderEpoch failed: " + describe(err), false);
      });
}

void start_truncation(self_ptr self, const topic_partition& tp, followed& f) {
  f.busy = true;
  auto epoch = f.leader_epoch;
  self->request(f.local, local_timeout, replica_fetch_atom_v)
    .then(
      [=](replica_position& pos) {
        if (auto* g = current(self, tp, epoch)) {
          g->log_start_offset = pos.log_start_offset;
          ask_epoch_end(self, tp, epoch, pos.latest_epoch);
        }
      },
      [=](caf::error&) { wait_partition(self, tp); });
}

// One partition's answer: append it (or restart it after OFFSET_OUT_OF_RANGE); `done` once
// the local replica has it.
void take_answer(self_ptr self, replica_fetch_partition_result& r, int32_t epoch, int64_t asked_offset,
                 std::function<void()> done) {
  auto* f = current(self, r.tp, epoch);
  if (f == nullptr || f->state != phase::fetching) {
    done();
    return;
  }
  auto tp = r.tp;
  auto moved = [=](replica_position& pos) {
    if (auto* g = current(self, tp, epoch)) {
      g->fetch_offset = pos.log_end_offset;
      g->log_start_offset = pos.log_start_offset;
      g->errors = 0;
    }
    done();
  };
  auto failed = [=](caf::error& err) {
    log_line(log_level::warn, log_component::replication, "broker %d: replicating %s-%d: %s", self->state.cfg.broker_id, tp.topic.c_str(), tp.partition,
             describe(err).c_str());
    if (auto* g = current(self, tp, epoch)) {
      g->state = phase::truncating; // find our position again
      back_off_partition(self, *g);
    }
    done();
  };
  if (r.error == 0) {
    self->request(f->local, local_timeout, replica_append_atom_v, epoch, asked_offset, std::move(r.records),
                  r.high_watermark, r.log_start_offset)
      .then(moved, failed);
  } else if (r.error == protocol::wire_code(kafka_error::offset_out_of_range)) {
    self->request(f->local, local_timeout, truncate_atom_v, r.log_start_offset, r.log_end_offset).then(moved, failed);
  } else if (r.error == protocol::wire_code(kafka_error::fenced_leader_epoch)) {
    f->state = phase::fenced; // the leader moved on: wait for the node's next follow message
    done();
  } else {
    back_off_partition(self, *f);
    done();
  }
}

// Whether the follower replication quota leaves `tp` out of this fetch.
bool held_back(self_ptr self, const topic_partition& tp) {
  auto& cfg = self->state.cfg;
  return cfg.throttle && cfg.throttle->follower_holds_back(tp, cfg.broker_id, cfg.now_ms());
}

// Counts what a fetch brought against the follower replication quota.
void count_received(self_ptr self, const replica_fetch_result& res) {
  auto& cfg = self->state.cfg;
  if (!cfg.throttle)
    return;
  auto now = cfg.now_ms();
  for (auto& r : res.partitions)
    cfg.throttle->record_follower(r.tp, cfg.broker_id, r.records.size(), now);
}

void fetch(self_ptr self) {
  auto& st = self->state;
  auto now = self->clock().now();
  replica_fetch_request req;
  req.replica_id = st.cfg.broker_id;
  req.max_wait_ms = st.cfg.fetch_wait_max_ms;
  bool throttled = false;
  for (auto& [tp, f] : st.partitions) {
    if (f.state != phase::fetching || f.busy || f.not_before > now)
      continue;
    if (held_back(self, tp)) {
      throttled = true;
      continue;
    }
    req.partitions.push_back({tp, f.leader_epoch, f.fetch_offset, f.log_start_offset, st.cfg.fetch_max_bytes});
  }
  if (req.partitions.empty()) {
    if (throttled) // over the quota: look again when the next sample may have freed some
      retry_later(self, std::chrono::milliseconds(st.cfg.fetch_wait_max_ms));
    return;
  }
  st.fetch_in_flight = true;
  auto asked = req.partitions;
  for (auto& p : asked) {
    auto& f = st.partitions[p.tp];
    f.busy = f.remote = true;
  }
  auto timeout = std::chrono::milliseconds(req.max_wait_ms) + fetch_grace;
  auto session = st.session;
  // Once every answered partition's local work is done (or at once after an error).
  auto release = [=] {
    for (auto& p : asked)
      if (auto* f = current(self, p.tp, p.leader_epoch))
        f->busy = f->remote = false;
    if (session == self->state.session)
      self->state.fetch_in_flight = false;
  };
  self->request(*st.leader, timeout, replica_fetch_atom_v, std::move(req))
    .then(
      [=](replica_fetch_result& res) {
        if (session != self->state.session)
          return; // given up when the leader was lost: its partitions are fetched again
        count_received(self, res);
        for (auto& p : asked)
          if (auto* f = current(self, p.tp, p.leader_epoch))
            f->remote = false; // local work from here on
        auto outstanding = std::make_shared<size_t>(res.partitions.size() + 1);
        auto one_done = [=] {
          if (--*outstanding == 0) {
            release();
            step(self);
          }
        };
        for (auto& r : res.partitions) {
          auto p = std::find_if(asked.begin(), asked.end(), [&](auto& a) { return a.tp == r.tp; });
          if (p == asked.end()) {
            one_done();
            continue;
          }
          take_answer(self, r, p->leader_epoch, p->fetch_offset, one_done);
        }
        one_done();
      },
      [=](caf::error& err) {
        if (session != self->state.session)
          return;
        release();
        lose_leader(self, "fetch failed: " + describe(err), false);
      });
}

void step(self_ptr self) {
  auto& st = self->state;
  if (st.partitions.empty())
    return;
  if (!st.leader) {
    connect(self);
    return;
  }
  auto now = self->clock().now();
  for (auto& [tp, f] : st.partitions)
    if (!f.busy && f.state == phase::truncating && f.not_before <= now)
      start_truncation(self, tp, f);
  if (!st.fetch_in_flight)
    fetch(self);
  auto next = caf::actor_clock::time_point::max(); // the first partition back-off to end
  for (auto& [tp, f] : st.partitions)
    if (!f.busy && f.state != phase::fenced && f.not_before > now)
      next = std::min(next, f.not_before);
  if (next != caf::actor_clock::time_point::max())
    retry_later(self, next - now);
}

caf::behavior replica_fetcher(self_ptr self, replica_fetcher_config cfg) {
  self->state.cfg = cfg;
  self->set_down_handler([=](caf::down_msg& msg) {
    // This very proxy (a late down of an earlier proxy of the same node actor compares equal
    // as an address).
    if (self->state.leader && msg.source.get() == caf::actor_cast<caf::strong_actor_ptr>(*self->state.leader).get())
      lose_leader(self, "connection lost", true);
  });
  return {
    [=](follow_atom, std::vector<followed_partition>& wanted, std::string& host, uint16_t port) {
      auto& st = self->state;
      if (host != st.host || port != st.port) {
        st.host = std::move(host);
        st.port = port;
        st.leader.reset();
        st.connect_not_before = {};
      }
      std::map<topic_partition, followed> next;
      for (auto& w : wanted) {
        auto old = st.partitions.find(w.tp);
        if (old != st.partitions.end() && old->second.leader_epoch == w.leader_epoch
            && old->second.local.address() == w.local.address())
          next.emplace(w.tp, std::move(old->second));
        else
          next.emplace(w.tp, followed{w.local, w.leader_epoch});
      }
      st.partitions = std::move(next);
      step(self);
    },
    [=](caf::tick_atom) {
      auto& armed = self->state.retry_at;
      if (armed && *armed <= self->clock().now())
        armed.reset(); // else this is an older tick, and the armed one is still to come
      step(self);
    },
  };
}

} // namespace

caf::actor spawn_replica_fetcher(caf::actor_system& sys, replica_fetcher_config cfg) {
  return sys.spawn(replica_fetcher, std::move(cfg));
}

} // namespace cafka
