// The consumer group APIs. FindCoordinator is answered here (a single node coordinates every
// group; in cluster mode the leader of the group's __consumer_offsets partition does, and
// a group request to any other broker is answered NOT_COORDINATOR); JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit and OffsetFetch go to
// the group's actor, and ListGroups and DescribeGroups ask the actors' `describe` (actors/group_actor.hpp), found or spawned through the node's
// group_registry. Kafka's validation that needs no group state (the group id, the topics
// and the metadata size of a commit) happens here.
#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/kafka_serve_groups.hpp"
#include "actors/routing_table.hpp"

namespace cafka {

namespace {

// Kafka's offset.metadata.max.bytes default: longer commit metadata is refused per partition.
constexpr size_t max_offset_metadata_bytes = 4096;

// SyncGroup, Heartbeat and LeaveGroup name members of an existing group: none and its actor
// in `group`, or the error to answer instead (no such group: no such member, as Kafka).
kafka_error member_group(const kafka_services& s, const std::string& group_id, std::optional<group_actor>& group) {
  if (group_id.empty())
    return kafka_error::invalid_group_id;
  // The registry only holds groups this node coordinates: ask where the group is only on a miss.
  if ((group = existing_group(s, group_id)))
    return kafka_error::none;
  auto e = coordinator_error(s, group_id);
  return e != kafka_error::none ? e : kafka_error::unknown_member_id;
}

// The group's actor, spawned on first use; nullopt while the node is stopping.
std::optional<group_actor> group_for(const kafka_services& s, const std::string& group_id) {
  if (!s.groups)
    return std::nullopt;
  return s.groups->find_or_spawn(group_id);
}

cluster::join_request to_join_request(wire::join_group_request&& req, const kafka_reply& reply) {
  cluster::join_request out;
  out.member_id = std::move(req.member_id);
  out.group_instance_id = std::move(req.group_instance_id);
  out.client_id = reply.client_id();
  out.client_host = reply.client_host();
  out.session_timeout_ms = req.session_timeout_ms;
  out.rebalance_timeout_ms = req.rebalance_timeout_ms; // the decoder copies the session timeout for v0
  out.protocol_type = std::move(req.protocol_type);
  for (auto& p : req.protocols)
    out.protocols.push_back({std::move(p.name), std::move(p.metadata)});
  // Kafka asks v4+ clients (which know MEMBER_ID_REQUIRED) to join again with their new id.
  out.require_known_member_id = reply.version() >= 4;
  return out;
}

wire::join_group_response to_wire(cluster::join_answer&& a) {
  wire::join_group_response out;
  out.error_code = protocol::wire_code(a.error);
  out.generation_id = a.generation;
  out.protocol_name = std::move(a.protocol_name);
  out.leader = std::move(a.leader);
  out.member_id = std::move(a.member_id);
  for (auto& m : a.members)
    out.members.push_back({std::move(m.member_id), std::move(m.group_instance_id), std::move(m.metadata)});
  return out;
}

wire::described_group to_wire(std::string group_id, cluster::group_description&& d) {
  wire::described_group out;
  out.group_id = std::move(group_id);
  out.group_state = cluster::to_string(d.state);
  out.protocol_type = std::move(d.protocol_type);
  out.protocol_data = std::move(d.protocol);
  for (auto& m : d.members)
    out.members.push_back({std::move(m.member_id), std::move(m.group_instance_id), std::move(m.client_id),
                           std::move(m.client_host), std::move(m.metadata), std::move(m.assignment)});
  return out;
}

// Kafka's answer for a group it does not coordinate any more or never had: no error, state
// "Dead", nothing else.
wire::described_group dead_group(std::string group_id) {
  wire::described_group out;
  out.group_id = std::move(group_id);
  out.group_state = cluster::to_string(cluster::group_phase::dead);
  return out;
}

} // namespace

void serve(const kafka_services& s, wire::find_coordinator_request&& req, const kafka_reply& reply) {
  // One node coordinates every group: this listener's own address, so that the client's
  // coordinator connection comes back the same way. In cluster mode: the live leader of the
  // key's __consumer_offsets partition, or COORDINATOR_NOT_AVAILABLE. A transactional id
  // (key type 1) is located by the node actor (kafka_serve_txn.cpp).
  auto version = reply.version();
  if (req.key_type == 1 && s.node)
    return serve_txn_find_coordinator(s, req.key, [reply, version](wire::find_coordinator_response resp) {
      reply.send([&](wire::byte_writer& w) { wire::encode_find_coordinator_response(resp, version, w); });
    });
  wire::find_coordinator_response resp;
  if (req.key_type != 0) { // (key type 1 before the node actor is attached: not yet)
    auto unknown = req.key_type != 1;
    resp.error_code = protocol::wire_code(unknown ? kafka_error::invalid_request : kafka_error::coordinator_not_available);
    resp.error_message = unknown ? "unknown key type " + std::to_string(req.key_type) : "the broker is starting";
    resp.node_id = -1;
    resp.host.clear();
    resp.port = -1;
    reply.send([&](wire::byte_writer& w) { wire::encode_find_coordinator_response(resp, version, w); });
    return;
  }
  resp.node_id = s.broker_id;
  resp.host = s.host;
  resp.port = s.port;
  if (auto where = s.groups ? s.groups->locate(req.key) : std::nullopt) {
    if (where->available()) {
      resp.node_id = where->broker->id;
      if (where->broker->id != s.broker_id) { // this listener's own address for itself
        resp.host = where->broker->host;
        resp.port = where->broker->kafka_port;
      }
    } else {
      resp.error_code = protocol::wire_code(kafka_error::coordinator_not_available);
      resp.error_message = where->topic_exists() ? "the group's offsets partition has no live leader"
                                                 : "the offsets topic is being created";
      resp.node_id = -1;
      resp.host.clear();
      resp.port = -1;
    }
  }
  reply.send([&](wire::byte_writer& w) { wire::encode_find_coordinator_response(resp, version, w); });
}

void serve(const kafka_services& s, wire::join_group_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::join_group_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_join_group_response(resp, version, w); });
  };
  auto refuse = [send, member_id = req.member_id](kafka_error e) {
    wire::join_group_response resp;
    resp.error_code = protocol::wire_code(e);
    resp.member_id = member_id;
    send(resp);
  };
  if (req.group_id.empty())
    return refuse(kafka_error::invalid_group_id);
  if (auto e = coordinator_error(s, req.group_id); e != kafka_error::none)
    return refuse(e);
  auto group = group_for(s, req.group_id);
  if (!group)
    return refuse(kafka_error::coordinator_not_available);
  s.self->request(*group, group_timeout, join_group_atom_v, to_join_request(std::move(req), reply))
    .then([send](cluster::join_answer& a) { send(to_wire(std::move(a))); },
          [refuse](caf::error& err) { refuse(group_error(err)); });
}

