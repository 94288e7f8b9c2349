// DescribeConfigs, AlterConfigs and IncrementalAlterConfigs through the node actor
// (actors/node_configs.cpp), which knows the topics' overrides and this broker's configs.
#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"

namespace cafka {

namespace {

// Storing waits for ZooKeeper (or the disk) on the I/O worker.
constexpr auto config_timeout = std::chrono::seconds(60);

wire::describe_configs_response describe_failed(const wire::describe_configs_request& req, kafka_error e,
                                                const std::string& why) {
  wire::describe_configs_response resp;
  for (auto& r : req.resources)
    resp.results.push_back({protocol::wire_code(e), why, r.resource_type, r.resource_name, {}});
  return resp;
}

wire::alter_configs_response alter_failed(const wire::alter_configs_request& req, kafka_error e,
                                          const std::string& why) {
  wire::alter_configs_response resp;
  for (auto& r : req.resources)
    resp.responses.push_back({protocol::wire_code(e), why, r.resource_type, r.resource_name});
  return resp;
}

} // namespace

void serve(const kafka_services& s, wire::describe_configs_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::describe_configs_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_describe_configs_response(resp, version, w); });
  };
  if (!s.node) {
    send(describe_failed(req, kafka_error::unknown_server_error, "this listener serves no broker"));
    return;
  }
  auto asked = std::make_shared<wire::describe_configs_request>(req);
  s.self->request(*s.node, config_timeout, describe_configs_atom_v, std::move(req))
    .then([send](wire::describe_configs_response& resp) { send(resp); },
          [send, asked](caf::error& err) { send(describe_failed(*asked, to_kafka_error(err), describe(err))); });
}

void serve(const kafka_services& s, wire::alter_configs_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto incremental = req.incremental;
  auto send = [reply, version, incremental](const wire::alter_configs_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_alter_configs_response(resp, incremental, version, w); });
  };
  if (!s.node) {
    send(alter_failed(req, kafka_error::unknown_server_error, "this listener serves no broker"));
    return;
  }
  auto asked = std::make_shared<wire::alter_configs_request>(req);
  s.self->request(*s.node, config_timeout, alter_configs_atom_v, std::move(req))
    .then([send](wire::alter_configs_response& resp) { send(resp); },
          [send, asked](caf::error& err) { send(alter_failed(*asked, to_kafka_error(err), describe(err))); });
}

} // namespace cafka
