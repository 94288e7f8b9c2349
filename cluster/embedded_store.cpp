#include "cluster/embedded_store.hpp"

#include <utility>

#include "cluster/deferred_calls.hpp"
#include "cluster/embedded_state.hpp"

namespace cafka::cluster {

using namespace embedded_detail;

namespace {

// Runs `op` under the mutex, queues its result for `done`, then runs the callbacks.
template <class State, class Callback, class Op>
void serve(State& s, session_id id, Callback done, Op op) {
  batch out;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    auto r = op(out);
    out.calls.push_back(s.completion(id, std::move(done), std::move(r)));
  }
  run_deferred(std::move(out.calls));
}

} // namespace

embedded_store::embedded_store() : state_(std::make_unique<state>()) {}

embedded_store::~embedded_store() = default;

session_id embedded_store::open_session(session_callback on_state) {
  auto& s = *state_;
  batch out;
  session_id id;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    id = s.next_session++;
    auto& rec = s.sessions[id];
    rec.on_state = std::make_shared<const session_callback>(std::move(on_state));
    out.calls.push_back(state_call(rec, session_state::connected));
  }
  run_deferred(std::move(out.calls));
  return id;
}

void embedded_store::close_session(session_id id) {
  auto& s = *state_;
  batch out;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    auto it = s.sessions.find(id);
    if (it == s.sessions.end() || it->second.st == session_state::closed)
      return;
    auto& rec = it->second;
    bool live = rec.st != session_state::expired;
    rec.st = session_state::closed;
    *rec.open = false;
    out.dropped_on_state = std::move(rec.on_state);
    s.take_watches_of(id, [&](watcher w) { out.dropped.push_back(std::move(w)); });
    if (live)
      s.delete_ephemerals_of(id, out);
  }
  run_deferred(std::move(out.calls));
}

bool embedded_store::expire_session(session_id id) {
  auto& s = *state_;
  batch out;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    auto it = s.sessions.find(id);
    if (it == s.sessions.end()
        || (it->second.st != session_state::connected
            && it->second.st != session_state::disconnected))
      return false;
    auto& rec = it->second;
    rec.st = session_state::expired;
    out.calls.push_back(state_call(rec, session_state::expired));
    s.take_watches_of(id, [&](watcher w) {
      out.calls.push_back(watch_call(rec, std::move(w), {watch_event_type::session, ""}));
    });
    s.delete_ephemerals_of(id, out);
  }
  run_deferred(std::move(out.calls));
  return true;
}

bool embedded_store::disconnect_session(session_id id) {
  auto& s = *state_;
  batch out;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    auto it = s.sessions.find(id);
    if (it == s.sessions.end() || it->second.st != session_state::connected)
      return false;
    it->second.st = session_state::disconnected;
    out.calls.push_back(state_call(it->second, session_state::disconnected));
  }
  run_deferred(std::move(out.calls));
  return true;
}

bool embedded_store::reconnect_session(session_id id) {
  auto& s = *state_;
  batch out;
  {
    std::lock_guard<std::mutex> guard{s.mutex};
    auto it = s.sessions.find(id);
    if (it == s.sessions.end() || it->second.st != session_state::disconnected)
      return false;
    auto& rec = it->second;
    rec.st = session_state::connected;
    out.calls.push_back(state_call(rec, session_state::connected));
    for (auto& [fn, ev] : rec.held) // ZooKeeper re-registers watches on reconnect and fires
      out.calls.push_back(watch_call(rec, std::move(fn), std::move(ev))); // the missed ones
    rec.held.clear();
  }
  run_deferred(std::move(out.calls));
  return true;
}

std::optional<session_state> embedded_store::state_of(session_id id) const {
  std::lock_guard<std::mutex> guard{state_->mutex};
  auto it = state_->sessions.find(id);
  if (it == state_->sessions.end())
    return std::nullopt;
  return it->second.st;
}

std::size_t embedded_store::node_count() const {
  std::lock_guard<std::mutex> guard{state_->mutex};
  return state_->nodes.size();
}

std::size_t embedded_store::watch_count() const {
  std::lock_guard<std::mutex> guard{state_->mutex};
  std::size_t n = 0;
  for (auto* table : {&state_->data_watches, &state_->child_watches})
    for (auto& entry : *table)
      n += entry.second.size();
  for (auto& entry : state_->sessions)
    n += entry.second.held.size();
  return n;
}

void embedded_store::create(session_id id, const std::string& path, std::string_view data,
                            create_mode mode, create_callback done) {
  serve(*state_, id, std::move(done),
        [&](batch& out) { return state_->create(id, path, data, mode, out); });
}

void embedded_store::remove(session_id id, const std::string& path, int32_t version,
                            status_callback done) {
  serve(*state_, id, std::move(done),
        [&](batch& out) { return state_->remove(id, path, version, out); });
}

void embedded_store::exists(session_id id, const std::string& path, watcher w,
                            exists_callback done) {
  serve(*state_, id, std::move(done), [&](batch&) { return state_->exists(id, path, w); });
}

void embedded_store::get(session_id id, const std::string& path, watcher w, get_callback done) {
  serve(*state_, id, std::move(done), [&](batch&) { return state_->get(id, path, w); });
}

void embedded_store::set(session_id id, const std::string& path, std::string_view data,
                         int32_t version, set_callback done) {
  serve(*state_, id, std::move(done),
        [&](batch& out) { return state_->set(id, path, data, version, out); });
}

void embedded_store::children(session_id id, const std::string& path, watcher w,
                              children_callback done) {
  serve(*state_, id, std::move(done), [&](batch&) { return state_->children(id, path, w); });
}

} // namespace cafka::cluster
