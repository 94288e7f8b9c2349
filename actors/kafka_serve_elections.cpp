// ElectLeaders (KIP-460) through the node actor: the controller elects and answers per
// partition (actors/cluster_member_elections.cpp).
#include <map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_serve.hpp"

namespace cafka {

namespace {

// Elections are written and pushed by the controller: longer than one partition request.
constexpr auto election_timeout = std::chrono::seconds(60);

void send(const kafka_reply& reply, const wire::elect_leaders_response& resp) {
  auto version = reply.version();
  reply.send([&](wire::byte_writer& w) { wire::encode_elect_leaders_response(resp, version, w); });
}

// A top-level error: v0 has none, so there every partition asked carries it.
wire::elect_leaders_response failed(const wire::elect_leaders_request& req, int16_t version, kafka_error error,
                                    const std::string& message) {
  wire::elect_leaders_response resp;
  resp.error_code = protocol::wire_code(error);
  if (version == 0 && req.topic_partitions)
    for (auto& t : *req.topic_partitions) {
      wire::election_topic_result out{t.topic, {}};
      for (auto p : t.partitions)
        out.partitions.push_back({p, resp.error_code, message});
      resp.results.push_back(std::move(out));
    }
  return resp;
}

wire::elect_leaders_response to_wire(const std::vector<leader_election_result>& results) {
  std::map<std::string, wire::election_topic_result> by_topic;
  for (auto& r : results) {
    auto& t = by_topic[r.tp.topic];
    t.topic = r.tp.topic;
    t.partitions.push_back({r.tp.partition, r.error,
                            r.error == 0 ? std::nullopt : std::optional<std::string>{r.message}});
  }
  wire::elect_leaders_response resp;
  for (auto& [_, t] : by_topic)
    resp.results.push_back(std::move(t));
  return resp;
}

} // namespace

void serve(const kafka_services& s, wire::elect_leaders_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  if (req.election_type != 0 && req.election_type != 1) {
    send(reply, failed(req, version, kafka_error::invalid_request, "election_type must be 0 or 1"));
    return;
  }
  if (!s.node) {
    send(reply, failed(req, version, kafka_error::not_controller, "no node behind this listener"));
    return;
  }
  leader_election_request asked;
  asked.type = req.election_type;
  asked.all = !req.topic_partitions;
  if (req.topic_partitions)
    for (auto& t : *req.topic_partitions)
      for (auto p : t.partitions)
        asked.partitions.push_back({t.topic, p});
  auto kept = std::make_shared<wire::elect_leaders_request>(std::move(req));
  s.self->request(*s.node, election_timeout, elect_leaders_atom_v, std::move(asked))
    .then([reply](std::vector<leader_election_result>& results) { send(reply, to_wire(results)); },
          [reply, kept, version](caf::error& err) {
            send(reply, failed(*kept, version, to_kafka_error(err), describe(err)));
          });
}

} // namespace cafka
