// Fetch: a long poll over several partitions.
//
// One partition: its actor does the waiting. Several: round one reads every partition
// at once without waiting. If that gives min_bytes (or
// the client does not wait, or a partition failed) the response goes out. Otherwise
// round two parks a fetch at every partition for max_wait_ms; the first partition that
// gets data answers the whole request (the others contribute what round one found), or
// the last timeout does. Per-partition min_bytes approximates Kafka's request-wide rule.
#include <algorithm>
#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/routing_table.hpp"

namespace cafka {

namespace {

struct fetch_target {
  size_t topic = 0;     ///< index into the response's topics
  size_t partition = 0; ///< index into that topic's partitions
  std::optional<partition_actor> actor;
  fetch_request request;
};

struct fetch_poll {
  fetch_poll(kafka_reply r, wire::fetch_request req) : reply(std::move(r)), max_bytes(req.max_bytes),
    min_bytes(req.min_bytes), max_wait_ms(req.max_wait_ms) {}

  kafka_reply reply;
  int32_t max_bytes;
  int32_t min_bytes;
  int32_t max_wait_ms;
  wire::fetch_response response;
  std::vector<fetch_target> targets;
  size_t outstanding = 0;
  bool answered = false;

  wire::fetch_partition_response& slot(const fetch_target& t) {
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

void answer(const poll_ptr& poll) {
  if (poll->answered)
    return;
  poll->answered = true;
  apply_max_bytes(*poll);
  auto version = poll->reply.version();
  poll->reply.send([&](wire::byte_writer& w) { wire::encode_fetch_response(poll->response, version, w); });
  poll->response = {}; // late round-two replies find nothing to fill
  poll->targets.clear();
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

void round_two(caf::io::broker* self, const poll_ptr& poll);

// One partition needs no rounds: its actor waits for min_bytes itself. (The common
// case of a consumer that follows one partition, and the one where latency shows.)
void single_poll(caf::io::broker* self, const poll_ptr& poll) {
  auto req = poll->targets.front().request;
  req.min_bytes = std::max(poll->min_bytes, 0);
  req.max_wait_ms = poll->min_bytes > 0 ? std::max(poll->max_wait_ms, 0) : 0; // min_bytes 0: no wait
  self->request(*poll->targets.front().actor, std::chrono::milliseconds(req.max_wait_ms) + std::chrono::seconds(60),
                fetch_atom_v, req)
    .then([poll](fetch_result& r) { store(poll->slot(poll->targets.front()), std::move(r)); answer(poll); },
          [poll](caf::error& err) { store(poll->slot(poll->targets.front()), err); answer(poll); });
}

void round_one(caf::io::broker* self, const poll_ptr& poll) {
  auto finish = [self, poll] {
    if (--poll->outstanding > 0)
      return;
    auto found = bytes_found(*poll);
    if (poll->max_wait_ms <= 0 || found >= static_cast<size_t>(std::max(poll->min_bytes, 0)) || any_error(*poll))
      answer(poll);
    else
      round_two(self, poll);
  };
  poll->outstanding = 1; // guard
  for (size_t i = 0; i < poll->targets.size(); ++i) {
    auto& t = poll->targets[i];
    if (!t.actor)
      continue;
    ++poll->outstanding;
    auto req = t.request;
    req.max_wait_ms = 0;
    self->request(*t.actor, std::chrono::seconds(60), fetch_atom_v, req)
      .then([poll, i, finish](fetch_result& r) { store(poll->slot(poll->targets[i]), std::move(r)); finish(); },
            [poll, i, finish](caf::error& err) { store(poll->slot(poll->targets[i]), err); finish(); });
  }
  finish();
}

void round_two(caf::io::broker* self, const poll_ptr& poll) {
  auto found = bytes_found(*poll);
  auto wait = std::chrono::milliseconds(poll->max_wait_ms);
  poll->outstanding = 0;
  for (size_t i = 0; i < poll->targets.size(); ++i) {
    auto& t = poll->targets[i];
    if (!t.actor)
      continue;
    ++poll->outstanding;
    auto req = t.request;
    auto own = poll->slot(t).records.size();
    req.min_bytes = static_cast<int32_t>(std::max<int64_t>(1, poll->min_bytes - static_cast<int64_t>(found - own)));
    req.max_wait_ms = poll->max_wait_ms;
    self->request(*t.actor, wait + std::chrono::seconds(60), fetch_atom_v, req)
      .then(
        [poll, i](fetch_result& r) {
          --poll->outstanding;
          if (poll->answered)
            return;
          bool has_data = !r.records.empty();
          store(poll->slot(poll->targets[i]), std::move(r));
          if (has_data || poll->outstanding == 0)
            answer(poll);
        },
        [poll, i](caf::error& err) {
          --poll->outstanding;
          if (poll->answered)
            return;
          store(poll->slot(poll->targets[i]), err);
          answer(poll);
        });
  }
  if (poll->outstanding == 0)
    answer(poll);
}

} // namespace

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
    single_poll(s.self, poll);
  else
    round_one(s.self, poll);
}

} // namespace cafka
