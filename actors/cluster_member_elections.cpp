// ElectLeaders in the cluster member (cluster/leader_elections.hpp): forwarded to the
// controller, which decides each request with its other decisions (one write at a time) and
// answers per partition once the states are written.
#include "actors/cluster_member_state.hpp"
#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "cluster/leader_elections.hpp"

namespace cafka::member {

namespace {

using results = std::vector<leader_election_result>;

leader_election_result refused(const topic_partition& tp, cluster::election_refusal why) {
  using cluster::election_refusal;
  switch (why) {
    case election_refusal::unknown_partition:
      return {tp, protocol::wire_code(kafka_error::unknown_topic_or_partition), "no such partition"};
    case election_refusal::election_not_needed:
      return {tp, protocol::wire_code(kafka_error::election_not_needed), "the leader is already the one asked for"};
    case election_refusal::preferred_leader_not_available:
      return {tp, protocol::wire_code(kafka_error::preferred_leader_not_available),
              "the preferred replica is not live and in sync"};
    case election_refusal::eligible_leaders_not_available:
      break;
  }
  return {tp, protocol::wire_code(kafka_error::eligible_leaders_not_available), "no live replica to elect"};
}

std::vector<topic_partition> asked_partitions(const cluster::cluster_view& view, const leader_election_request& req) {
  if (!req.all)
    return req.partitions;
  std::vector<topic_partition> out;
  for (auto& [name, topic] : view.topics())
    for (size_t p = 0; p < topic.partitions.size(); ++p)
      out.push_back({name, static_cast<int32_t>(p)});
  return out;
}

} // namespace

caf::result<results> elect_leaders(self_ptr self, leader_election_request req, bool may_forward) {
  auto& st = self->state;
  auto rp = self->make_response_promise<results>();
  if (st.controller_epoch != 0) {
    st.asked_elections.push_back({std::move(req), rp, {}});
    act_as_controller(self);
    return rp;
  }
  forward_to_controller(self, may_forward, rp, "elect leaders", elect_leaders_atom_v, std::move(req));
  return rp;
}

std::vector<cluster::partition_state_write> next_asked_election(self_ptr self) {
  auto& st = self->state;
  while (!st.answering_election && !st.asked_elections.empty()) {
    auto asked = std::move(st.asked_elections.front());
    st.asked_elections.erase(st.asked_elections.begin());
    auto type = asked.request.type == 1 ? cluster::election_type::unclean : cluster::election_type::preferred;
    std::vector<cluster::partition_state_write> writes;
    auto leaving = leaving_brokers(self);
    for (auto& tp : asked_partitions(st.view, asked.request)) {
      auto decision = cluster::elect_asked(st.view, tp.topic, tp.partition, type, leaving, st.controller_epoch);
      if (auto* why = std::get_if<cluster::election_refusal>(&decision)) {
        asked.results.push_back(refused(tp, *why));
        continue;
      }
      auto& write = std::get<cluster::partition_state_write>(decision);
      if (write.unclean)
        log_line(log_level::warn, log_component::cluster, "controller %d: unclean leader election asked for %s-%d: broker %d leads from outside the ISR; "
                 "records that only the old ISR had are lost",
                 st.ctx.broker_id, tp.topic.c_str(), tp.partition, write.state.leader);
      asked.results.push_back({tp, 0, ""});
      writes.push_back(std::move(write));
    }
    if (writes.empty()) {
      asked.rp.deliver(std::move(asked.results));
      continue;
    }
    log_line(log_level::info, log_component::cluster, "controller %d: electing %zu leader(s) as asked (%s)", st.ctx.broker_id, writes.size(),
             type == cluster::election_type::unclean ? "unclean" : "preferred");
    st.answering_election = std::move(asked);
    return writes;
  }
  return {};
}

void finish_asked_election(self_ptr self, const status& written) {
  auto& st = self->state;
  if (!st.answering_election)
    return;
  auto asked = std::move(*st.answering_election);
  st.answering_election.reset();
  if (!written)
    for (auto& r : asked.results)
      if (r.error == 0) {
        r.error = protocol::wire_code(kafka_error::unknown_server_error);
        r.message = "writing the new leader failed: " + written.error().message();
      }
  asked.rp.deliver(std::move(asked.results));
}

void abandon_asked_elections(self_ptr self) {
  auto& st = self->state;
  if (st.answering_election)
    finish_asked_election(self, status{std::make_error_code(std::errc::operation_canceled)});
  for (auto& asked : st.asked_elections)
    asked.rp.deliver(caf::make_error(kafka_error::not_controller, "the controller changed"));
  st.asked_elections.clear();
}

} // namespace cafka::member
