// Client-side pieces for tests against a simulated cluster (sim_fixtures.hpp).
#include "sim_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/group_actor.hpp"
#include "actors/node_actor.hpp"
#include "client/group_consumer.hpp"
#include "actors/node_storage.hpp"
#include "fixtures.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/record_batch.hpp"
#include "sim/ask.hpp"
#include "storage/partition_log.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace client_test {

namespace {

// An ordinary consumer actor, as an application would write it for production.
caf::behavior recording_consumer(caf::event_based_actor*, std::shared_ptr<member_log> log,
                                 std::function<int64_t()> now_ms) {
  return {
    [=](client::partitions_assigned& a) {
      log->current = a.partitions;
      log->assigned.push_back(a);
    },
    [=](client::partitions_revoked&) {
      log->current.clear();
      ++log->revocations;
    },
    [=](client::consumer_records& recs) {
      for (auto& r : client::records(recs))
        log->records.push_back({recs.tp, r.offset, r.value, now_ms()});
    },
    [=](client::consumer_error& e) { log->errors.push_back(e); },
  };
}

} // namespace

std::vector<int64_t> member_log::offsets(int32_t partition) const {
  std::vector<int64_t> out;
  for (auto& r : records)
    if (r.tp.partition == partition)
      out.push_back(r.offset);
  return out;
}

void exit_one(const caf::actor& a) {
  if (a)
    caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
}

void sim_member::stop() const {
  exit_all(*actor, consumer, starter, link);
}

sim_member start_sim_member(sim::cluster& c, size_t host, const std::string& group, const std::string& topic) {
  sim_member m;
  m.host = host;
  auto& sys = c.client(host);
  client::link_options lo;
  for (size_t i = 0; i < c.size(); ++i)
    lo.endpoints.push_back(client::endpoint{c.broker(i).address, c.broker(i).caf_port});
  m.link = client::spawn_node_link(sys, node_actor{}, lo);
  auto* world = &c;
  m.consumer = sys.spawn(recording_consumer, m.log, std::function<int64_t()>{[world] { return world->now().count(); }});
  client::group_options o;
  o.group_id = group;
  o.topics = {topic};
  o.session_timeout = 2s;
  o.heartbeat_interval = 200ms;
  o.max_poll_interval = 5s;
  o.auto_offset_reset = client::offset_reset::earliest;
  o.auto_commit_interval = 200ms;
  o.fetch.max_wait = 100ms;
  o.fetch.request_timeout = 3s;
  o.fetch.retry_timeout = 300s; // a cut member's fetchers must not give up
  o.fetch.bootstrap = c.bootstrap();
  m.starter = sys.spawn([link = m.link, consumer = m.consumer, slot = m.actor, o](caf::event_based_actor* self) {
    self->send(self, caf::get_atom_v);
    return caf::behavior{
      [=](caf::get_atom) {
        self->request(link, caf::infinite, caf::get_atom_v)
          .then(
            [=](node_actor node) {
              *slot = client::join_group(self->system(), node, consumer, o);
              self->quit();
            },
            [=](caf::error&) { self->delayed_send(self, 1s, caf::get_atom_v); });
      },
    };
  });
  return m;
}

std::map<int32_t, int64_t> sim_committed(sim::cluster& c, const std::string& group, const std::string& topic) {
  std::map<int32_t, int64_t> out;
  for (size_t i = 0; i < c.size(); ++i) {
    auto b = c.broker(i);
    if (!b.up)
      continue;
    auto g = sim::ask<group_actor>(c, *b.system, b.n->actor, 10s, group_coordinator_atom_v, group);
    if (!g)
      continue;
    auto found = sim::ask<std::vector<group_offset>>(c, *b.system, *g, 10s, fetch_offsets_atom_v,
                                                     group_offset_query{true, {}});
    if (!found)
      continue;
    for (auto& o : *found)
      if (o.tp.topic == topic)
        out[o.tp.partition] = o.offset;
    return out;
  }
  return out;
}

caf::expected<client::record_metadata> sim_send(sim::cluster& c, caf::actor_system& sys,
                                                const client::producer_actor& prod, const std::string& topic,
                                                int32_t partition, const std::string& value,
                                                std::chrono::milliseconds max) {
  return sim::ask<client::record_metadata>(
    c, sys, prod, max, client::send_atom_v,
    client::producer_record{topic, std::nullopt, value, {}, int64_t{1'700'000'000'000}, partition});
}

