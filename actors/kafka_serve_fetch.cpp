// Fetch: a long poll over one or several partitions.
//
// One partition: its actor parks the request until min_bytes or max_wait_ms.
// Several: every partition answers at once with what it has and, when short of
// min_bytes, keeps a watch for this connection (fetch_watch). If the answers together
// reach min_bytes (or the client does not wait, or a partition failed) the response goes
// out; otherwise the first watch that fires with data answers the whole request, or
// max_wait_ms ends it. A partition whose watch for this connection is still armed at the
// same offset is not asked again: a consumer that follows six partitions, one of them
// busy, costs one partition round trip per fetch instead of six.
// min_bytes is counted per partition while waiting (exact for the usual 1 byte).
#include <algorithm>
#include <chrono>
#include <map>
#include <unordered_map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/routing_table.hpp"
#include "metrics/broker_metrics.hpp"
#include "protocol/batch_header.hpp"

namespace cafka {

namespace {

// Partition actors live in this process and answer every request, or CAF answers for
// them with an error once they are gone. A finite timeout would cost two operations on
// CAF's clock thread per request (schedule, cancel): a context switch each.
constexpr auto partition_timeout = caf::infinite;

struct fetch_target {
  size_t topic = 0;     ///< index into the response's topics
  size_t partition = 0; ///< index into that topic's partitions
  topic_partition tp;
  std::optional<partition_actor> actor;
  fetch_request request;
};

// What a connection knows of its watch at one partition.
struct watch_mark {
  caf::actor_addr partition; ///< the actor holding the watch (a recreated topic has new ones)
  int64_t offset = -1;       ///< the fetch offset the watch waits beyond
  int64_t valid_until = 0;   ///< ms; the partition keeps the watch at least this long
  int64_t high_watermark = -1;
  int64_t last_stable_offset = -1;
  int64_t log_start_offset = -1;
  int32_t leader_epoch = -1; ///< the fetch's current_leader_epoch, which the partition checked
  bool read_committed = false; ///< the isolation level the watch reads at
};

struct fetch_poll {
  fetch_poll(kafka_reply r, const wire::fetch_request& req)
    : reply(std::move(r)), max_bytes(req.max_bytes), min_bytes(req.min_bytes), max_wait_ms(req.max_wait_ms) {}

  kafka_reply reply;
  int32_t max_bytes;
  int32_t min_bytes;
  int32_t max_wait_ms;
  uint64_t id = 0;
  caf::actor_clock::time_point deadline; ///< while waiting for watch data
  wire::fetch_response response;
  std::vector<fetch_target> targets;
  size_t outstanding = 0;
  bool answered = false;

