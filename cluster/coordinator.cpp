#include "cluster/coordinator.hpp"

#include <tuple>

namespace cafka::cluster {

coordinator::~coordinator() = default;

bool is_ephemeral(create_mode m) noexcept {
  return m == create_mode::ephemeral || m == create_mode::ephemeral_sequential;
}

bool is_sequential(create_mode m) noexcept {
  return m == create_mode::sequential || m == create_mode::ephemeral_sequential;
}

bool operator==(const node_stat& a, const node_stat& b) {
  auto tie = [](const node_stat& s) {
    return std::tie(s.czxid, s.mzxid, s.pzxid, s.version, s.cversion, s.ephemeral_owner,
                    s.data_length, s.num_children);
  };
  return tie(a) == tie(b);
}

const char* to_string(session_state s) noexcept {
  switch (s) {
    case session_state::connected: return "connected";
    case session_state::disconnected: return "disconnected";
    case session_state::expired: return "expired";
    case session_state::closed: return "closed";
  }
  return "?";
}

const char* to_string(watch_event_type t) noexcept {
  switch (t) {
    case watch_event_type::created: return "created";
    case watch_event_type::deleted: return "deleted";
    case watch_event_type::changed: return "changed";
    case watch_event_type::children_changed: return "children_changed";
    case watch_event_type::session: return "session";
  }
  return "?";
}

} // namespace cafka::cluster
