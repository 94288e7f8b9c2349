#include "client/producer_actor.hpp"

#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/accumulator.hpp"
#include "client/bootstrap.hpp"
#include "client/node_link.hpp"
#include "client/partitioner.hpp"
#include "client/same_actor.hpp"
#include "client/send_queue.hpp"

namespace cafka::client {

namespace {

using clock_type = std::chrono::steady_clock;

struct pending_record {
  send_callback done;
  clock_type::time_point deadline;
};

struct queued_record {
  producer_record rec;
  uint64_t token = 0;
};

struct topic_state {
  std::vector<partition_actor> partitions; ///< by partition; invalid = unavailable
  std::vector<partition_actor> watched;    ///< the monitored actor of each partition
  bool known = false;                      ///< the partition count is known
  bool refreshing = false;                 ///< a metadata request is out
  bool wants_refresh = false;
  unsigned failures = 0;
  clock_type::time_point refresh_not_before{};
  caf::error last_error;
  std::deque<queued_record> waiting; ///< records waiting for the first metadata
};

struct producer_state {
  static inline const char* name = "cafka.client.producer";
  producer_config cfg;
  node_link_actor link;
  record_accumulator acc;
  std::optional<sticky_partitioner> sticky;
  std::map<std::string, topic_state> topics;
  std::map<topic_partition, send_queue> queues;
  std::map<uint64_t, pending_record> pending; ///< token -> completion; deadlines ascend
  std::deque<std::pair<uint64_t, caf::typed_response_promise<bool>>> flushes; ///< (first token after)
  uint64_t next_token = 1;
  std::optional<clock_type::time_point> wakeup_at;
};

using self_ptr = producer_actor::stateful_pointer<producer_state>;

int64_t wall_clock_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

void pump(self_ptr self);

void check_flushes(self_ptr self) {
  auto& st = self->state;
  while (!st.flushes.empty()
         && (st.pending.empty() || st.pending.begin()->first >= st.flushes.front().first)) {
    st.flushes.front().second.deliver(true);
    st.flushes.pop_front();
  }
  st.acc.set_flushing(!st.flushes.empty());
}

void complete(self_ptr self, uint64_t token, caf::expected<record_metadata> res) {
  auto& st = self->state;
  auto it = st.pending.find(token);
  if (it == st.pending.end())
    return;
  auto done = std::move(it->second.done);
  st.pending.erase(it);
  if (done)
    done(std::move(res));
}

void fail_batch(self_ptr self, const sealed_batch& b, const caf::error& err) {
  for (auto token : b.tokens)
    complete(self, token, err);
}

caf::error timed_out(const caf::error& last) {
  std::string text = "not acknowledged within delivery_timeout";
  if (last)
    text += " (last error: " + describe(last) + ")";
  return caf::make_error(kafka_error::request_timed_out, std::move(text));
}

void arm_wakeup(self_ptr self, clock_type::time_point at) {
  auto& st = self->state;
  if (st.wakeup_at && *st.wakeup_at <= at)
    return;
  st.wakeup_at = at;
  auto delay = std::max(at - clock_type::now(), clock_type::duration::zero());
  self->delayed_send(self, delay, wakeup_atom_v);
}

// -- metadata -----------------------------------------------------------------

void on_metadata(self_ptr self, const std::string& topic, cluster_metadata& md);
void on_metadata_error(self_ptr self, const std::string& topic, const caf::error& err);

void maybe_refresh(self_ptr self, const std::string& topic) {
  auto& st = self->state;
  auto& ts = st.topics[topic];
  if (!ts.wants_refresh || ts.refreshing)
    return;
  if (clock_type::now() < ts.refresh_not_before) {
    arm_wakeup(self, ts.refresh_not_before);
    return;
  }
  ts.wants_refresh = false;
  ts.refreshing = true;
  metadata_request req{{topic}, false, st.cfg.allow_auto_create_topics};
  self->request(st.link, st.cfg.request_timeout + std::chrono::seconds(1), metadata_atom_v, std::move(req))
    .then([=](cluster_metadata& md) { on_metadata(self, topic, md); },
          [=](caf::error& err) { on_metadata_error(self, topic, err); });
}

void want_metadata(self_ptr self, const std::string& topic) {
  self->state.topics[topic].wants_refresh = true;
  maybe_refresh(self, topic);
}

// Everything waiting for `topic` fails with `err` (the topic does not exist, ...).
void fail_topic(self_ptr self, const std::string& topic, const caf::error& err) {
  auto& st = self->state;
  auto& ts = st.topics[topic];
  auto waiting = std::move(ts.waiting);
  ts.waiting.clear();
  ts.known = false;
  ts.partitions.clear();
  for (auto& q : waiting)
    complete(self, q.token, err);
  for (auto& [tp, queue] : st.queues)
    if (tp.topic == topic)
      for (auto& b : queue.take_all())
        fail_batch(self, b, err);
}

// Partitions and accumulates a record; false if nothing changed for the timers (it went
// into a batch that was already open and is not full).
bool append(self_ptr self, topic_state& ts, producer_record& rec, uint64_t token) {
  auto& st = self->state;
  auto n = static_cast<int32_t>(ts.partitions.size());
  int32_t p = 0;
  bool sticky = false;
  if (rec.partition) {
    if (*rec.partition < 0 || *rec.partition >= n) {
      complete(self, token,
               caf::make_error(kafka_error::unknown_topic_or_partition,
                               "topic '" + rec.topic + "' has no partition " + std::to_string(*rec.partition)));
      return true;
    }
    p = *rec.partition;
  } else if (rec.key) {
    p = partition_for_key(*rec.key, n);
  } else {
    p = st.sticky->partition(rec.topic, n);
    sticky = true;
  }
  protocol::record r{std::move(rec.key), std::move(rec.value), std::move(rec.headers), *rec.timestamp};
  auto res = st.acc.append(topic_partition{rec.topic, p}, r, token, clock_type::now());
  if (sticky && res.batch_closed)
    st.sticky->on_new_batch(rec.topic, p, n);
  return res.new_batch || res.batch_closed;
}

void on_metadata(self_ptr self, const std::string& topic, cluster_metadata& md) {
  auto& st = self->state;
  auto& ts = st.topics[topic];
  ts.refreshing = false;
  topic_metadata* tm = nullptr;
  for (auto& t : md.topics)
    if (t.name == topic)
      tm = &t;
  if (!tm) {
    fail_topic(self, topic, caf::make_error(kafka_error::unknown_topic_or_partition, "no metadata for topic '" + topic + "'"));
    pump(self);
    return;
  }
  if (auto e = from_wire(tm->error); e != kafka_error::none) {
    auto err = caf::make_error(e, "topic '" + topic + "'");
    if (is_retriable(e))
      on_metadata_error(self, topic, err);
    else
      fail_topic(self, topic, err);
    pump(self);
    return;
  }
  int32_t count = 0;
  for (auto& p : tm->partitions)
    count = std::max(count, p.partition + 1);
  std::vector<partition_actor> parts(static_cast<size_t>(count));
  bool all_available = count > 0;
  for (auto& p : tm->partitions) {
    if (p.error != 0 || !p.actor) {
      all_available = false;
      continue;
    }
    auto idx = static_cast<size_t>(p.partition);
    parts[idx] = std::move(p.actor);
    if (ts.watched.size() < parts.size())
      ts.watched.resize(parts.size());
    if (!same_object(parts[idx], ts.watched[idx])) {
      // A lost connection shows up as the proxy's down message.
      if (ts.watched[idx])
        self->demonitor(ts.watched[idx].address());
      ts.watched[idx] = parts[idx];
      self->monitor(ts.watched[idx]);
    }
  }
  ts.partitions = std::move(parts);
  ts.known = count > 0;
  if (all_available) {
    ts.failures = 0;
    ts.last_error = caf::error{};
  } else {
    on_metadata_error(self, topic, caf::make_error(kafka_error::leader_not_available, "topic '" + topic + "'"));
  }
  if (ts.known) {
    auto waiting = std::move(ts.waiting);
    ts.waiting.clear();
    for (auto& q : waiting)
      append(self, ts, q.rec, q.token);
  }
  pump(self);
}

void on_metadata_error(self_ptr self, const std::string& topic, const caf::error& err) {
  auto& st = self->state;
  auto& ts = st.topics[topic];
  ts.refreshing = false;
  if (!is_retriable(err)) {
    fail_topic(self, topic, err);
    pump(self);
    return;
  }
  ts.last_error = err;
  ts.refresh_not_before = clock_type::now() + backoff_delay(st.cfg.retry_backoff, ts.failures++);
  want_metadata(self, topic);
}

// -- producing ----------------------------------------------------------------

void on_produced(self_ptr self, const topic_partition& tp, uint64_t attempt, produce_result& r);
void on_produce_error(self_ptr self, const topic_partition& tp, uint64_t attempt, const caf::error& err);

void send_ready(self_ptr self, const topic_partition& tp, send_queue& q) {
  auto& st = self->state;
  if (q.waiting() == 0)
    return;
  auto& ts = st.topics[tp.topic];
  auto idx = static_cast<size_t>(tp.partition);
  if (idx >= ts.partitions.size() || !ts.partitions[idx]) {
    want_metadata(self, tp.topic);
    return;
  }
  auto part = ts.partitions[idx];
  auto now = clock_type::now();
  while (auto a = q.start_next(st.cfg.max_in_flight, now)) {
    if (st.cfg.acks == 0) {
      caf::anon_send(part, produce_atom_v, produce_request{0, a->batch->bytes});
      auto b = q.finish(a->id);
      for (size_t i = 0; i < b->tokens.size(); ++i)
        complete(self, b->tokens[i], record_metadata{tp.topic, tp.partition, -1, b->timestamps[i]});
      continue;
    }
    auto id = a->id;
    self->request(part, st.cfg.request_timeout, produce_atom_v, produce_request{st.cfg.acks, a->batch->bytes})
      .then([=](produce_result& r) { on_produced(self, tp, id, r); },
            [=](caf::error& err) { on_produce_error(self, tp, id, err); });
  }
  if (q.waiting() > 0 && q.in_flight() < st.cfg.max_in_flight)
    arm_wakeup(self, q.backoff_until());
}

void on_produced(self_ptr self, const topic_partition& tp, uint64_t attempt, produce_result& r) {
  auto& st = self->state;
  auto b = st.queues[tp].finish(attempt);
  if (!b)
    return; // answered after the batch was put back (it is sent again)
  for (size_t i = 0; i < b->tokens.size(); ++i) {
    auto ts = r.log_append_time != -1 ? r.log_append_time : b->timestamps[i];
    complete(self, b->tokens[i],
             record_metadata{tp.topic, tp.partition, r.base_offset + static_cast<int64_t>(i), ts});
  }
  pump(self);
}

// The partition actor of `tp` is unusable (lost, or answering with retriable errors):
// forget it and ask for fresh metadata.
void drop_partition(self_ptr self, const topic_partition& tp) {
  auto& ts = self->state.topics[tp.topic];
  auto idx = static_cast<size_t>(tp.partition);
  if (idx < ts.partitions.size())
    ts.partitions[idx] = nullptr;
  want_metadata(self, tp.topic);
}

void on_produce_error(self_ptr self, const topic_partition& tp, uint64_t attempt, const caf::error& err) {
  auto& st = self->state;
  auto& q = st.queues[tp];
  auto b = q.find(attempt);
  if (!b)
    return;
  auto now = clock_type::now();
  if (is_retriable(err) && b->attempts <= st.cfg.retries && now < b->created + st.cfg.delivery_timeout) {
    auto attempts = b->attempts;
    q.retry(attempt, now + backoff_delay(st.cfg.retry_backoff, static_cast<unsigned>(attempts - 1)));
    st.topics[tp.topic].last_error = err;
    drop_partition(self, tp);
  } else {
    auto done = q.finish(attempt);
    auto final_err = is_retriable(err) && now >= done->created + st.cfg.delivery_timeout ? timed_out(err) : err;
    fail_batch(self, *done, final_err);
  }
  pump(self);
}

// Fails what waited too long: records without metadata, batches not yet sent.
void expire(self_ptr self, clock_type::time_point now) {
  auto& st = self->state;
  for (auto& [name, ts] : st.topics) {
    while (!ts.waiting.empty()) {
      auto it = st.pending.find(ts.waiting.front().token);
      if (it != st.pending.end() && it->second.deadline > now)
        break;
      auto token = ts.waiting.front().token;
      ts.waiting.pop_front();
      complete(self, token, timed_out(ts.last_error));
    }
  }
  for (auto& [tp, q] : st.queues)
    for (auto& b : q.expire(now - st.cfg.delivery_timeout))
      fail_batch(self, b, timed_out(st.topics[tp.topic].last_error));
}

void pump(self_ptr self) {
  auto& st = self->state;
  auto now = clock_type::now();
  expire(self, now);
  for (auto& b : st.acc.drain_ready(now)) {
    auto& ts = st.topics[b.tp.topic];
    // The batch the sticky partition was filling is closed: stick to another one.
    st.sticky->on_new_batch(b.tp.topic, b.tp.partition, static_cast<int32_t>(ts.partitions.size()));
    auto tp = b.tp;
    st.queues[tp].push(std::move(b));
  }
  for (auto& [tp, q] : st.queues)
    send_ready(self, tp, q);
  for (auto& [name, ts] : st.topics)
    maybe_refresh(self, name);
  if (auto due = st.acc.next_deadline())
    arm_wakeup(self, *due);
  if (!st.pending.empty())
    arm_wakeup(self, st.pending.begin()->second.deadline);
  check_flushes(self);
}

void handle_send(self_ptr self, producer_record& rec, send_callback done) {
  auto& st = self->state;
  if (rec.topic.empty()) {
    done(caf::make_error(kafka_error::invalid_topic_exception, "empty topic name"));
    return;
  }
  if (!rec.timestamp)
    rec.timestamp = wall_clock_ms();
  auto size = protocol::batch_layout::header_size
              + record_accumulator::record_size(rec.key, rec.value, rec.headers, 0, 0);
  if (size > st.cfg.max_request_size) {
    done(caf::make_error(kafka_error::message_too_large,
                         "record of about " + std::to_string(size) + " bytes exceeds max_request_size "
                           + std::to_string(st.cfg.max_request_size)));
    return;
  }
  auto token = st.next_token++;
  st.pending.emplace(token, pending_record{std::move(done), clock_type::now() + st.cfg.delivery_timeout});
  auto& ts = st.topics[rec.topic];
  if (!ts.known) {
    auto topic = rec.topic;
    ts.waiting.push_back(queued_record{std::move(rec), token});
    want_metadata(self, topic);
    arm_wakeup(self, st.pending.at(token).deadline);
    return;
  }
  // Appending to an open batch changes nothing else: skip the walk over all partitions.
  if (append(self, ts, rec, token) || !st.flushes.empty() || st.cfg.linger.count() == 0)
    pump(self);
}

producer_actor::behavior_type producer(self_ptr self, node_actor node, producer_config cfg) {
  auto& st = self->state;
  st.cfg = std::move(cfg);
  st.acc = record_accumulator{accumulator_config{st.cfg.batch_size, st.cfg.linger, st.cfg.compression}};
  st.sticky.emplace(st.cfg.partitioner_seed != 0 ? st.cfg.partitioner_seed : std::random_device{}());
  link_options lo;
  if (!st.cfg.bootstrap_servers.empty())
    lo.endpoints = *parse_bootstrap(st.cfg.bootstrap_servers); // validated by spawn_producer
  lo.request_timeout = st.cfg.request_timeout;
  lo.connect_timeout = st.cfg.connect_timeout;
  lo.reconnect_backoff = st.cfg.retry_backoff;
  st.link = spawn_node_link(self->system(), std::move(node), std::move(lo));
  auto link = st.link;
  self->attach_functor([link](const caf::error&) { caf::anon_send_exit(link, caf::exit_reason::user_shutdown); });
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    for (auto& [name, ts] : st.topics)
      for (size_t p = 0; p < ts.watched.size(); ++p)
        if (same_actor(ts.watched[p], dm.source)) {
          // The connection is gone: what is out at this partition will not be answered.
          ts.watched[p] = nullptr;
          topic_partition tp{name, static_cast<int32_t>(p)};
          st.queues[tp].retry_all(clock_type::now() + st.cfg.retry_backoff.initial);
          ts.last_error = dm.reason ? dm.reason : caf::make_error(kafka_error::network_exception, "partition actor lost");
          drop_partition(self, tp);
        }
    pump(self);
  });
  self->set_exit_handler([=](caf::exit_msg& msg) {
    auto& st = self->state;
    auto err = caf::make_error(caf::sec::request_receiver_down, "producer stopped before the record was acknowledged");
    auto pending = std::move(st.pending);
    st.pending.clear();
    for (auto& [token, p] : pending)
      if (p.done)
        p.done(err);
    for (auto& f : st.flushes)
      f.second.deliver(false);
    st.flushes.clear();
    self->quit(msg.reason);
  });
  return {
    [=](send_atom, producer_record& rec) -> caf::result<record_metadata> {
      auto rp = self->make_response_promise<record_metadata>();
      handle_send(self, rec, [rp](caf::expected<record_metadata> res) mutable {
        if (res)
          rp.deliver(std::move(*res));
        else
          rp.deliver(std::move(res.error()));
      });
      return rp;
    },
    [=](send_atom, producer_record& rec, send_callback& done) { handle_send(self, rec, std::move(done)); },
    [=](caf::flush_atom) -> caf::result<bool> {
      auto& st = self->state;
      if (st.pending.empty())
        return true;
      auto rp = self->make_response_promise<bool>();
      st.flushes.emplace_back(st.next_token, rp);
      st.acc.set_flushing(true);
      pump(self);
      return rp;
    },
    [=](wakeup_atom) {
      self->state.wakeup_at.reset();
      pump(self);
    },
  };
}

} // namespace

producer_actor spawn_producer(caf::actor_system& sys, producer_config cfg) {
  if (auto err = validate(cfg, true))
    throw std::invalid_argument(describe(err));
  return sys.spawn(producer, node_actor{}, std::move(cfg));
}

producer_actor spawn_producer(caf::actor_system& sys, node_actor node, producer_config cfg) {
  if (auto err = validate(cfg, false))
    throw std::invalid_argument(describe(err));
  return sys.spawn(producer, std::move(node), std::move(cfg));
}

} // namespace cafka::client
