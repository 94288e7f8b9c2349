// Cluster mode: the node actor's part in coordinating groups (docs/cluster.md, "Groups
// across nodes"). A __consumer_offsets partition is a replica like any other (node_view.cpp
// settles it); when this broker comes to lead it, the committed offsets of its groups are
// loaded from the local replica, from its log start to its log end, into the node's
// replicated_offsets, and only then are its groups served; when it stops leading it, they
// are dropped and the groups closed.
#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/log_line.hpp"
#include "actors/node_actor_state.hpp"
#include "actors/replicated_offsets.hpp"

namespace cafka {

namespace {

// Bytes read per step of a load.
constexpr int32_t load_step_bytes = 1 << 20;

void serve_groups(self_ptr self, int32_t p, int64_t end) {
  log_line(log_level::info, log_component::groups, "broker %d: coordinating the groups of __consumer_offsets-%d (loaded up to offset %lld)", my_id(self), p,
           static_cast<long long>(end));
  if (auto& groups = self->state.ctx.groups)
    groups->serve_partition(p);
}

// A step that timed out is asked again while this broker still leads the partition (the
// timeout was the wait); any other error means the replica is gone or its log is malformed,
// and only the next leadership loads it.
bool retry_after(self_ptr self, int32_t p, uint64_t generation, const caf::error& err) {
  auto& store = self->state.ctx.offsets;
  if (!store || err != caf::sec::request_timeout || !store->still_loading(p, generation))
    return false;
  log_line(log_level::warn, log_component::groups, "broker %d: loading __consumer_offsets-%d timed out; asking again", my_id(self), p);
  return true;
}

// One step: reads from `offset` and applies what it got, until the log end.
void load_from(self_ptr self, int32_t p, uint64_t generation, partition_actor replica, int64_t offset) {
  self->request(replica, partition_request_timeout, offsets_load_atom_v, offset, load_step_bytes)
    .then(
      [=](fetch_result& r) {
        auto& store = self->state.ctx.offsets;
        if (!store)
          return;
        if (r.records.empty()) { // the log end
          if (store->finish_load(p, generation, replica))
            serve_groups(self, p, offset);
          return;
        }
        auto next = store->load(p, generation, r.records);
        if (!next || *next <= offset) {
          // Never serve a partial table: the groups would restart from older offsets.
          log_line(log_level::warn, log_component::groups, "broker %d: loading __consumer_offsets-%d stopped at offset %lld: %s; its groups are not served",
                   my_id(self), p, static_cast<long long>(offset),
                   next ? "no progress" : next.error().message().c_str());
          return;
        }
        load_from(self, p, generation, replica, *next);
      },
      [=](caf::error& err) {
        if (retry_after(self, p, generation, err)) {
          load_from(self, p, generation, replica, offset);
          return;
        }
        // The replica closed (the broker lost it): not served until this broker leads the
        // partition again.
        log_line(log_level::warn, log_component::groups, "broker %d: loading __consumer_offsets-%d failed: %s", my_id(self), p, describe(err).c_str());
      });
}

// The load's first step: from the replica's log start.
void start_load(self_ptr self, int32_t p, uint64_t generation, partition_actor replica) {
  self->request(replica, partition_request_timeout, caf::get_atom_v)
    .then([=](partition_status& status) { load_from(self, p, generation, replica, status.log_start_offset); },
          [=](caf::error& err) {
            if (retry_after(self, p, generation, err)) {
              start_load(self, p, generation, replica);
              return;
            }
            log_line(log_level::warn, log_component::groups, "broker %d: loading __consumer_offsets-%d failed: %s", my_id(self), p, describe(err).c_str());
          });
}

} // namespace

void lead_offsets_partition(self_ptr self, int32_t p, partition_actor replica) {
  auto& store = self->state.ctx.offsets;
  if (!store)
    return;
  start_load(self, p, store->begin_load(p), std::move(replica));
}

void leave_offsets_partition(self_ptr self, int32_t p) {
  if (auto& store = self->state.ctx.offsets)
    store->drop(p);
  auto& groups = self->state.ctx.groups;
  if (!groups)
    return;
  // Held joins and syncs are answered NOT_COORDINATOR; later requests get it too.
  for (auto& g : groups->release_partition(p))
    self->request(g, partition_request_timeout, caf::close_atom_v)
      .then([](bool) {}, [](caf::error& err) { log_line(log_level::info, log_component::groups, "closing a group: %s", describe(err).c_str()); });
}

} // namespace cafka