void serve(const kafka_services& s, wire::sync_group_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](kafka_error e, std::vector<char> assignment) {
    wire::sync_group_response resp;
    resp.error_code = protocol::wire_code(e);
    resp.assignment = std::move(assignment);
    reply.send([&](wire::byte_writer& w) { wire::encode_sync_group_response(resp, version, w); });
  };
  std::optional<group_actor> group;
  if (auto e = member_group(s, req.group_id, group); e != kafka_error::none)
    // A loading coordinator lost the rebalance: the member joins again, here (Kafka's answer;
    // older clients do not expect COORDINATOR_LOAD_IN_PROGRESS from SyncGroup).
    return send(e == kafka_error::coordinator_load_in_progress ? kafka_error::rebalance_in_progress : e, {});
  cluster::sync_request sr;
  sr.member_id = std::move(req.member_id);
  sr.group_instance_id = std::move(req.group_instance_id);
  sr.generation = req.generation_id;
  for (auto& a : req.assignments)
    sr.assignments.push_back({std::move(a.member_id), std::move(a.assignment)});
  s.self->request(*group, group_timeout, sync_group_atom_v, std::move(sr))
    .then([send](cluster::sync_answer& a) { send(a.error, std::move(a.assignment)); },
          [send](caf::error& err) { send(group_error(err), {}); });
}

void serve(const kafka_services& s, wire::heartbeat_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](kafka_error e) {
    wire::heartbeat_response resp;
    resp.error_code = protocol::wire_code(e);
    reply.send([&](wire::byte_writer& w) { wire::encode_heartbeat_response(resp, version, w); });
  };
  std::optional<group_actor> group;
  if (auto e = member_group(s, req.group_id, group); e != kafka_error::none)
    // While loading, Kafka answers heartbeats blindly: the member keeps its session.
    return send(e == kafka_error::coordinator_load_in_progress ? kafka_error::none : e);
  cluster::heartbeat_request hr{std::move(req.member_id), std::move(req.group_instance_id), req.generation_id};
  s.self->request(*group, group_timeout, heartbeat_atom_v, std::move(hr))
    .then([send]() { send(kafka_error::none); }, [send](caf::error& err) { send(group_error(err)); });
}