client::node_link_actor spawn_link_to_broker(sim::cluster& c, caf::actor_system& sys, size_t i) {
  client::link_options lo;
  lo.endpoints = {client::endpoint{c.broker(i).address, c.broker(i).caf_port}};
  return client::spawn_node_link(sys, node_actor{}, lo);
}

sim_reader start_sim_reader(sim::cluster& c, caf::actor_system& sys) {
  sim_reader r;
  r.link = spawn_link_to_broker(c, sys, 0);
  auto node = sim::ask<node_actor>(c, sys, r.link, 30s, caf::get_atom_v);
  BOOST_REQUIRE_MESSAGE(node, "node link: " << why(node) << "\n" << dump(c));
  r.node = *node;
  r.sink = spawn_sink(sys, r.log);
  r.fetch.bootstrap = c.bootstrap();
  return r;
}

std::vector<int32_t> sim_view_leaders(sim::cluster& c, size_t i, const std::string& topic) {
  std::vector<int32_t> out;
  auto b = c.broker(i);
  if (!b.up)
    return out;
  auto snap = b.n->views->snapshot();
  auto* t = snap->view.topic(topic);
  if (!t)
    return out;
  for (int32_t p = 0; p < static_cast<int32_t>(t->partitions.size()); ++p)
    out.push_back(snap->view.live_leader(topic, p));
  return out;
}

std::vector<int32_t> sim_view_isr(sim::cluster& c, size_t i, const std::string& topic, int32_t partition) {
  auto b = c.broker(i);
  if (!b.up)
    return {};
  auto snap = b.n->views->snapshot();
  auto* t = snap->view.topic(topic);
  if (!t || partition < 0 || partition >= static_cast<int32_t>(t->partitions.size()))
    return {};
  return t->partitions[size_t(partition)].state.isr;
}

std::optional<sim_partition_view> sim_partition_state(sim::cluster& c, const std::string& topic, int32_t partition) {
  std::optional<sim_partition_view> out;
  for (size_t i = 0; i < c.size(); ++i) {
    auto b = c.broker(i);
    if (!b.up)
      continue;
    auto snap = b.n->views->snapshot();
    auto* t = snap->view.topic(topic);
    if (!t || partition < 0 || partition >= static_cast<int32_t>(t->partitions.size()))
      continue;
    auto& e = t->partitions[size_t(partition)];
    if (out && out->state_version >= e.state_version)
      continue;
    out = sim_partition_view{e.state.leader, e.state.leader_epoch, e.state.isr,
                             t->assignment.partitions[size_t(partition)], e.state_version};
  }
  return out;
}

namespace {

// Broker i's open log of `tp`; nullptr if it is down or has none.
storage::partition_log* open_log(sim::cluster& c, size_t i, const topic_partition& tp) {
  auto b = c.broker(i);
  if (!b.up || !b.n->storage)
    return nullptr;
  auto it = b.n->storage->partitions.find(tp);
  return it == b.n->storage->partitions.end() ? nullptr : it->second.log.get();
}

} // namespace

std::optional<int64_t> sim_log_end(sim::cluster& c, size_t i, const topic_partition& tp) {
  if (auto* log = open_log(c, i, tp))
    return log->log_end_offset();
  return std::nullopt;
}

std::optional<replica_log> sim_replica_log(sim::cluster& c, size_t i, const topic_partition& tp) {
  auto* open = open_log(c, i, tp);
  if (open == nullptr)
    return std::nullopt;
  auto& log = *open;
  replica_log out;
  out.log_start = log.log_start_offset();
  out.log_end = log.log_end_offset();
  auto bytes = log.read(out.log_start, size_t{1} << 30);
  if (!bytes) {
    out.error = "read: " + bytes.error().message();
    return out;
  }
  protocol::bytes_view rest{bytes->data(), bytes->size()};
  while (!rest.empty()) {
    auto header = protocol::validate_batch(rest);
    if (!header) {
      out.error = "batch at byte " + std::to_string(bytes->size() - rest.size()) + ": " + header.error().message();
      break;
    }
    auto recs = protocol::read_records(rest, size_t{64} << 20);
    if (!recs) {
      out.error = "records of the batch at offset " + std::to_string(header->base_offset) + ": "
                  + recs.error().message();
      break;
    }
    for (auto& r : *recs)
      out.records.push_back({r.offset, header->leader_epoch, r.key, r.value});
    rest.remove_prefix(std::min(rest.size(), header->total_size()));
  }
  return out;
}

std::string dump(const sim::cluster& c) {
  std::string out;
  for (auto& line : c.trace())
    out += line + "\n";
  return out;
}

} // namespace client_test
