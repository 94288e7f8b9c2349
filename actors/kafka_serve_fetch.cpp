// Fetch: a long poll over one or several partitions.
//
// One partition: its actor parks the request until min_bytes or max_wait_ms.
// Several: every partition answers at once with what it has and, when short of
// min_bytes, keeps a watch (fetch_watch). If the answers together reach min_bytes (or
// the client does not wait, or a partition failed) the response goes out; otherwise the
// first watch that fires with data answers the whole request, or max_wait_ms ends it.
// min_bytes is thus counted per partition while waiting (exact for the usual 1 byte).
#include <algorithm>
#include <chrono>
#include <unordered_map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/routing_table.hpp"

namespace cafka {

namespace {

// Local partition actors always answer; the bound only guards against a lost reply.
constexpr auto partition_timeout = std::chrono::seconds(60);

struct fetch_target {
  size_t topic = 0;     ///< index into the response's topics
  size_t partition = 0; ///< index into that topic's partitions
  std::optional<partition_actor> actor;
  fetch_request request;
};

struct fetch_poll {
  fetch_poll(kafka_reply r, const wire::fetch_request& req)
    : reply(std::move(r)), max_bytes(req.max_bytes), min_bytes(req.min_bytes), max_wait_ms(req.max_wait_ms) {}

  kafka_reply reply;
  int32_t max_bytes;
  int32_t min_bytes;
  int32_t max_wait_ms;
  uint64_t id = 0;
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
  out.last_stable_offset = r.high_watermark; // no transactions: LSO = high watermark
  out.log_start_offset = r.log_start_offset;
  out.records = std::move(r.records);
}

void store(wire::fetch_partition_response& out, const caf::error& err) {
  out.error_code = protocol::wire_code(to_kafka_error(err));
  out.high_watermark = out.last_stable_offset = out.log_start_offset = -1;
  out.records.clear();
}

// Keeps the response within the request's max_bytes: partitions in request order, the
// first non-empty one whole even when larger (KIP-74), later ones only while they fit.
void apply_max_bytes(fetch_poll& poll) {
  int64_t budget = std::max(poll.max_bytes, 0);
  bool first = true;
  for (auto& t : poll.response.topics)
    for (auto& p : t.partitions) {
      if (p.records.empty())
        continue;
      auto size = static_cast<int64_t>(p.records.size());
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

private:
  uint64_t last_id_ = 0;
  std::unordered_map<uint64_t, poll_ptr> waiting_;
};

std::shared_ptr<fetch_polls> make_fetch_polls() { return std::make_shared<fetch_polls>(); }

namespace {

// `poll` must be owned by the caller too: it leaves the registry here.
void answer(const kafka_services& s, fetch_poll& poll) {
  if (poll.answered)
    return;
  poll.answered = true;
  if (poll.id != 0)
    s.polls->take(poll.id); // late watch data and the timeout find nothing
  apply_max_bytes(poll);
  auto version = poll.reply.version();
  poll.reply.send([&](wire::byte_writer& w) { wire::encode_fetch_response(poll.response, version, w); });
}

void single_poll(const kafka_services& s, const poll_ptr& poll) {
  auto req = poll->targets.front().request;
  req.min_bytes = std::max(poll->min_bytes, 0);
  req.max_wait_ms = poll->min_bytes > 0 ? std::max(poll->max_wait_ms, 0) : 0; // min_bytes 0: no wait
  s.self->request(*poll->targets.front().actor, std::chrono::milliseconds(req.max_wait_ms) + partition_timeout,
                  fetch_atom_v, req)
    .then([s, poll](fetch_result& r) { store(poll->slot(0), std::move(r)); answer(s, *poll); },
          [s, poll](caf::error& err) { store(poll->slot(0), err); answer(s, *poll); });
}

void watched_poll(const kafka_services& s, const poll_ptr& poll) {
  bool wait = poll->max_wait_ms > 0 && poll->min_bytes > 0;
  if (wait)
    s.polls->add(poll);
  auto finish = [s, poll, wait] {
    if (--poll->outstanding > 0 || poll->answered)
      return;
    if (!wait || bytes_found(*poll) >= static_cast<size_t>(poll->min_bytes) || any_error(*poll))
      answer(s, *poll);
    else
      s.self->delayed_send(s.self, std::chrono::milliseconds(poll->max_wait_ms), caf::timeout_atom_v, poll->id);
  };
  poll->outstanding = 1; // guard
  for (size_t i = 0; i < poll->targets.size(); ++i) {
    auto& t = poll->targets[i];
    if (!t.actor)
      continue;
    ++poll->outstanding;
    auto req = t.request;
    req.min_bytes = std::max(poll->min_bytes, 1);
    req.max_wait_ms = wait ? poll->max_wait_ms : 0;
    fetch_watch w{req, caf::actor_cast<caf::actor>(s.self), poll->reply.connection_key(), poll->id,
                  static_cast<uint32_t>(i)};
    s.self->request(*t.actor, partition_timeout, fetch_atom_v, std::move(w))
      .then(
        [poll, i, finish](fetch_result& r) {
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

void on_watch_data(const kafka_services& s, uint64_t poll_id, uint32_t slot, fetch_result&& r) {
  auto poll = s.polls->find(poll_id);
  if (!poll || slot >= poll->targets.size())
    return; // answered already
  store(poll->slot(slot), std::move(r));
  if (poll->outstanding == 0) // else the first round's end answers, data now included
    answer(s, *poll);
}

void on_poll_timeout(const kafka_services& s, uint64_t poll_id) {
  if (auto poll = s.polls->find(poll_id))
    answer(s, *poll);
}

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
      fetch_target target{t, p, std::nullopt, fetch_request{part.fetch_offset, part.partition_max_bytes, 1, 0}};
      auto route = routes->find(topic_partition{topic.topic, part.partition});
      if (route == routes->end())
        out.error_code = protocol::wire_code(kafka_error::unknown_topic_or_partition);
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
