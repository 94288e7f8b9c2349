#pragma once
// The cluster member's state and the parts of it that live in their own files
// (actors/cluster_member.hpp says what the member does): cluster_member.cpp (view,
// election, sessions, the behavior), cluster_member_controller.cpp (the controller role),
// cluster_member_topics.cpp (topic creates and deletes), cluster_member_links.cpp (node
// actors of other brokers). Included by those files only: it pulls in all of CAF.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/cluster_member.hpp"
#include "actors/errors.hpp"
#include "actors/messages.hpp"
#include "actors/replication_messages.hpp"
#include "cluster/backoff.hpp"
#include "cluster/broker_epochs.hpp"
#include "cluster/cluster_loader.hpp"
#include "cluster/cluster_view.hpp"
#include "cluster/cluster_writes.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/pushed_states.hpp"

namespace cafka::member {

// Results of coordinator calls, sent by their callbacks to the member (local only).
struct view_loaded {
  result<cluster::loaded_view> view;
};
struct election_done {
  result<cluster::registration_result> outcome;
};
struct ownership_checked { // /controller as read after a view named this broker
  result<cluster::node_data> node;
};
struct states_written {
  status st;
};
struct registered_again { // re-registration in a renewed session
  result<cluster::registration_result> outcome;
};
// Work to finish on the actor's own thread (delivering a response promise).
struct run_here {
  std::function<void()> fn;
};

} // namespace cafka::member

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::view_loaded)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::election_done)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::ownership_checked)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::states_written)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::registered_again)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::member::run_here)

