// ApiVersions, Metadata, CreateTopics, DeleteTopics and InitProducerId: answered here or
// by the node actor, which owns the topics.
#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/log_line.hpp"
#include "actors/producer_id_issuer.hpp"

namespace cafka {

namespace {

constexpr auto node_timeout = std::chrono::seconds(60);

// The cluster id clients see (Metadata v2+); one per cafka cluster.
const std::string cluster_id = "cafka";


wire::metadata_response to_wire(const cluster_metadata& md) {
  wire::metadata_response out;
  out.cluster_id = cluster_id;
  out.controller_id = md.controller_id;
  for (auto& b : md.brokers)
    out.brokers.push_back({b.id, b.host, b.kafka_port, std::nullopt});
  for (auto& t : md.topics) {
    wire::metadata_topic wt;
    wt.error_code = t.error;
    wt.name = t.name;
    for (auto& p : t.partitions) {
      wire::metadata_partition wp;
      wp.error_code = p.error;
      wp.partition_index = p.partition;
      wp.leader_id = p.leader;
      wp.replica_nodes = p.replicas;
      wp.isr_nodes = p.isr.empty() ? p.replicas : p.isr; // a single node: its only replica
      wp.offline_replicas = p.offline_replicas;
      wt.partitions.push_back(std::move(wp));
    }
    out.topics.push_back(std::move(wt));
  }
  return out;
}

// The node actor, or an error answer when the listener has none yet (start-up).
bool have_node(const kafka_services& s) { return s.node.has_value(); }

} // namespace

void serve(const kafka_services&, wire::api_versions_request&&, const kafka_reply& reply) {
  wire::api_versions_response resp;
  resp.api_keys = wire::advertised_versions();
  auto version = reply.version();
  reply.send([&](wire::byte_writer& w) { wire::encode_api_versions_response(resp, version, w); });
}

void serve(const kafka_services& s, wire::metadata_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::metadata_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_metadata_response(resp, version, w); });
  };
  if (!have_node(s)) {
    send(wire::metadata_response{});
    return;
  }
  metadata_request mr;
  mr.all_topics = !req.topics.has_value();
  if (req.topics)
    mr.topics = std::move(*req.topics);
  mr.allow_auto_create = req.allow_auto_topic_creation;
  s.self->request(*s.node, node_timeout, metadata_atom_v, std::move(mr))
    .then([send](cluster_metadata& md) { send(to_wire(md)); },
          [send](caf::error&) { send(wire::metadata_response{}); });
}

void serve(const kafka_services& s, wire::describe_cluster_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::describe_cluster_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_describe_cluster_response(resp, version, w); });
  };
  wire::describe_cluster_response resp;
  resp.cluster_id = cluster_id;
  resp.endpoint_type = req.endpoint_type;
  if (req.endpoint_type != 1) { // controllers (KRaft): cafka's brokers are their own
    resp.error_code = wire::unsupported_endpoint_type;
    resp.error_message = "cafka has only broker endpoints (endpoint type 1)";
    send(resp);
    return;
  }
  if (!have_node(s)) {
    resp.error_code = protocol::wire_code(kafka_error::not_controller);
    send(resp);
    return;
  }
  s.self->request(*s.node, node_timeout, metadata_atom_v, metadata_request{})
    .then(
      [send, resp](cluster_metadata& md) mutable {
        resp.controller_id = md.controller_id;
        for (auto& b : md.brokers)
          resp.brokers.push_back({b.id, b.host, b.kafka_port, std::nullopt});
        send(resp);
      },
      [send, resp](caf::error& err) mutable {
        resp.error_code = protocol::wire_code(to_kafka_error(err));
        resp.error_message = describe(err);
        send(resp);
      });
}

void serve(const kafka_services& s, wire::describe_log_dirs_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::describe_log_dirs_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_describe_log_dirs_response(resp, version, w); });
  };
  if (!have_node(s)) {
    send(wire::describe_log_dirs_response{});
    return;
  }
  s.self->request(*s.node, node_timeout, describe_log_dirs_atom_v, std::move(req))
    .then([send](wire::describe_log_dirs_response& resp) { send(resp); },
          [send](caf::error&) { send(wire::describe_log_dirs_response{}); });
}

