#include "cluster/renewing_session.hpp"

#include <cstdint>
#include <utility>

namespace cafka::cluster {

struct renewing_session::shared {
  std::mutex m;
  factory open;
  session_callback on_state;
  listener events;
  std::shared_ptr<coordinator> current;
  uint64_t generation = 0; ///< of `current`; 1 for the first session
  uint64_t announced = 1;  ///< the last generation told to on_renewed (the first is never told)
  bool renewing = false;   ///< between noticing an expiry and storing the next session
  bool failed = false;     ///< the factory failed: expired for good
  bool closed = false;
  int renewals = 0;
  std::vector<std::shared_ptr<coordinator>> retired; ///< expired inner sessions, closed at close()

  // -- the steps of a renewal; each takes `m` itself and never calls out under it --

  /// Opens the session of generation `gen` through the factory and makes it current.
  static void open_next(const std::shared_ptr<shared>& self, uint64_t gen);
  /// The inner session of generation `gen` has expired: renew it (once).
  static void notice_expired(const std::shared_ptr<shared>& self, uint64_t gen);
  /// The session of generation `gen` is connected: tell on_renewed (once) if it is a renewal.
  static void announce(const std::shared_ptr<shared>& self, uint64_t gen);
  static void on_inner_state(const std::weak_ptr<shared>& weak, uint64_t gen, session_state s);

  /// The current session and its generation (nullptr once failed or closed).
  std::pair<std::shared_ptr<coordinator>, uint64_t> pick() {
    std::lock_guard<std::mutex> guard{m};
    if (failed || closed)
      return {nullptr, generation};
    return {current, generation};
  }

