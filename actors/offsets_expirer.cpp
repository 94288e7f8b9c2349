#include "actors/offsets_expirer.hpp"

#include <map>
#include <string>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/log_line.hpp"
#include "actors/offsets_store.hpp"

namespace cafka {

namespace {

constexpr auto describe_timeout = std::chrono::seconds(30);

struct expirer_state {
  static inline const char* name = "cafka.offsets-expirer";
  offsets_expirer_config cfg;
};

using self_ptr = offsets_expirer_actor::stateful_pointer<expirer_state>;

// Whether each group with a live actor has members, collected before the pass runs; the
// groups without an actor are empty.
struct pass {
  std::map<std::string, bool> has_members;
  size_t waiting = 0;
};

void expire_now(self_ptr self, const pass& p) {
  auto& cfg = self->state.cfg;
  auto probe = [&p](const std::string& group) {
    auto it = p.has_members.find(group);
    return cluster::group_expiry_state{it == p.has_members.end() || !it->second, std::nullopt};
  };
  auto expired = cfg.store->expire(cfg.now_ms(), cfg.retention_ms, probe);
  if (!expired)
    log_line(log_level::warn, log_component::groups, "__consumer_offsets: expiry failed: %s", expired.error().message().c_str());
  else if (*expired > 0)
    log_line(log_level::info, log_component::groups, "__consumer_offsets: %zu committed offset(s) expired", *expired);
}

void start_pass(self_ptr self) {
  auto p = std::make_shared<pass>();
  std::vector<std::pair<std::string, group_actor>> live;
  for (auto& group : self->state.cfg.store->groups())
    if (auto actor = self->state.cfg.groups ? self->state.cfg.groups->find(group) : std::nullopt)
      live.emplace_back(group, *actor);
  p->waiting = live.size();
  if (live.empty())
    return expire_now(self, *p);
  for (auto& [group, actor] : live) {
    auto answered = [self, p, group = group](bool has_members) {
      p->has_members[group] = has_members;
      if (--p->waiting == 0)
        expire_now(self, *p);
    };
    self->request(actor, describe_timeout, describe_atom_v)
      .then([answered](const cluster::group_description& d) mutable { answered(!d.members.empty()); },
            [answered](caf::error&) mutable { answered(true); }); // unknown: keep its offsets
  }
}

offsets_expirer_actor::behavior_type offsets_expirer(self_ptr self, offsets_expirer_config cfg) {
  self->state.cfg = std::move(cfg);
  self->delayed_send(self, self->state.cfg.interval, caf::tick_atom_v);
  return {
    [=](caf::tick_atom) {
      start_pass(self);
      self->delayed_send(self, self->state.cfg.interval, caf::tick_atom_v);
    },
  };
}

} // namespace

offsets_expirer_actor spawn_offsets_expirer(caf::actor_system& sys, offsets_expirer_config cfg) {
  return sys.spawn(offsets_expirer, std::move(cfg));
}

} // namespace cafka
