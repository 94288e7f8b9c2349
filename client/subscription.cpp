#include "client/subscription.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/bootstrap.hpp"
#include "client/cluster_link.hpp"
#include "client/same_actor.hpp"

namespace cafka::client {

namespace {

using clock_type = std::chrono::steady_clock;

enum class busy_with { nothing, metadata, resolving, fetching, backing_off };

struct fetcher_state {
  static inline const char* name = "cafka.client.fetcher";
  caf::actor consumer;
  topic_partition tp;
  fetch_options opts;
  node_link_actor link;
  partition_actor part;
  partition_actor watched; ///< the partition actor monitored (may be `part`)
  std::optional<start_position> to_resolve;
  int64_t position = -1;
  busy_with busy = busy_with::nothing;
  bool delivering = false; ///< a consumer_records request is out at the consumer
  bool paused = false;     ///< after offset_out_of_range without auto reset
  /// Bumped by seek and by losing the partition actor: answers to older requests are
  /// dropped.
  uint64_t epoch = 0;
  unsigned failures = 0;
  std::optional<clock_type::time_point> failing_since;
  std::vector<caf::typed_response_promise<int64_t>> seeks;
};

using self_ptr = subscription::stateful_pointer<fetcher_state>;

void advance(self_ptr self);

// Final error: tell the consumer and stop.
void fail(self_ptr self, caf::error err) {
  auto& st = self->state;
  for (auto& rp : st.seeks)
    rp.deliver(err);
  st.seeks.clear();
  if (st.consumer)
    caf::anon_send(st.consumer, consumer_error{st.tp, err, st.position});
  self->quit(std::move(err));
}

void succeeded(self_ptr self) {
  self->state.failures = 0;
  self->state.failing_since.reset();
}

// A retriable failure: back off, then start over from fresh metadata; final once
// failures lasted `limit` in a row.
void retry_later(self_ptr self, const caf::error& err, std::chrono::milliseconds limit) {
  auto& st = self->state;
  auto now = self->clock().now();
  if (!st.failing_since)
    st.failing_since = now;
  if (now - *st.failing_since >= limit) {
    fail(self, err);
    return;
  }
  st.part = nullptr; // it may be stale: ask for metadata again
  st.busy = busy_with::backing_off;
  self->delayed_send(self, backoff_delay(st.opts.retry_backoff, st.failures++), retry_atom_v, st.epoch);
}

void on_error(self_ptr self, const caf::error& err) {
  auto& st = self->state;
  st.busy = busy_with::nothing;
  if (to_kafka_error(err) == kafka_error::offset_out_of_range) {
    switch (st.opts.auto_offset_reset) {
      case offset_reset::earliest:
        st.to_resolve = start_position::earliest();
        advance(self);
        return;
      case offset_reset::latest:
        st.to_resolve = start_position::latest();
        advance(self);
        return;
      case offset_reset::none:
        st.paused = true;
        caf::anon_send(st.consumer, consumer_error{st.tp, err, st.position});
        return;
    }
  }
  if (is_retriable(err))
    retry_later(self, err, st.opts.retry_timeout);
  else
    fail(self, err);
}

void resolved(self_ptr self, int64_t offset) {
  auto& st = self->state;
  st.position = offset;
  st.to_resolve.reset();
  for (auto& rp : st.seeks)
    rp.deliver(offset);
  st.seeks.clear();
}

void get_metadata(self_ptr self) {
  auto& st = self->state;
  st.busy = busy_with::metadata;
  auto epoch = st.epoch;
  metadata_request req{{st.tp.topic}, false, false};
  // The link answers within request_timeout; the extra second guards a lost answer.
  self->request(st.link, st.opts.request_timeout + std::chrono::seconds(1), metadata_atom_v, std::move(req))
    .then(
      [=](cluster_metadata& md) {
        auto& st = self->state;
        if (epoch != st.epoch)
          return;
        st.busy = busy_with::nothing;
        const topic_metadata* topic = nullptr;
        for (auto& t : md.topics)
          if (t.name == st.tp.topic)
            topic = &t;
        auto name = st.tp.topic + "-" + std::to_string(st.tp.partition);
        auto unknown = [&](const std::string& what) {
          retry_later(self, caf::make_error(kafka_error::unknown_topic_or_partition, what),
                      std::min(st.opts.unknown_topic_timeout, st.opts.retry_timeout));
        };
        if (!topic) {
          unknown("no metadata for " + name);
          return;
        }
        if (auto e = from_wire(topic->error); e == kafka_error::unknown_topic_or_partition) {
          unknown("topic '" + st.tp.topic + "'");
          return;
        } else if (e != kafka_error::none) {
          on_error(self, caf::make_error(e, "topic '" + st.tp.topic + "'"));
          return;
        }
        const partition_metadata* pm = nullptr;
        for (auto& p : topic->partitions)
          if (p.partition == st.tp.partition)
            pm = &p;
        if (!pm) {
          unknown("no partition " + name);
          return;
        }
        if (pm->error != 0 || !pm->actor) {
          auto e = pm->error != 0 ? from_wire(pm->error) : kafka_error::leader_not_available;
          on_error(self, caf::make_error(e, name));
          return;
        }
        st.part = pm->actor;
        if (!same_object(st.part, st.watched)) {
          if (st.watched)
            self->demonitor(st.watched.address());
          st.watched = st.part;
          self->monitor(st.watched);
        }
        succeeded(self);
        advance(self);
      },
      [=](caf::error& err) {
        if (epoch != self->state.epoch)
          return;
        on_error(self, err);
      });
}

void resolve(self_ptr self) {
  auto& st = self->state;
  auto pos = *st.to_resolve;
  int64_t query = 0;
  switch (pos.what) {
    case start_position::kind::offset:
      if (pos.value < 0) {
        fail(self, caf::make_error(kafka_error::invalid_request, "negative start offset"));
        return;
      }
      resolved(self, pos.value);
      advance(self);
      return;
    case start_position::kind::earliest: query = earliest_timestamp; break;
    case start_position::kind::latest: query = latest_timestamp; break;
    case start_position::kind::timestamp:
      if (pos.value < 0) {
        fail(self, caf::make_error(kafka_error::invalid_request, "negative start timestamp"));
        return;
      }
      query = pos.value;
      break;
  }
  st.busy = busy_with::resolving;
  auto epoch = st.epoch;
  self->request(st.part, st.opts.request_timeout, list_offsets_atom_v, query)
    .then(
      [=](offset_answer& a) {
        auto& st = self->state;
        if (epoch != st.epoch)
          return;
        st.busy = busy_with::nothing;
        succeeded(self);
        if (a.offset < 0)
          st.to_resolve = start_position::latest(); // no record at or after the timestamp
        else
          resolved(self, a.offset);
        advance(self);
      },
      [=](caf::error& err) {
        if (epoch != self->state.epoch)
          return;
        on_error(self, err);
      });
}

void deliver(self_ptr self, consumer_records recs) {
  auto& st = self->state;
  st.delivering = true;
  self->request(st.consumer, caf::infinite, std::move(recs))
    .then(
      [=]() {
        self->state.delivering = false;
        advance(self);
      },
      [=](caf::error& err) {
        self->state.delivering = false;
        if (err == caf::sec::unexpected_response) { // the handler returned a value
          advance(self);
          return;
        }
        // No handler for consumer_records, or the consumer is gone.
        self->quit(std::move(err));
      });
}

void fetch(self_ptr self) {
  auto& st = self->state;
  st.busy = busy_with::fetching;
  auto epoch = st.epoch;
  fetch_request req{st.position, st.opts.max_bytes, st.opts.min_bytes,
                    static_cast<int32_t>(st.opts.max_wait.count())};
  req.read_committed = st.opts.read_committed;
  self->request(st.part, st.opts.max_wait + st.opts.request_timeout, fetch_atom_v, req)
    .then(
      [=](fetch_result& r) {
        auto& st = self->state;
        if (epoch != st.epoch)
          return;
        st.busy = busy_with::nothing;
        succeeded(self);
        if (r.records.empty()) {
          advance(self); // the long poll ended empty: poll again
          return;
        }
        auto next = next_fetch_offset(r.records);
        if (!next || *next <= st.position) {
          fail(self, caf::make_error(kafka_error::corrupt_message,
                                     "fetch at offset " + std::to_string(st.position)
                                       + " returned no complete batch"));
          return;
        }
        r.records.resize(complete_batches_size(r.records));
        consumer_records recs{st.tp, st.position, *next, r.high_watermark, std::move(r.records), std::move(r.aborted)};
        st.position = *next;
        deliver(self, std::move(recs));
      },
      [=](caf::error& err) {
        if (epoch != self->state.epoch)
          return;
        on_error(self, err);
      });
}

void advance(self_ptr self) {
  auto& st = self->state;
  if (st.paused || st.busy != busy_with::nothing)
    return;
  if (!st.part)
    get_metadata(self);
  else if (st.to_resolve)
    resolve(self);
  else if (!st.delivering)
    fetch(self);
}

subscription::behavior_type fetcher(self_ptr self, node_actor node, caf::actor consumer,
                                    topic_partition tp, start_position pos, fetch_options opts) {
  auto& st = self->state;
  st.consumer = std::move(consumer);
  st.tp = std::move(tp);
  st.opts = std::move(opts);
  st.to_resolve = pos;
  link_options lo;
  lo.request_timeout = st.opts.request_timeout;
  lo.reconnect_backoff = st.opts.retry_backoff;
  caf::error bad_bootstrap;
  if (!st.opts.bootstrap.empty()) {
    auto eps = parse_bootstrap(st.opts.bootstrap);
    if (eps)
      lo.endpoints = std::move(*eps);
    else
      bad_bootstrap = eps.error();
  }
  st.link = spawn_owned_cluster_link(self, std::move(node), std::move(lo));
  self->monitor(st.consumer);
  self->set_down_handler([=](caf::down_msg& dm) {
    auto& st = self->state;
    if (same_actor(st.consumer, dm.source)) {
      st.consumer = nullptr;
      self->quit(caf::exit_reason::normal);
      return;
    }
    if (same_actor(st.watched, dm.source)) {
      st.watched = nullptr;
      if (!same_object(st.part, dm.source.get()))
        return; // not in use (already starting over from fresh metadata)
      // The connection to the partition is gone: answers to what is out never come.
      ++st.epoch;
      st.busy = busy_with::nothing;
      retry_later(self,
                  dm.reason ? dm.reason : caf::make_error(kafka_error::network_exception, "partition actor lost"),
                  st.opts.retry_timeout);
    }
  });
  if (bad_bootstrap)
    fail(self, std::move(bad_bootstrap));
  else
    advance(self);
  return {
    [=](seek_atom, start_position& pos) -> caf::result<int64_t> {
      auto& st = self->state;
      if (pos.value < 0 && (pos.what == start_position::kind::offset || pos.what == start_position::kind::timestamp))
        return caf::make_error(kafka_error::invalid_request, "cannot seek to " + to_string(pos));
      auto rp = self->make_response_promise<int64_t>();
      st.seeks.push_back(rp);
      st.to_resolve = pos;
      st.paused = false;
      ++st.epoch;
      st.busy = busy_with::nothing;
      advance(self);
      return rp;
    },
    [=](caf::get_atom) -> int64_t {
      return self->state.to_resolve ? -1 : self->state.position;
    },
    [=](stop_atom) { self->quit(caf::exit_reason::normal); },
    [=](retry_atom, uint64_t epoch) {
      auto& st = self->state;
      if (epoch != st.epoch || st.busy != busy_with::backing_off)
        return;
      st.busy = busy_with::nothing;
      advance(self);
    },
  };
}

} // namespace

subscription subscribe(caf::actor_system& sys, node_actor node, caf::actor consumer,
                       topic_partition tp, start_position pos, fetch_options opts) {
  return sys.spawn(fetcher, std::move(node), std::move(consumer), std::move(tp), pos, std::move(opts));
}

caf::expected<int64_t> seek(caf::actor_system& sys, const subscription& sub, start_position pos,
                            std::chrono::milliseconds timeout) {
  caf::expected<int64_t> out{caf::error{}};
  caf::scoped_actor self{sys};
  self->request(sub, timeout, seek_atom_v, pos)
    .receive([&](int64_t offset) { out = offset; }, [&](caf::error& err) { out = std::move(err); });
  return out;
}

void stop(const subscription& sub) {
  caf::anon_send(sub, stop_atom_v);
}

} // namespace cafka::client