void serve(const kafka_services& s, wire::create_topics_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::create_topics_response skeleton;
  skeleton.topics.resize(req.topics.size());
  auto done = kafka_countdown<wire::create_topics_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_create_topics_response(resp, version, w); });
  });
  for (size_t i = 0; i < req.topics.size(); ++i) {
    auto& t = req.topics[i];
    auto& out = done->response.topics[i];
    out.name = t.name;
    topic_spec spec{t.name, t.num_partitions, t.replication_factor, {}};
    for (auto& c : t.configs)
      if (c.value)
        spec.configs[c.name] = *c.value;
    if (!t.assignments.empty()) {
      // Manual assignments (Kafka: num_partitions and replication_factor -1 then): partition
      // indexes 0..n-1, each once; the brokers are checked where the topic is written.
      std::vector<std::vector<int32_t>> by_index(t.assignments.size());
      bool dense = t.num_partitions == -1 && t.replication_factor == -1;
      for (auto& a : t.assignments) {
        auto i = static_cast<size_t>(a.partition_index);
        dense = dense && a.partition_index >= 0 && i < by_index.size() && by_index[i].empty() && !a.broker_ids.empty();
        if (dense)
          by_index[i] = a.broker_ids;
      }
      if (!dense) {
        out.error_code = protocol::wire_code(kafka_error::invalid_replica_assignment);
        out.error_message = "replica assignments need partitions 0..n-1 once each, with no partition count or "
                            "replication factor";
        continue;
      }
      spec.partitions = static_cast<int32_t>(by_index.size());
      spec.replication_factor = static_cast<int16_t>(by_index.front().size());
      spec.assignments = std::move(by_index);
    }
    if (!have_node(s)) {
      out.error_code = protocol::wire_code(kafka_error::not_controller);
      continue;
    }
    done->expect();
    auto on_error = [done, i](caf::error& err) {
      done->response.topics[i].error_code = protocol::wire_code(to_kafka_error(err));
      done->response.topics[i].error_message = describe(err);
      done->arrive();
    };
    if (req.validate_only) {
      // Validation without creating: only existence is checked with the node.
      s.self->request(*s.node, node_timeout, describe_atom_v, t.name)
        .then(
          [done, i](topic_description&) {
            done->response.topics[i].error_code = protocol::wire_code(kafka_error::topic_already_exists);
            done->arrive();
          },
          [done](caf::error&) { done->arrive(); });
      continue;
    }
    s.self->request(*s.node, node_timeout, create_topic_atom_v, std::move(spec))
      .then([done](topic_description&) { done->arrive(); }, on_error);
  }
  done->arrive();
}

void serve(const kafka_services& s, wire::delete_topics_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::delete_topics_response skeleton;
  skeleton.responses.resize(req.topic_names.size());
  auto done = kafka_countdown<wire::delete_topics_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_delete_topics_response(resp, version, w); });
  });
  for (size_t i = 0; i < req.topic_names.size(); ++i) {
    done->response.responses[i].name = req.topic_names[i];
    if (!have_node(s)) {
      done->response.responses[i].error_code = protocol::wire_code(kafka_error::not_controller);
      continue;
    }
    done->expect();
    s.self->request(*s.node, node_timeout, delete_topic_atom_v, req.topic_names[i])
      .then([done](std::string&) { done->arrive(); },
            [done, i](caf::error& err) {
              done->response.responses[i].error_code = protocol::wire_code(to_kafka_error(err));
              done->arrive();
            });
  }
  done->arrive();
}

// A producer without a transactional id gets a new id at epoch 0, also when it names its
// current one (v3+, KIP-360: Kafka's KafkaApis does the same for a non-transactional
// producer, whose sequences restart with the new id). Only one of id and epoch given is
// INVALID_REQUEST, as in Kafka.
void serve(const kafka_services& s, wire::init_producer_id_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto answer = [reply, version](wire::init_producer_id_response resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_init_producer_id_response(resp, version, w); });
  };
  wire::init_producer_id_response resp;
  if ((req.producer_id < 0) != (req.producer_epoch < 0)) {
    resp.error_code = protocol::wire_code(kafka_error::invalid_request);
    return answer(resp);
  }
  if (req.transactional_id)
    return serve_txn_init(s, std::move(req), reply);
  s.self->request(s.producer_ids, node_timeout, next_producer_id_atom::value)
    .then(
      [answer](int64_t id) {
        wire::init_producer_id_response ok;
        ok.producer_id = id;
        ok.producer_epoch = 0;
        answer(ok);
      },
      [answer](caf::error& err) {
        // The block could not be claimed (coordinator away): a retriable error, the client
        // asks again.
        log_line(log_level::warn, log_component::cluster, "InitProducerId: no producer id: %s", describe(err).c_str());
        wire::init_producer_id_response failed;
        failed.error_code = protocol::wire_code(kafka_error::coordinator_not_available);
        answer(failed);
      });
}

} // namespace cafka
