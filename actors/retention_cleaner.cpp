#include "actors/retention_cleaner.hpp"

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/log_line.hpp"
#include "actors/routing_table.hpp"
#include "metrics/broker_metrics.hpp"

namespace cafka {

namespace {

constexpr auto retention_request_timeout = std::chrono::seconds(60);

struct cleaner_state {
  static inline const char* name = "cafka.retention-cleaner";
  retention_cleaner_config cfg;
};

retention_cleaner_actor::behavior_type
retention_cleaner(retention_cleaner_actor::stateful_pointer<cleaner_state> self,
                  retention_cleaner_config cfg) {
  self->state.cfg = std::move(cfg);
  self->delayed_send(self, self->state.cfg.interval, caf::tick_atom_v);
  return {
    [=](caf::tick_atom) {
      auto now = self->state.cfg.now_ms();
      auto metrics = self->state.cfg.metrics;
      if (metrics)
        ++metrics->retention_runs;
      for (auto& [tp, partition] : *self->state.cfg.routes->replicas()) {
        self->request(partition, retention_request_timeout, retention_atom_v, now)
          .then(
            [metrics](const retention_report& r) {
              if (r.deleted_segments.empty())
                return;
              if (metrics) {
                metrics->retention_deleted_segments += r.deleted_segments.size();
                metrics->retention_deleted_bytes += static_cast<uint64_t>(r.deleted_bytes);
              }
              log_line(log_level::info, log_component::storage, "retention: %s-%d deleted %zu segment(s), %lld bytes; log start offset now %lld",
                       r.tp.topic.c_str(), r.tp.partition, r.deleted_segments.size(),
                       static_cast<long long>(r.deleted_bytes), static_cast<long long>(r.log_start_offset));
            },
            [tp = tp](caf::error& err) {
              log_line(log_level::warn, log_component::storage, "retention: %s-%d failed: %s", tp.topic.c_str(), tp.partition, describe(err).c_str());
            });
      }
      self->delayed_send(self, self->state.cfg.interval, caf::tick_atom_v);
    },
  };
}

} // namespace

retention_cleaner_actor spawn_retention_cleaner(caf::actor_system& sys, retention_cleaner_config cfg) {
  return sys.spawn(retention_cleaner, std::move(cfg));
}

} // namespace cafka