void serve(const kafka_services& s, wire::leave_group_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](kafka_error e) {
    wire::leave_group_response resp;
    resp.error_code = protocol::wire_code(e);
    reply.send([&](wire::byte_writer& w) { wire::encode_leave_group_response(resp, version, w); });
  };
  std::optional<group_actor> group;
  if (auto e = member_group(s, req.group_id, group); e != kafka_error::none)
    return send(e);
  std::vector<cluster::member_identity> leaving{{std::move(req.member_id), std::nullopt}};
  s.self->request(*group, group_timeout, leave_group_atom_v, std::move(leaving))
    .then(
      [send](cluster::leave_answer& a) {
        // v0-v2 leave one member: its own error is the answer's.
        if (a.error == kafka_error::none && !a.members.empty())
          send(a.members.front().second);
        else
          send(a.error);
      },
      [send](caf::error& err) { send(group_error(err)); });
}

void serve(const kafka_services& s, wire::offset_commit_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto resp = std::make_shared<wire::offset_commit_response>();
  auto send = [reply, version, resp] {
    reply.send([&](wire::byte_writer& w) { wire::encode_offset_commit_response(*resp, version, w); });
  };
  group_offset_commit commit;
  commit.member_id = std::move(req.member_id);
  commit.group_instance_id = std::move(req.group_instance_id);
  commit.generation = req.generation_id;
  // Where each offset sent to the group goes in the response.
  std::vector<std::pair<size_t, size_t>> sent;
  auto routes = s.routes->snapshot();
  auto not_here = coordinator_error(s, req.group_id);
  for (auto& topic : req.topics) {
    auto& out_topic = resp->topics.emplace_back();
    out_topic.name = topic.name;
    for (auto& p : topic.partitions) {
      auto& out = out_topic.partitions.emplace_back();
      out.partition_index = p.partition_index;
      if (p.committed_metadata && p.committed_metadata->size() > max_offset_metadata_bytes) {
        out.error_code = protocol::wire_code(kafka_error::offset_metadata_too_large);
        continue;
      }
      if (not_here != kafka_error::none) {
        out.error_code = protocol::wire_code(not_here);
        continue;
      }
      topic_partition tp{topic.name, p.partition_index};
      // Served here, or (cluster mode) led by another broker: both are known partitions.
      if (routes->count(tp) == 0 && s.routes->miss_error(tp) != kafka_error::not_leader_or_follower) {
        out.error_code = protocol::wire_code(kafka_error::unknown_topic_or_partition);
        continue;
      }
      sent.emplace_back(resp->topics.size() - 1, out_topic.partitions.size() - 1);
      commit.offsets.push_back({topic_partition{topic.name, p.partition_index}, p.committed_offset,
                                p.committed_leader_epoch, p.committed_metadata.value_or(std::string{})});
    }
  }
  if (sent.empty())
    return send();
  auto fail_sent = [resp, sent](kafka_error e) {
    for (auto [t, p] : sent)
      resp->topics[t].partitions[p].error_code = protocol::wire_code(e);
  };
  auto group = group_for(s, req.group_id);
  if (!group) {
    fail_sent(kafka_error::coordinator_not_available);
    return send();
  }
  s.self->request(*group, group_timeout, commit_offsets_atom_v, std::move(commit))
    .then([send]() { send(); },
          [send, fail_sent](caf::error& err) {
            fail_sent(group_error(err));
            send();
          });
}

