#include "client/cluster_link.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/coordinator_hop.hpp"
#include "client/routing_view.hpp"

namespace cafka::client {

namespace {

using clock_type = std::chrono::steady_clock;

struct broker_link {
  endpoint ep;
  node_link_actor link;
};

// Shared with the exit functor, which stops every link when the routing link ends.
struct links {
  node_link_actor bootstrap;
  std::map<int32_t, broker_link> brokers;
};

struct cluster_link_state {
  static inline const char* name = "cafka.client.cluster_link";
  link_options opts;
  std::shared_ptr<links> all = std::make_shared<links>();
};

using self_ptr = cluster_link_actor::stateful_pointer<cluster_link_state>;

// One metadata request on its way through the steps of the header comment.
struct routing_job {
  metadata_request req;
  clock_type::time_point deadline;
  caf::typed_response_promise<cluster_metadata> rp;
  std::vector<node_link_actor> sources; ///< where to ask for metadata, in turn
  size_t next_source = 0;
  caf::error last_error;
  cluster_metadata md;
  size_t leaders_out = 0;
};

using job_ptr = std::shared_ptr<routing_job>;

// Time comes from the actor's clock (simulated under CAF's testing scheduler).
std::chrono::milliseconds remaining(self_ptr self, clock_type::time_point deadline) {
  using namespace std::chrono;
  auto left = duration_cast<milliseconds>(deadline - self->clock().now());
  return std::max(left, milliseconds(1));
}

std::chrono::milliseconds remaining(self_ptr self, const routing_job& job) {
  return remaining(self, job.deadline);
}

// One group_coordinator_atom request on its way (see "Groups" in the header comment).
struct group_lookup {
  std::string group;
  clock_type::time_point deadline;
  caf::typed_response_promise<group_actor> rp;
};

using lookup_ptr = std::shared_ptr<group_lookup>;

// The link to broker `id` at `ep`, made on demand.
node_link_actor link_to(self_ptr self, int32_t id, const endpoint& ep) {
  auto& st = self->state;
  auto& brokers = st.all->brokers;
  if (auto it = brokers.find(id); it != brokers.end()) {
    if (it->second.ep == ep)
      return it->second.link;
    caf::anon_send_exit(it->second.link, caf::exit_reason::user_shutdown); // moved (restart)
    brokers.erase(it);
  }
  link_options lo;
  lo.endpoints = {ep};
  lo.request_timeout = st.opts.connect_timeout; // a leader that cannot be reached is skipped
  lo.connect_timeout = st.opts.connect_timeout;
  lo.reconnect_backoff = st.opts.reconnect_backoff;
  auto link = spawn_node_link(self->system(), node_actor{}, std::move(lo));
  brokers.emplace(id, broker_link{ep, link});
  return link;
}

// Stops the links of brokers that are no longer live (they would only reconnect in vain).
void forget_gone_brokers(self_ptr self, const routing_view& view) {
  auto& brokers = self->state.all->brokers;
  for (auto it = brokers.begin(); it != brokers.end();) {
    if (view.brokers.count(it->first) == 0) {
      caf::anon_send_exit(it->second.link, caf::exit_reason::user_shutdown);
      it = brokers.erase(it);
    } else {
      ++it;
    }
  }
}

void finish(const job_ptr& job) {
  mark_unrouted(job->md);
  job->rp.deliver(std::move(job->md));
}

// Step 2: the partition actors from each partition's leader.
void route(self_ptr self, const job_ptr& job) {
  auto view = routing_view::from(job->md);
  forget_gone_brokers(self, view);
  auto wanted = actors_to_fetch(job->md);
  if (wanted.empty()) {
    finish(job);
    return;
  }
  job->leaders_out = wanted.size();
  auto timeout = std::min(remaining(self, *job), std::chrono::milliseconds(self->state.opts.connect_timeout));
  for (auto& [id, topics] : wanted) {
    auto link = link_to(self, id, *view.address_of(id));
    auto leader = id;
    self->request(link, timeout, metadata_atom_v, metadata_request{topics, false, false})
      .then(
        [=](cluster_metadata& from_leader) {
          fill_actors(job->md, leader, from_leader);
          if (--job->leaders_out == 0)
            finish(job);
        },
        [=](caf::error&) {
          if (--job->leaders_out == 0)
            finish(job); // its partitions are marked unavailable: the caller retries
        });
  }
}

// Step 1: metadata from the next source.
void ask_next_source(self_ptr self, const job_ptr& job) {
  if (job->next_source >= job->sources.size() || self->clock().now() >= job->deadline) {
    job->rp.deliver(job->last_error ? job->last_error
                                    : caf::make_error(kafka_error::network_exception, "no node answered"));
    return;
  }
  auto link = job->sources[job->next_source++];
  auto last = job->next_source == job->sources.size();
  auto timeout = last ? remaining(self, *job) : std::min(remaining(self, *job), self->state.opts.connect_timeout);
  self->request(link, timeout, metadata_atom_v, job->req)
    .then(
      [=](cluster_metadata& md) {
        job->md = std::move(md);
        route(self, job);
      },
      [=](caf::error& err) {
        job->last_error = err;
        if (routing_decision(err, false) == route_action::fail)
          job->rp.deliver(err);
        else
          ask_next_source(self, job);
      });
}

void hop_to_coordinator(self_ptr self, const lookup_ptr& lookup, int32_t coordinator, caf::error not_there);

// The group's actor from the node behind `link`; on NOT_COORDINATOR naming another broker,
// one hop there if `may_hop`.
void ask_for_group(self_ptr self, const lookup_ptr& lookup, node_link_actor link, bool may_hop) {
  self->request(link, remaining(self, lookup->deadline), caf::get_atom_v)
    .then(
      [=](node_actor& node) {
        self->request(node, remaining(self, lookup->deadline), group_coordinator_atom_v, lookup->group)
          .then([=](group_actor& group) { lookup->rp.deliver(std::move(group)); },
                [=](caf::error& err) {
                  auto next = may_hop ? coordinator_hint(err) : std::nullopt;
                  if (next)
                    hop_to_coordinator(self, lookup, *next, std::move(err));
                  else
                    lookup->rp.deliver(std::move(err));
                });
      },
      [=](caf::error& err) { lookup->rp.deliver(std::move(err)); });
}

// Where broker `coordinator` is, from the bootstrap node's metadata; then ask it. A broker
// the metadata does not list (gone meanwhile) leaves the first answer as the outcome.
void hop_to_coordinator(self_ptr self, const lookup_ptr& lookup, int32_t coordinator, caf::error not_there) {
  self->request(self->state.all->bootstrap, remaining(self, lookup->deadline), metadata_atom_v, metadata_request{})
    .then(
      [=](cluster_metadata& md) {
        auto view = routing_view::from(md);
        auto ep = view.address_of(coordinator);
        if (!ep) {
          lookup->rp.deliver(not_there);
          return;
        }
        ask_for_group(self, lookup, link_to(self, coordinator, *ep), false);
      },
      [=](caf::error&) { lookup->rp.deliver(not_there); });
}

cluster_link_actor::behavior_type cluster_link(self_ptr self, node_actor node, link_options opts) {
  auto& st = self->state;
  st.opts = opts;
  st.all->bootstrap = spawn_node_link(self->system(), std::move(node), std::move(opts));
  self->attach_functor([all = st.all](const caf::error&) {
    caf::anon_send_exit(all->bootstrap, caf::exit_reason::user_shutdown);
    for (auto& [id, b] : all->brokers)
      caf::anon_send_exit(b.link, caf::exit_reason::user_shutdown);
  });
  return {
    [=](metadata_atom, metadata_request& req) -> caf::result<cluster_metadata> {
      auto& st = self->state;
      auto job = std::make_shared<routing_job>();
      job->req = std::move(req);
      job->deadline = self->clock().now() + st.opts.request_timeout;
      job->rp = self->make_response_promise<cluster_metadata>();
      job->sources.push_back(st.all->bootstrap);
      for (auto& [id, b] : st.all->brokers)
        job->sources.push_back(b.link);
      ask_next_source(self, job);
      return job->rp;
    },
    [=](caf::get_atom) -> caf::result<node_actor> {
      auto rp = self->make_response_promise<node_actor>();
      self->request(self->state.all->bootstrap, self->state.opts.request_timeout + std::chrono::seconds(1),
                    caf::get_atom_v)
        .then([=](node_actor& n) mutable { rp.deliver(std::move(n)); },
              [=](caf::error& err) mutable { rp.deliver(std::move(err)); });
      return rp;
    },
    [=](group_coordinator_atom, std::string& group) -> caf::result<group_actor> {
      auto lookup = std::make_shared<group_lookup>();
      lookup->group = std::move(group);
      lookup->deadline = self->clock().now() + self->state.opts.request_timeout;
      lookup->rp = self->make_response_promise<group_actor>();
      ask_for_group(self, lookup, self->state.all->bootstrap, true);
      return lookup->rp;
    },
    [=](txn_coordinator_atom, std::string& transactional_id) -> caf::result<node_actor> {
      auto rp = self->make_response_promise<node_actor>();
      auto deadline = self->clock().now() + self->state.opts.request_timeout;
      auto fail = [rp](caf::error& err) mutable { rp.deliver(std::move(err)); };
      self->request(self->state.all->bootstrap, remaining(self, deadline), metadata_atom_v, metadata_request{})
        .then(
          [=](cluster_metadata& md) mutable {
            auto view = routing_view::from(md);
            self->request(self->state.all->bootstrap, remaining(self, deadline), caf::get_atom_v)
              .then(
                [=](node_actor& node) mutable {
                  self->request(node, remaining(self, deadline), find_txn_coordinator_atom_v, transactional_id)
                    .then(
                      [=](broker_info& b) mutable {
                        // A single broker is the bootstrap node itself (its caf.port may not
                        // be what a client can reach it on, e.g. 0 in a test).
                        auto ep = view.address_of(b.id);
                        if (view.brokers.size() <= 1 || !ep) {
                          rp.deliver(node);
                          return;
                        }
                        self->request(link_to(self, b.id, *ep), remaining(self, deadline), caf::get_atom_v)
                          .then([rp](node_actor& coordinator) mutable { rp.deliver(std::move(coordinator)); }, fail);
                      },
                      fail);
                },
                fail);
          },
          fail);
      return rp;
    },
    // The node link's internal messages: nothing to do here.
    [=](caf::connect_atom, uint64_t) {},
    [=](caf::timeout_atom, uint64_t) {},
    [=](retry_atom) {},
  };
}

} // namespace

cluster_link_actor spawn_cluster_link(caf::actor_system& sys, node_actor node, link_options opts) {
  return sys.spawn(cluster_link, std::move(node), std::move(opts));
}

cluster_link_actor spawn_owned_cluster_link(caf::local_actor* owner, node_actor node, link_options opts) {
  auto link = spawn_cluster_link(owner->system(), std::move(node), std::move(opts));
  owner->attach_functor([link](const caf::error&) { caf::anon_send_exit(link, caf::exit_reason::user_shutdown); });
  return link;
}

} // namespace cafka::client