  errc terminal_error() {
    std::lock_guard<std::mutex> guard{m};
    return closed ? errc::closed : errc::session_expired;
  }
};

namespace {

using shared_ptr_t = std::shared_ptr<renewing_session::shared>;
using weak_ptr_t = std::weak_ptr<renewing_session::shared>;

} // namespace

void renewing_session::shared::open_next(const shared_ptr_t& self, uint64_t gen) {
  weak_ptr_t weak = self;
  std::shared_ptr<coordinator> next;
  try {
    next = self->open([weak, gen](session_state s) { on_inner_state(weak, gen, s); });
  } catch (...) {
    next = nullptr; // e.g. zookeeper_init refused: reported as an expired outer session
  }
  session_callback on_state;
  bool close_it = false;
  {
    std::lock_guard<std::mutex> guard{self->m};
    self->renewing = false;
    if (self->closed) {
      close_it = true;
    } else if (!next) {
      self->failed = true;
      on_state = self->on_state;
    } else {
      self->current = next;
    }
  }
  if (close_it && next) // closed meanwhile; a session other than the one calling back, if any
    next->close();
  if (on_state)
    on_state(session_state::expired);
  if (next && !close_it && next->state() == session_state::connected)
    announce(self, gen); // the embedded store connects at once (its callback may come later)
}

void renewing_session::shared::notice_expired(const shared_ptr_t& self, uint64_t gen) {
  uint64_t next_gen = 0;
  session_callback on_state;
  std::function<void()> on_lost;
  {
    std::lock_guard<std::mutex> guard{self->m};
    if (self->closed || self->failed || self->renewing || gen != self->generation)
      return; // already renewed (or being renewed) past that session
    self->renewing = true;
    self->retired.push_back(self->current); // not closed here: we may be inside its callback
    next_gen = ++self->generation;
    ++self->renewals;
    on_state = self->on_state;
    on_lost = self->events.on_lost;
  }
  if (on_state)
    on_state(session_state::disconnected);
  if (on_lost)
    on_lost();
  open_next(self, next_gen);
}

void renewing_session::shared::announce(const shared_ptr_t& self, uint64_t gen) {
  std::shared_ptr<coordinator> current;
  std::function<void(session_id)> on_renewed;
  {
    std::lock_guard<std::mutex> guard{self->m};
    if (self->closed || gen != self->generation || gen <= self->announced)
      return;
    self->announced = gen;
    current = self->current;
    on_renewed = self->events.on_renewed;
  }
  if (on_renewed)
    on_renewed(current->session());
}

void renewing_session::shared::on_inner_state(const weak_ptr_t& weak, uint64_t gen, session_state s) {
  auto self = weak.lock();
  if (!self)
    return;
  if (s == session_state::expired) {
    notice_expired(self, gen);
    return;
  }
  session_callback on_state;
  {
    std::lock_guard<std::mutex> guard{self->m};
    if (self->closed || gen != self->generation)
      return; // a retired session's news
    on_state = self->on_state;
  }
  if (on_state)
    on_state(s);
  if (s == session_state::connected)
    announce(self, gen);
}

namespace {

// A completion of session `gen`: an expiry it reports starts the renewal and is passed on as
// connection_loss (see the header), unless renewing has failed for good.
template <class Result, class Callback>
Callback wrap_done(const shared_ptr_t& self, uint64_t gen, Callback done) {
  if (!done)
    return done;
  weak_ptr_t weak = self;
  return [weak, gen, done = std::move(done)](Result r) {
    if (!r && r.error() == errc::session_expired) {
      if (auto s = weak.lock()) {
        renewing_session::shared::notice_expired(s, gen);
        if (s->pick().first)
          r = Result{errc::connection_loss};
      }
    }
    done(std::move(r));
  };
}

watcher wrap_watch(const shared_ptr_t& self, uint64_t gen, watcher w) {
  if (!w)
    return w; // an empty watcher arms no watch
  weak_ptr_t weak = self;
  return [weak, gen, w = std::move(w)](const watch_event& e) {
    if (e.type == watch_event_type::session)
      if (auto s = weak.lock())
        renewing_session::shared::notice_expired(s, gen); // first: the holder reads again next
    w(e);
  };
}

// The session to call now: the current one, renewed first if it is found expired.
std::pair<std::shared_ptr<coordinator>, uint64_t> session_for_call(const shared_ptr_t& self) {
  auto [inner, gen] = self->pick();
  if (inner && inner->state() == session_state::expired) {
    renewing_session::shared::notice_expired(self, gen);
    return self->pick();
  }
  return {inner, gen};
}

} // namespace

renewing_session::renewing_session(factory open, session_callback on_state)
  : shared_(std::make_shared<shared>()) {
  shared_->open = std::move(open);
  shared_->on_state = std::move(on_state);
  shared_->generation = 1;
  shared_->renewing = true;
  shared::open_next(shared_, 1);
}

renewing_session::~renewing_session() { close(); }

void renewing_session::set_listener(listener l) {
  std::function<void(session_id)> tell_now;
  std::shared_ptr<coordinator> current;
  {
    std::lock_guard<std::mutex> guard{shared_->m};
    shared_->events = std::move(l);
    if (shared_->renewals > 0 && shared_->announced == shared_->generation && !shared_->closed) {
      tell_now = shared_->events.on_renewed;
      current = shared_->current;
    }
  }
  if (tell_now && current)
    tell_now(current->session());
}

int renewing_session::renewals() const {
  std::lock_guard<std::mutex> guard{shared_->m};
  return shared_->renewals;
}

session_id renewing_session::session() const {
  auto [inner, gen] = shared_->pick();
  return inner ? inner->session() : 0;
}

session_state renewing_session::state() const {
  {
    std::lock_guard<std::mutex> guard{shared_->m};
    if (shared_->closed)
      return session_state::closed;
    if (shared_->failed)
      return session_state::expired;
    if (shared_->renewing)
      return session_state::disconnected;
  }
  auto [inner, gen] = shared_->pick();
  if (!inner)
    return state();
  auto s = inner->state();
  return s == session_state::expired || s == session_state::closed ? session_state::disconnected : s;
}

void renewing_session::create(const std::string& path, std::string_view data, create_mode mode,
                              create_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->create(path, data, mode, wrap_done<result<std::string>>(shared_, gen, std::move(done)));
}

void renewing_session::remove(const std::string& path, int32_t version, status_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->remove(path, version, wrap_done<status>(shared_, gen, std::move(done)));
}

void renewing_session::exists(const std::string& path, watcher w, exists_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->exists(path, wrap_watch(shared_, gen, std::move(w)),
                wrap_done<result<std::optional<node_stat>>>(shared_, gen, std::move(done)));
}

void renewing_session::get(const std::string& path, watcher w, get_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->get(path, wrap_watch(shared_, gen, std::move(w)),
             wrap_done<result<node_data>>(shared_, gen, std::move(done)));
}

void renewing_session::set(const std::string& path, std::string_view data, int32_t version,
                           set_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->set(path, data, version, wrap_done<result<node_stat>>(shared_, gen, std::move(done)));
}

void renewing_session::children(const std::string& path, watcher w, children_callback done) {
  auto [inner, gen] = session_for_call(shared_);
  if (!inner) {
    if (done)
      done(shared_->terminal_error());
    return;
  }
  inner->children(path, wrap_watch(shared_, gen, std::move(w)),
                  wrap_done<result<std::vector<std::string>>>(shared_, gen, std::move(done)));
}

void renewing_session::close() {
  std::shared_ptr<coordinator> current;
  std::vector<std::shared_ptr<coordinator>> retired;
  {
    std::lock_guard<std::mutex> guard{shared_->m};
    if (shared_->closed)
      return;
    shared_->closed = true;
    current = std::move(shared_->current);
    retired = std::move(shared_->retired);
  }
  if (current)
    current->close();
  for (auto& r : retired)
    if (r)
      r->close();
}

} // namespace cafka::cluster