void serve(const kafka_services& s, wire::offset_fetch_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto resp = std::make_shared<wire::offset_fetch_response>();
  auto send = [reply, version, resp] {
    reply.send([&](wire::byte_writer& w) { wire::encode_offset_fetch_response(*resp, version, w); });
  };
  // Every partition asked for starts as "nothing committed": offset -1, metadata "", no error.
  group_offset_query query;
  query.all = !req.topics.has_value();
  if (req.topics) {
    for (auto& topic : *req.topics) {
      auto& out_topic = resp->topics.emplace_back();
      out_topic.name = topic.name;
      for (auto index : topic.partition_indexes) {
        auto& out = out_topic.partitions.emplace_back();
        out.partition_index = index;
        out.metadata = std::string{};
        query.partitions.push_back(topic_partition{topic.name, index});
      }
    }
  }
  if (auto e = coordinator_error(s, req.group_id); e != kafka_error::none) {
    auto code = protocol::wire_code(e);
    resp->error_code = code;
    for (auto& topic : resp->topics)
      for (auto& out : topic.partitions)
        out.error_code = code;
    return send();
  }
  // A group without an actor has committed nothing (a commit spawns one).
  auto group = existing_group(s, req.group_id);
  if (!group)
    return send();
  s.self->request(*group, group_timeout, fetch_offsets_atom_v, std::move(query))
    .then(
      [send, resp, all = !req.topics.has_value()](std::vector<group_offset>& found) {
        auto fill = [](wire::offset_fetch_partition_response& out, const group_offset& o) {
          out.committed_offset = o.offset;
          out.committed_leader_epoch = o.leader_epoch;
          out.metadata = o.metadata;
        };
        if (all) { // by topic and partition, as the group keeps them
          for (auto& o : found) {
            if (resp->topics.empty() || resp->topics.back().name != o.tp.topic)
              resp->topics.push_back({o.tp.topic, {}});
            auto& out = resp->topics.back().partitions.emplace_back();
            out.partition_index = o.tp.partition;
            fill(out, o);
          }
        } else {
          std::map<topic_partition, const group_offset*> by_partition;
          for (auto& o : found)
            by_partition.emplace(o.tp, &o);
          for (auto& topic : resp->topics)
            for (auto& out : topic.partitions)
              if (auto it = by_partition.find({topic.name, out.partition_index}); it != by_partition.end())
                fill(out, *it->second);
        }
        send();
      },
      [send, resp](caf::error& err) {
        auto code = protocol::wire_code(group_error(err));
        resp->error_code = code;
        for (auto& topic : resp->topics)
          for (auto& out : topic.partitions)
            out.error_code = code;
        send();
      });
}

void serve(const kafka_services& s, wire::list_groups_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto groups = s.groups ? s.groups->list() : std::vector<std::pair<std::string, group_actor>>{};
  // One slot per group, filled by its actor's answer, so that the list keeps the
  // registry's order (by group id) whatever order the answers come in.
  using slots = std::vector<std::optional<wire::listed_group>>;
  auto done = kafka_countdown<slots>::make(slots(groups.size()), [reply, version](slots& found) {
    wire::list_groups_response resp;
    for (auto& g : found)
      if (g)
        resp.groups.push_back(std::move(*g));
    reply.send([&](wire::byte_writer& w) { wire::encode_list_groups_response(resp, version, w); });
  });
  for (size_t i = 0; i < groups.size(); ++i) {
    done->expect();
    // A group whose actor is gone (the node is stopping) or dead is not listed, as Kafka
    // drops dead groups from its list.
    s.self->request(groups[i].second, group_timeout, describe_atom_v)
      .then(
        [done, i, id = groups[i].first, filter = req.states_filter](cluster::group_description& d) {
          // v4's filter: only the groups in one of the states named (Kafka's names, exactly).
          std::string state = cluster::to_string(d.state);
          bool wanted = filter.empty() || std::find(filter.begin(), filter.end(), state) != filter.end();
          if (d.state != cluster::group_phase::dead && wanted)
            done->response[i] = wire::listed_group{id, std::move(d.protocol_type), state};
          done->arrive();
        },
        [done](caf::error&) { done->arrive(); });
  }
  done->arrive();
}

void serve(const kafka_services& s, wire::describe_groups_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::describe_groups_response skeleton;
  for (auto& id : req.groups)
    skeleton.groups.push_back(dead_group(id));
  auto done = kafka_countdown<wire::describe_groups_response>::make(
    std::move(skeleton), [reply, version](wire::describe_groups_response& resp) {
      reply.send([&](wire::byte_writer& w) { wire::encode_describe_groups_response(resp, version, w); });
    });
  for (size_t i = 0; i < req.groups.size(); ++i) {
    if (auto e = coordinator_error(s, req.groups[i]); e != kafka_error::none) {
      auto& out = done->response.groups[i];
      out.error_code = protocol::wire_code(e);
      out.group_state.clear();
      continue;
    }
    auto group = existing_group(s, req.groups[i]);
    if (!group) // never joined nor committed to: Dead, as Kafka answers for unknown groups
      continue;
    done->expect();
    s.self->request(*group, group_timeout, describe_atom_v)
      .then(
        [done, i](cluster::group_description& d) {
          auto& out = done->response.groups[i];
          out = to_wire(std::move(out.group_id), std::move(d));
          done->arrive();
        },
        [done, i](caf::error& err) {
          auto& out = done->response.groups[i];
          out.error_code = protocol::wire_code(group_error(err));
          out.group_state.clear(); // Kafka's error answers carry no state
          done->arrive();
        });
  }
  done->arrive();
}

} // namespace cafka
