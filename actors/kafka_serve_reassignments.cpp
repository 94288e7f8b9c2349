// AlterPartitionReassignments and ListPartitionReassignments (KIP-455) through the node
// actor: the controller moves the replicas (actors/cluster_member_reassignments.cpp); the
// list comes from this broker's view.
#include <algorithm>
#include <map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"

namespace cafka {

namespace {

// Written by the controller: as long as an election may take.
constexpr auto reassignment_timeout = std::chrono::seconds(60);

void send(const kafka_reply& reply, const wire::alter_partition_reassignments_response& resp) {
  reply.send([&](wire::byte_writer& w) { wire::encode_alter_partition_reassignments_response(resp, w); });
}

void send(const kafka_reply& reply, const wire::list_partition_reassignments_response& resp) {
  reply.send([&](wire::byte_writer& w) { wire::encode_list_partition_reassignments_response(resp, w); });
}

wire::alter_partition_reassignments_response to_wire(const std::vector<partition_outcome>& outcomes) {
  std::map<std::string, wire::reassignment_topic_result> by_topic;
  for (auto& o : outcomes) {
    auto& t = by_topic[o.tp.topic];
    t.name = o.tp.topic;
    t.partitions.push_back({o.tp.partition, o.error, o.error == 0 ? std::nullopt : std::optional<std::string>{o.message}});
  }
  wire::alter_partition_reassignments_response resp;
  for (auto& [_, t] : by_topic)
    resp.responses.push_back(std::move(t));
  return resp;
}

wire::alter_partition_reassignments_response failed(kafka_error error, const std::string& message) {
  wire::alter_partition_reassignments_response resp;
  resp.error_code = protocol::wire_code(error);
  resp.error_message = message;
  return resp;
}

} // namespace

void serve(const kafka_services& s, wire::alter_partition_reassignments_request&& req, const kafka_reply& reply) {
  if (!s.node) {
    send(reply, failed(kafka_error::not_controller, "no node behind this listener"));
    return;
  }
  std::vector<partition_move> moves;
  for (auto& t : req.topics)
    for (auto& p : t.partitions)
      moves.push_back({topic_partition{t.name, p.partition_index}, !p.replicas, p.replicas.value_or(std::vector<int32_t>{})});
  s.self->request(*s.node, reassignment_timeout, reassign_atom_v, std::move(moves))
    .then([reply](std::vector<partition_outcome>& outcomes) { send(reply, to_wire(outcomes)); },
          [reply](caf::error& err) { send(reply, failed(to_kafka_error(err), describe(err))); });
}

void serve(const kafka_services& s, wire::list_partition_reassignments_request&& req, const kafka_reply& reply) {
  if (!s.node) {
    wire::list_partition_reassignments_response resp;
    resp.error_code = protocol::wire_code(kafka_error::not_controller);
    send(reply, resp);
    return;
  }
  std::vector<std::string> topics;
  std::map<std::string, std::vector<int32_t>> asked; // topic -> partitions asked (empty: all of it)
  if (req.topics)
    for (auto& t : *req.topics) {
      topics.push_back(t.name);
      asked[t.name] = t.partition_indexes;
    }
  bool all = !req.topics;
  s.self->request(*s.node, reassignment_timeout, reassign_atom_v, std::move(topics))
    .then(
      [reply, asked, all](std::vector<partition_move_status>& moving) {
        std::map<std::string, wire::ongoing_topic_reassignment> by_topic;
        for (auto& m : moving) {
          if (!all) {
            auto& wanted = asked.at(m.tp.topic);
            if (std::find(wanted.begin(), wanted.end(), m.tp.partition) == wanted.end())
              continue;
          }
          auto& t = by_topic[m.tp.topic];
          t.name = m.tp.topic;
          t.partitions.push_back({m.tp.partition, m.replicas, m.adding, m.removing});
        }
        wire::list_partition_reassignments_response resp;
        for (auto& [_, t] : by_topic)
          resp.topics.push_back(std::move(t));
        send(reply, resp);
      },
      [reply](caf::error& err) {
        wire::list_partition_reassignments_response resp;
        resp.error_code = protocol::wire_code(to_kafka_error(err));
        resp.error_message = describe(err);
        send(reply, resp);
      });
}

} // namespace cafka