namespace cafka::member {

/// The member's timer for check_leader_imbalance (local only).
using rebalance_atom = caf::atom_constant<caf::atom("cmrebal")>;
inline constexpr rebalance_atom rebalance_atom_v{};

struct member_state {
  static inline const char* name = "cafka.cluster_member";
  cluster_member_context ctx;
  std::unique_ptr<cluster::cluster_loader> loader;
  cluster::cluster_view view;
  bool loading = false;
  bool reload_wanted = false; ///< a watch fired while a load was running
  bool session_over = false;  ///< closed or expired: nothing more to do
  bool retry_armed = false;   ///< a reload after failures is scheduled (no load before it)
  unsigned failures_in_a_row = 0; ///< failed coordinator calls since the last good load
  bool electing = false;
  bool checking_ownership = false;
  bool writing = false;
  bool creating_offsets_topic = false; ///< a create of __consumer_offsets is under way
  bool creating_txn_topic = false;     ///< a create of __transaction_state is under way
  bool rebalance_due = false; ///< the next decision may move leaders back to preferred replicas
  /// The epoch this broker controls the cluster at; 0: not the controller.
  int32_t controller_epoch = 0;
  /// As controller: the broker epochs acted on, and those of the decision being written.
  cluster::broker_epochs broker_epochs;
  std::vector<cluster::broker_registration> deciding;
  std::vector<cluster::partition_state_write> decided; ///< the states being written
  /// As controller: brokers in a controlled shutdown (id -> the broker epoch they asked
  /// with) and the answers they wait for (cluster_member_shutdown.cpp).
  std::map<int32_t, int64_t> leaving;
  std::vector<std::pair<int32_t, caf::typed_response_promise<int32_t>>> leaving_answers;
  /// As controller: ElectLeaders requests waiting for their turn, and the one whose writes
  /// are under way (cluster_member_elections.cpp).
  struct asked_election {
    leader_election_request request;
    caf::typed_response_promise<std::vector<leader_election_result>> rp;
    std::vector<leader_election_result> results; ///< once decided; error 0 = being written
  };
  std::vector<asked_election> asked_elections;
  std::optional<asked_election> answering_election;
  /// As controller: AlterPartitionReassignments requests waiting for their turn, the one
  /// being written, and the topic assignments a decision writes after its states
  /// (cluster_member_reassignments.cpp).
  struct asked_reassignment {
    std::vector<partition_move> moves;
    caf::typed_response_promise<std::vector<partition_outcome>> rp;
    std::vector<partition_outcome> outcomes; ///< once decided; error 0 = being written
  };
  std::vector<asked_reassignment> asked_reassignments;
  std::optional<asked_reassignment> answering_reassignment;
  std::vector<cluster::assignment_write> assignments_to_write;
  /// States the controller pushed, ahead of the loads (cluster/pushed_states.hpp).
  cluster::pushed_states pushed;
  /// Node actors of other brokers (proxies over CAF's middleman), by broker id.
  std::map<int32_t, node_actor> links;
  /// Per broker id: when a new connection may be tried after failed ones.
  std::map<int32_t, cluster::reconnect_backoff> link_backoff;
  /// Per broker id: the proxy of its last lost connection, which the middleman may hand
  /// back from its cache (caf-0.17-notes.md section 4); getting it again counts as a failure.
  std::map<int32_t, caf::actor_addr> lost_links;
};

using self_ptr = caf::stateful_actor<member_state>*;
// cluster_member.cpp
void set_controller_epoch(self_ptr self, int32_t epoch);
void load(self_ptr self);

// cluster_member_controller.cpp
void act_as_controller(self_ptr self);
void take_pushed_states(self_ptr self, const leader_and_isr& m);
void push_decided_states(self_ptr self);
/// The periodic preferred-leader check (auto.leader.rebalance.enable); re-arms itself.
void check_leader_imbalance(self_ptr self);

// cluster_member_topics.cpp
caf::result<topic_description> create_topic(self_ptr self, topic_spec spec, bool may_forward);
caf::result<std::string> delete_topic(self_ptr self, const std::string& name, bool may_forward);
/// CreatePartitions: planned and written by the controller (or here, as create_topic).
caf::result<int32_t> add_partitions(self_ptr self, partition_addition_request req, bool may_forward);
void ensure_offsets_topic(self_ptr self);
void ensure_txn_topic(self_ptr self);

// cluster_member_shutdown.cpp
/// This broker is shutting down: has the controller move its leaderships and ISR
/// memberships (retried as configured); true once nothing is left to move.
caf::result<bool> shut_down_controlled(self_ptr self);
/// As controller: broker `id` (at `broker_epoch`) is shutting down; answered with the
/// partitions left to move once the moves are written (answer_leaving).
caf::result<int32_t> take_shutdown_request(self_ptr self, int32_t id, int64_t broker_epoch);
/// The brokers in a controlled shutdown that are still registered as they asked.
std::set<int32_t> leaving_brokers(self_ptr self);
/// As controller, with nothing more to write: every waiting broker gets its answer. Also
/// when this broker stops being the controller (then the answer is not_controller).
void answer_leaving(self_ptr self);

// cluster_member_elections.cpp
/// ElectLeaders: queued here as controller (decided by act_as_controller, answered once
/// written), else forwarded to the controller when `may_forward`, else not_controller.
caf::result<std::vector<leader_election_result>> elect_leaders(self_ptr self, leader_election_request req,
                                                                bool may_forward);
/// As controller with nothing else to write: the next queued ElectLeaders' writes (requests
/// that need none are answered at once).
std::vector<cluster::partition_state_write> next_asked_election(self_ptr self);
/// The write of the election under way finished (or the controller role ended): answer it.
void finish_asked_election(self_ptr self, const status& written);
/// No longer the controller: every queued election is answered not_controller.
void abandon_asked_elections(self_ptr self);

// cluster_member_reassignments.cpp
/// AlterPartitionReassignments: queued here as controller, else forwarded (as elect_leaders).
caf::result<std::vector<partition_outcome>> reassign(self_ptr self, std::vector<partition_move> moves,
                                                     bool may_forward);
/// As controller with nothing else to write: the next asked reassignment's state writes, or
/// the completions of caught-up ones; either sets assignments_to_write.
std::vector<cluster::partition_state_write> next_reassignment_writes(self_ptr self);
/// The writes of the reassignment under way finished (or the controller role ended).
void finish_asked_reassignment(self_ptr self, const status& written);
/// No longer the controller: every queued reassignment is answered not_controller.
void abandon_asked_reassignments(self_ptr self);

// cluster_member_links.cpp
/// Calls `use` with the node actor of broker `id` (a cached proxy, or one from a new
/// connection to the caf.port of its registration), or `fail` if none can be had.
void with_link(self_ptr self, int32_t id, std::function<void(node_actor)> use, std::function<void()> fail);
/// A connection to `dm.source` is lost: its proxy is dropped.
void forget_link(self_ptr self, const caf::down_msg& dm);
/// A transaction marker for `tp`, sent to broker `broker`'s node actor (which leads it).
caf::result<produce_result> relay_txn_marker(self_ptr self, int32_t broker, topic_partition tp, txn_marker_request req);

/// A request only the controller serves (ElectLeaders, AlterPartitionReassignments), at a
/// broker that is not the controller: sent to the controller's node actor marked as
/// forwarded, its answer delivered to `rp`; not_controller ("no controller to `what`") when
/// it may not be forwarded or there is no controller, or when the controller cannot be reached.
template <class Reply, class... Msg>
void forward_to_controller(self_ptr self, bool may_forward, caf::typed_response_promise<Reply> rp,
                           const std::string& what, Msg... msg) {
  auto& st = self->state;
  auto& controller = st.view.controller();
  if (!may_forward || !controller || controller->broker_id == st.ctx.broker_id || !self->system().has_middleman()) {
    rp.deliver(caf::make_error(kafka_error::not_controller, "no controller to " + what));
    return;
  }
  constexpr auto forward_timeout = std::chrono::seconds(60); // the controller's writes take a moment
  with_link(
    self, controller->broker_id,
    [=](node_actor node) mutable {
      self->request(node, forward_timeout, msg..., forwarded_atom_v)
        .then([rp](Reply& r) mutable { rp.deliver(std::move(r)); },
              [rp](caf::error& err) mutable { rp.deliver(std::move(err)); });
    },
    [rp]() mutable { rp.deliver(caf::make_error(kafka_error::not_controller, "the controller cannot be reached")); });
}

} // namespace cafka::member