  wire::fetch_partition_response& slot(size_t i) {
    auto& t = targets[i];
    return response.topics[t.topic].partitions[t.partition];
  }
};

using poll_ptr = std::shared_ptr<fetch_poll>;

void store(wire::fetch_partition_response& out, fetch_result&& r) {
  out.error_code = 0;
  out.high_watermark = r.high_watermark;
  out.last_stable_offset = r.last_stable_offset;
  out.log_start_offset = r.log_start_offset;
  out.records = std::move(r.records);
  out.aborted_transactions.clear();
  for (auto& a : r.aborted)
    out.aborted_transactions.push_back({a.producer_id, a.first_offset});
}

void store(wire::fetch_partition_response& out, const caf::error& err) {
  out.error_code = protocol::wire_code(to_kafka_error(err));
  out.high_watermark = out.last_stable_offset = out.log_start_offset = -1;
  out.records.clear();
}

// Keeps the response within the request's max_bytes, as Kafka (KIP-74): partitions in
// request order, each whole while it fits; the first non-empty one cut to the whole batches
// that fit, but at least its first batch (which alone may be larger); later ones dropped
// once they do not fit.
void apply_max_bytes(fetch_poll& poll) {
  int64_t budget = std::max(poll.max_bytes, 0);
  bool first = true;
  for (auto& t : poll.response.topics)
    for (auto& p : t.partitions) {
      if (p.records.empty())
        continue;
      auto size = static_cast<int64_t>(p.records.size());
      if (first && size > budget) {
        p.records.resize(protocol::whole_batches_within({p.records.data(), p.records.size()},
                                                        static_cast<size_t>(budget)));
        size = static_cast<int64_t>(p.records.size());
      }
      if (first || size <= budget) {
        budget -= size;
        first = false;
      } else {
        p.records.clear();
      }
    }
}

size_t bytes_found(const fetch_poll& poll) {
  size_t n = 0;
  for (auto& t : poll.response.topics)
    for (auto& p : t.partitions)
      n += p.records.size();
  return n;
}

// Per partition answered (not per record: batch headers give the record counts).
void count_fetched(const kafka_services& s, const wire::fetch_response& response) {
  if (!s.metrics)
    return;
  for (auto& t : response.topics)
    for (auto& p : t.partitions)
      if (p.error_code != 0)
        s.metrics->fetch_failed(t.topic, p.error_code);
      else
        s.metrics->fetched(t.topic, protocol::count_records({p.records.data(), p.records.size()}), p.records.size());
}

bool any_error(const fetch_poll& poll) {
  for (auto& t : poll.response.topics)
    for (auto& p : t.partitions)
      if (p.error_code != 0)
        return true;
  return false;
}

} // namespace

class fetch_polls {
public:
  struct connection_state {
    std::map<topic_partition, watch_mark> armed; ///< unfired watches of this connection
    poll_ptr current;                            ///< its fetch being served, if any
  };

  uint64_t add(poll_ptr p) {
    p->id = ++last_id_;
    waiting_.emplace(p->id, std::move(p));
    return last_id_;
  }
  poll_ptr take(uint64_t id) {
    auto it = waiting_.find(id);
    if (it == waiting_.end())
      return nullptr;
    auto p = std::move(it->second);
    waiting_.erase(it);
    return p;
  }
  poll_ptr find(uint64_t id) const {
    auto it = waiting_.find(id);
    return it == waiting_.end() ? nullptr : it->second;
  }
  /// The waiting fetches whose deadline passed.
  std::vector<poll_ptr> expired(caf::actor_clock::time_point now) const {
    std::vector<poll_ptr> out;
    for (auto& [id, p] : waiting_)
      if (p->deadline <= now)
        out.push_back(p);
    return out;
  }
  /// The earliest deadline of a waiting fetch, or time_point::max().
  caf::actor_clock::time_point earliest_deadline() const {
    auto out = caf::actor_clock::time_point::max();
    for (auto& [id, p] : waiting_)
      out = std::min(out, p->deadline);
    return out;
  }

  /// One timer for all waiting fetches (a timer each would wake CAF's clock thread per
  /// fetch): the id of a timer to start for `deadline`, or 0 when the pending one fires
  /// early enough.
  uint64_t arm(caf::actor_clock::time_point deadline) {
    if (timer_at_ != caf::actor_clock::time_point{} && timer_at_ <= deadline)
      return 0;
    timer_at_ = deadline;
    return ++timer_id_;
  }
  /// Whether timer `id` is the pending one (it then is no longer pending).
  bool fire(uint64_t id) {
    if (id != timer_id_)
      return false;
    timer_at_ = {};
    return true;
  }

