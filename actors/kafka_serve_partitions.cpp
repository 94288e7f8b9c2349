// CreatePartitions through the node actor: each topic grows where topics are written (the
// controller in a cluster, cluster/partition_addition.hpp; the node itself alone).
#include <chrono>
#include <map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"

namespace cafka {

namespace {

// Written and pushed by the controller: as long as a topic creation may take.
constexpr auto addition_timeout = std::chrono::seconds(60);

} // namespace

void serve(const kafka_services& s, wire::create_partitions_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::create_partitions_response skeleton;
  skeleton.results.resize(req.topics.size());
  auto done = kafka_countdown<wire::create_partitions_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_create_partitions_response(resp, version, w); });
  });
  std::map<std::string, int> named;
  for (auto& t : req.topics)
    ++named[t.name];
  for (size_t i = 0; i < req.topics.size(); ++i) {
    auto& t = req.topics[i];
    auto& out = done->response.results[i];
    out.name = t.name;
    if (named[t.name] > 1) { // Kafka: a topic named twice is refused, each time
      out.error_code = protocol::wire_code(kafka_error::invalid_request);
      out.error_message = "Duplicate topic in request.";
      continue;
    }
    if (!s.node) {
      out.error_code = protocol::wire_code(kafka_error::not_controller);
      continue;
    }
    done->expect();
    s.self
      ->request(*s.node, addition_timeout, add_partitions_atom_v,
                partition_addition_request{t.name, t.count, std::move(t.assignments), req.validate_only})
      .then([done](int32_t) { done->arrive(); },
            [done, i](caf::error& err) {
              done->response.results[i].error_code = protocol::wire_code(to_kafka_error(err));
              done->response.results[i].error_message = describe(err);
              done->arrive();
            });
  }
  done->arrive();
}

} // namespace cafka
