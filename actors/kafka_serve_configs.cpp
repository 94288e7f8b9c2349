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

// Asks the node actor and sends its answer, or `failed(req, error, why)` when there is no
// node (start-up) or it did not answer.
template <class Response, class Request, class Atom, class Failed, class Send>
void ask_node(const kafka_services& s, Atom atom, Request&& req, Failed failed, Send send) {
  if (!s.node) {
    send(failed(req, kafka_error::unknown_server_error, "this listener serves no broker"));
    return;
  }
  auto asked = std::make_shared<Request>(req); // for an answer naming each resource
  s.self->request(*s.node, config_timeout, atom, std::move(req))
    .then([send](Response& resp) { send(resp); },
          [send, failed, asked](caf::error& err) { send(failed(*asked, to_kafka_error(err), describe(err))); });
}

} // namespace

void serve(const kafka_services& s, wire::describe_configs_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  ask_node<wire::describe_configs_response>(
    s, describe_configs_atom_v, std::move(req), describe_failed, [reply, version](const auto& resp) {
      reply.send([&](wire::byte_writer& w) { wire::encode_describe_configs_response(resp, version, w); });
    });
}

void serve(const kafka_services& s, wire::alter_configs_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto incremental = req.incremental;
  ask_node<wire::alter_configs_response>(
    s, alter_configs_atom_v, std::move(req), alter_failed, [reply, version, incremental](const auto& resp) {
      reply.send([&](wire::byte_writer& w) { wire::encode_alter_configs_response(resp, incremental, version, w); });
    });
}

} // namespace cafka