  connection_state& connection(uint64_t key) { return connections_[key]; }
  connection_state* find_connection(uint64_t key) {
    auto it = connections_.find(key);
    return it == connections_.end() ? nullptr : &it->second;
  }
  void forget(uint64_t key) { connections_.erase(key); }

private:
  uint64_t last_id_ = 0;
  caf::actor_clock::time_point timer_at_{};
  uint64_t timer_id_ = 0;
  std::unordered_map<uint64_t, poll_ptr> waiting_;
  std::unordered_map<uint64_t, connection_state> connections_;
};

std::shared_ptr<fetch_polls> make_fetch_polls() { return std::make_shared<fetch_polls>(); }

namespace {

// `poll` must be owned by the caller too: it leaves the registry here.
void answer(const kafka_services& s, fetch_poll& poll) {
  if (poll.answered)
    return;
  poll.answered = true;
  if (poll.id != 0)
    s.polls->take(poll.id); // a late timeout finds nothing
  if (auto c = s.polls->find_connection(poll.reply.connection_key()); c && c->current.get() == &poll)
    c->current.reset(); // late watch data finds nothing
  apply_max_bytes(poll);
  count_fetched(s, poll.response);
  // The consumer quota counts the record bytes sent (Kafka: the whole response's size).
  poll.response.throttle_time_ms =
    poll.reply.record_quota(cluster::quota_kind::consumer_byte_rate, static_cast<double>(bytes_found(poll)));
  auto version = poll.reply.version();
  poll.reply.send([&](wire::byte_writer& w) { wire::encode_fetch_response(poll.response, version, w); });
}

// The callbacks below keep a pointer to the listener's services, not a copy: they run
// inside the listener actor, which owns the services for its whole life, and a copy
// would cost a std::function and four shared_ptr copies per partition and fetch.
void single_poll(const kafka_services& s, const poll_ptr& poll) {
  auto sp = &s;
  auto req = poll->targets.front().request;
  req.min_bytes = std::max(poll->min_bytes, 0);
  req.max_wait_ms = poll->min_bytes > 0 ? std::max(poll->max_wait_ms, 0) : 0; // min_bytes 0: no wait
  s.self->request(*poll->targets.front().actor, partition_timeout, fetch_atom_v, req)
    .then([sp, poll](fetch_result& r) { store(poll->slot(0), std::move(r)); answer(*sp, *poll); },
          [sp, poll](caf::error& err) { store(poll->slot(0), err); answer(*sp, *poll); });
}

void arm_timer(const kafka_services& s, caf::actor_clock::time_point deadline) {
  if (auto id = s.polls->arm(deadline)) {
    auto delay = std::max(deadline - s.self->clock().now(), caf::actor_clock::duration_type{0});
    s.self->delayed_send(s.self, delay, caf::timeout_atom_v, id);
  }
}

void watched_poll(const kafka_services& s, const poll_ptr& poll) {
  bool wait = poll->max_wait_ms > 0 && poll->min_bytes > 0;
  auto key = poll->reply.connection_key();
  auto& conn = s.polls->connection(key);
  if (wait) {
    poll->deadline = s.self->clock().now() + std::chrono::milliseconds(poll->max_wait_ms);
    s.polls->add(poll);
    conn.current = poll;
  }
  auto sp = &s;
  auto finish = [sp, poll, wait] {
    if (--poll->outstanding > 0 || poll->answered)
      return;
    if (!wait || bytes_found(*poll) >= static_cast<size_t>(poll->min_bytes) || any_error(*poll))
      answer(*sp, *poll);
    else
      arm_timer(*sp, poll->deadline);
  };
  auto now = s.now_ms();
  poll->outstanding = 1; // guard
  for (size_t i = 0; i < poll->targets.size(); ++i) {
    auto& t = poll->targets[i];
    if (!t.actor)
      continue;
    auto mark = conn.armed.find(t.tp);
    if (wait && mark != conn.armed.end() && mark->second.partition == t.actor->address()
        && mark->second.offset == t.request.offset && mark->second.valid_until >= now + poll->max_wait_ms
        && mark->second.leader_epoch == t.request.current_leader_epoch
        && mark->second.read_committed == t.request.read_committed) {
      // Nothing new here since the watch was set, or it would have fired. (Another leader
      // epoch is asked again: the partition may refuse it, FENCED or UNKNOWN_LEADER_EPOCH.)
      auto& out = poll->slot(i);
      out.high_watermark = mark->second.high_watermark;
      out.last_stable_offset = mark->second.last_stable_offset;
      out.log_start_offset = mark->second.log_start_offset;
      continue;
    }
    ++poll->outstanding;
    auto req = t.request;
    req.min_bytes = std::max(poll->min_bytes, 1);
    req.max_wait_ms = wait ? poll->max_wait_ms : 0;
    auto valid_until = now + req.max_wait_ms + fetch_watch_grace_ms;
    auto partition = t.actor->address();
    fetch_watch w{req, caf::actor_cast<caf::actor>(s.self), key};
    s.self->request(*t.actor, partition_timeout, fetch_atom_v, std::move(w))
      .then(
        [sp, poll, i, key, req, valid_until, partition, finish](fetch_result& r) {
          // A reply short of min_bytes means the partition now watches for this connection.
          if (auto conn = sp->polls->find_connection(key)) {
            auto& tp = poll->targets[i].tp;
            if (req.max_wait_ms > 0 && r.records.size() < static_cast<size_t>(req.min_bytes))
              conn->armed[tp] = watch_mark{partition,           req.offset,           valid_until,
                                           r.high_watermark,    r.last_stable_offset, r.log_start_offset,
                                           req.current_leader_epoch, req.read_committed};
            else
              conn->armed.erase(tp);
          }
          if (!poll->answered)
            store(poll->slot(i), std::move(r));
          finish();
        },
        [poll, i, finish](caf::error& err) {
          if (!poll->answered)
            store(poll->slot(i), err);
          finish();
        });
  }
  finish();
}

} // namespace

void on_watch_data(const kafka_services& s, uint64_t connection_key, const topic_partition& tp,
                   fetch_result&& r) {
  auto conn = s.polls->find_connection(connection_key);
  if (!conn)
    return; // the connection is gone
  conn->armed.erase(tp); // a watch fires once
  auto poll = conn->current;
  if (!poll || poll->answered)
    return; // the next fetch asks the partition again
  for (size_t i = 0; i < poll->targets.size(); ++i) {
    if (!(poll->targets[i].tp == tp))
      continue;
    store(poll->slot(i), std::move(r));
    if (poll->outstanding == 0) // else the first round's end answers, data now included
      answer(s, *poll);
    return;
  }
}

void on_poll_timeout(const kafka_services& s, uint64_t timer_id) {
  if (!s.polls->fire(timer_id))
    return; // an earlier deadline's timer took its place
  for (auto& poll : s.polls->expired(s.self->clock().now()))
    answer(s, *poll);
  auto next = s.polls->earliest_deadline();
  if (next != caf::actor_clock::time_point::max())
    arm_timer(s, next);
}

void forget_connection(const kafka_services& s, uint64_t connection_key) { s.polls->forget(connection_key); }

void serve(const kafka_services& s, wire::fetch_request&& req, const kafka_reply& reply) {
  auto poll = std::make_shared<fetch_poll>(reply, req);
  auto routes = s.routes->snapshot();
  auto& resp = poll->response;
  resp.topics.resize(req.topics.size());
  for (size_t t = 0; t < req.topics.size(); ++t) {
    auto& topic = req.topics[t];
    resp.topics[t].topic = topic.topic;
    resp.topics[t].partitions.resize(topic.partitions.size());
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& part = topic.partitions[p];
      auto& out = resp.topics[t].partitions[p];
      out.partition_index = part.partition;
      topic_partition tp{topic.topic, part.partition};
      fetch_request fr{part.fetch_offset, part.partition_max_bytes, 1, 0, part.current_leader_epoch,
                       req.isolation_level == 1};
      fetch_target target{t, p, tp, std::nullopt, fr};
      auto route = routes->find(tp);
      if (route == routes->end())
        out.error_code = protocol::wire_code(s.routes->miss_error(tp));
      else
        target.actor = route->second;
      poll->targets.push_back(std::move(target));
    }
  }
  if (poll->targets.size() == 1 && poll->targets.front().actor)
    single_poll(s, poll);
  else
    watched_poll(s, poll);
}

} // namespace cafka
