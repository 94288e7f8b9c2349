#include "cluster/embedded_state.hpp"

#include <cstdio>

#include "cluster/path_syntax.hpp"

namespace cafka::cluster {
namespace embedded_detail {

node_stat stat_of(const znode& n) {
  auto s = n.stat;
  s.data_length = static_cast<int32_t>(n.data.size());
  s.num_children = static_cast<int32_t>(n.children.size());
  return s;
}

deferred_call watch_call(const session_rec& s, watcher fn, watch_event ev) {
  return [open = s.open, fn = std::move(fn), ev = std::move(ev)] {
    if (*open)
      fn(ev);
  };
}

deferred_call state_call(const session_rec& s, session_state st) {
  if (!s.on_state || !*s.on_state)
    return {};
  return [open = s.open, cb = s.on_state, st] {
    if (*open)
      (*cb)(st);
  };
}

} // namespace embedded_detail

using namespace embedded_detail;

namespace {

bool version_matches(int32_t expected, const znode& n) {
  return expected == any_version || expected == n.stat.version;
}

} // namespace

embedded_store::state::state() {
  nodes.emplace("/", znode{});
}

std::error_code embedded_store::state::check(session_id id) const {
  auto it = sessions.find(id);
  if (it == sessions.end())
    return errc::session_expired;
  switch (it->second.st) {
    case session_state::connected: return {};
    case session_state::disconnected: return errc::connection_loss;
    case session_state::expired: return errc::session_expired;
    case session_state::closed: return errc::closed;
  }
  return errc::session_expired;
}

void embedded_store::state::arm(watch_table& table, const std::string& path, session_id id,
                               watcher w) {
  if (w)
    table[path].push_back({id, std::move(w)});
}

void embedded_store::state::fire(watch_table& table, std::string_view path,
                                watch_event_type type, batch& out) {
  auto it = table.find(path);
  if (it == table.end())
    return;
  auto armed = std::move(it->second);
  table.erase(it);
  for (auto& w : armed) {
    auto& s = sessions.at(w.owner); // watches of ended sessions were removed when they ended
    watch_event ev{type, std::string(path)};
    if (s.st == session_state::disconnected)
      s.held.emplace_back(std::move(w.fn), std::move(ev));
    else
      out.calls.push_back(watch_call(s, std::move(w.fn), std::move(ev)));
  }
}

void embedded_store::state::delete_node(const std::string& path, batch& out) {
  auto it = nodes.find(path);
  auto owner = it->second.stat.ephemeral_owner;
  nodes.erase(it);
  auto parent_name = parent_path(path);
  auto& parent = nodes.find(parent_name)->second;
  parent.children.erase(std::string(node_name(path)));
  ++zxid;
  ++parent.stat.cversion;
  parent.stat.pzxid = zxid;
  if (owner != 0)
    sessions.at(owner).ephemerals.erase(path);
  fire(data_watches, path, watch_event_type::deleted, out);
  fire(child_watches, path, watch_event_type::deleted, out);
  fire(child_watches, parent_name, watch_event_type::children_changed, out);
}

void embedded_store::state::delete_ephemerals_of(session_id id, batch& out) {
  auto paths = sessions.at(id).ephemerals; // a copy: delete_node edits the set
  for (auto& path : paths)
    delete_node(path, out);
}

result<std::string> embedded_store::state::create(session_id id, const std::string& path,
                                                  std::string_view data, create_mode mode,
                                                  batch& out) {
  if (auto ec = check(id))
    return ec;
  bool sequential = is_sequential(mode);
  if (!is_valid_create_path(path, sequential))
    return errc::invalid_path;
  if (!sequential && path == "/")
    return errc::node_exists;
  // For a sequential prefix such as "/queue/", the parent is that of the completed name.
  auto parent_name = std::string(parent_path(sequential ? path + "0" : path));
  auto parent_it = nodes.find(parent_name);
  if (parent_it == nodes.end())
    return errc::no_node;
  auto& parent = parent_it->second;
  if (parent.stat.ephemeral_owner != 0)
    return errc::no_children_for_ephemerals;
  auto full = path;
  if (sequential) {
    char counter[16];
    std::snprintf(counter, sizeof counter, "%010d", parent.stat.cversion);
    full += counter;
  }
  if (nodes.count(full) != 0)
    return errc::node_exists;
  ++zxid;
  znode n;
  n.data = std::string(data);
  n.stat.czxid = n.stat.mzxid = n.stat.pzxid = zxid;
  n.stat.ephemeral_owner = is_ephemeral(mode) ? id : 0;
  nodes.emplace(full, std::move(n));
  parent.children.emplace(node_name(full));
  ++parent.stat.cversion;
  parent.stat.pzxid = zxid;
  if (is_ephemeral(mode))
    sessions.at(id).ephemerals.insert(full);
  fire(data_watches, full, watch_event_type::created, out);
  fire(child_watches, parent_name, watch_event_type::children_changed, out);
  return full;
}

status embedded_store::state::remove(session_id id, const std::string& path, int32_t version,
                                     batch& out) {
  if (auto ec = check(id))
    return ec;
  if (!is_valid_path(path) || path == "/")
    return errc::invalid_path;
  auto it = nodes.find(path);
  if (it == nodes.end())
    return errc::no_node;
  if (!version_matches(version, it->second))
    return errc::bad_version;
  if (!it->second.children.empty())
    return errc::not_empty;
  delete_node(path, out);
  return {};
}

result<std::optional<node_stat>> embedded_store::state::exists(session_id id,
                                                               const std::string& path,
                                                               watcher& w) {
  if (auto ec = check(id))
    return ec;
  if (!is_valid_path(path))
    return errc::invalid_path;
  arm(data_watches, path, id, std::move(w)); // also on a missing node: fires on created
  auto it = nodes.find(path);
  if (it == nodes.end())
    return std::optional<node_stat>{};
  return std::optional<node_stat>{stat_of(it->second)};
}

result<node_data> embedded_store::state::get(session_id id, const std::string& path,
                                             watcher& w) {
  if (auto ec = check(id))
    return ec;
  if (!is_valid_path(path))
    return errc::invalid_path;
  auto it = nodes.find(path);
  if (it == nodes.end())
    return errc::no_node;
  arm(data_watches, path, id, std::move(w));
  return node_data{it->second.data, stat_of(it->second)};
}

result<node_stat> embedded_store::state::set(session_id id, const std::string& path,
                                             std::string_view data, int32_t version,
                                             batch& out) {
  if (auto ec = check(id))
    return ec;
  if (!is_valid_path(path))
    return errc::invalid_path;
  auto it = nodes.find(path);
  if (it == nodes.end())
    return errc::no_node;
  auto& n = it->second;
  if (!version_matches(version, n))
    return errc::bad_version;
  n.data = std::string(data);
  ++n.stat.version;
  n.stat.mzxid = ++zxid;
  auto stat = stat_of(n);
  fire(data_watches, path, watch_event_type::changed, out);
  return stat;
}

result<std::vector<std::string>> embedded_store::state::children(session_id id,
                                                                 const std::string& path,
                                                                 watcher& w) {
  if (auto ec = check(id))
    return ec;
  if (!is_valid_path(path))
    return errc::invalid_path;
  auto it = nodes.find(path);
  if (it == nodes.end())
    return errc::no_node;
  arm(child_watches, path, id, std::move(w));
  return std::vector<std::string>(it->second.children.begin(), it->second.children.end());
}

} // namespace cafka::cluster
