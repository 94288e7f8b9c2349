#include "cluster/zookeeper_coordinator.hpp"

#include <zookeeper/zookeeper.h>

#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cluster/deferred_calls.hpp"
#include "cluster/ensure_path.hpp"
#include "cluster/path_syntax.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::cluster {

namespace {

struct zk_category : std::error_category {
  const char* name() const noexcept override { return "zookeeper"; }
  std::string message(int ev) const override { return zerror(ev); }
};

} // namespace

const std::error_category& zookeeper_category() noexcept {
  static const zk_category instance;
  return instance;
}

std::error_code zookeeper_error(int rc) noexcept {
  switch (rc) {
    case ZOK: return {};
    case ZNONODE: return errc::no_node;
    case ZNODEEXISTS: return errc::node_exists;
    case ZBADVERSION: return errc::bad_version;
    case ZNOTEMPTY: return errc::not_empty;
    case ZNOCHILDRENFOREPHEMERALS: return errc::no_children_for_ephemerals;
    case ZCONNECTIONLOSS:
    case ZOPERATIONTIMEOUT: return errc::connection_loss;
    case ZSESSIONEXPIRED:
    case ZINVALIDSTATE: return errc::session_expired; // ZINVALIDSTATE: the handle expired
    case ZBADARGUMENTS: return errc::invalid_path;
    case ZCLOSING: return errc::closed;
    default: return {rc, zookeeper_category()};
  }
}

// -- what the C callbacks get as their context ------------------------------------------------
//
// Every call and every watch gets a ticket owned by core::tickets. A C callback receives the
// ticket's address; a ticket is freed only when the C client will not call it again: a call
// ticket when its completion ran (or when the call was refused synchronously), a watch ticket
// when its event fired or its call's completion shows it was not armed. The rest (watches
// never fired) are freed after zookeeper_close returned.

namespace {

using core = zookeeper_coordinator::core;

struct ticket {
  explicit ticket(core* c) : owner(c) {}
  virtual ~ticket() = default;
  core* owner;
};

struct watch_ticket : ticket {
  watch_ticket(core* c, watcher fn) : ticket(c), w(std::move(fn)) {}
  watcher w; ///< emptied once delivered (event or expiry)
};

template <class Callback>
struct call_ticket : ticket {
  call_ticket(core* c, Callback fn) : ticket(c), done(std::move(fn)) {}
  Callback done;
  watch_ticket* watch = nullptr;
};

} // namespace

struct zookeeper_coordinator::core {
  // Lock order: handle_mutex -> m, gate -> m, gate -> handle_mutex (a callback making a call).
  std::mutex handle_mutex; ///< serialises calls into the C client with zookeeper_close
  zhandle_t* zh = nullptr; ///< guarded by handle_mutex
  std::mutex gate;         ///< held while this session's callbacks run; close() waits on it
  mutable std::mutex m;    ///< guards the members below
  bool closed = false;
  session_state state = session_state::disconnected;
  session_id id = 0;
  std::string password;
  session_callback on_state;
  std::unordered_map<const ticket*, std::unique_ptr<ticket>> tickets;

  template <class T>
  T* add(std::unique_ptr<T> t) {
    T* raw = t.get();
    tickets.emplace(raw, std::move(t));
    return raw;
  }

  std::unique_ptr<ticket> release(const ticket* t) {
    std::unique_ptr<ticket> out;
    if (auto i = tickets.find(t); i != tickets.end()) {
      out = std::move(i->second);
      tickets.erase(i);
    }
    return out;
  }

  /// Why a call cannot be sent now, or an empty error_code. Needs m.
  std::error_code refusal() const {
    if (closed)
      return errc::closed;
    if (state == session_state::expired)
      return errc::session_expired;
    if (state != session_state::connected)
      return errc::connection_loss;
    return {};
  }
};

namespace {

// -- conversions --------------------------------------------------------------------------------

node_stat to_stat(const Stat& s) {
  node_stat out;
  out.czxid = s.czxid;
  out.mzxid = s.mzxid;
  out.pzxid = s.pzxid;
  out.version = s.version;
  out.cversion = s.cversion;
  out.ephemeral_owner = s.ephemeralOwner;
  out.data_length = s.dataLength;
  out.num_children = s.numChildren;
  return out;
}

int to_zoo_mode(create_mode m) {
  switch (m) {
    case create_mode::persistent: return ZOO_PERSISTENT;
    case create_mode::ephemeral: return ZOO_EPHEMERAL;
    case create_mode::sequential: return ZOO_PERSISTENT_SEQUENTIAL;
    case create_mode::ephemeral_sequential: return ZOO_EPHEMERAL_SEQUENTIAL;
  }
  return ZOO_PERSISTENT;
}

// ZOO_*_EVENT are extern const ints: no switch.
watch_event_type to_event_type(int type) {
  if (type == ZOO_CREATED_EVENT)
    return watch_event_type::created;
  if (type == ZOO_DELETED_EVENT)
    return watch_event_type::deleted;
  if (type == ZOO_CHANGED_EVENT)
    return watch_event_type::changed;
  if (type == ZOO_CHILD_EVENT)
    return watch_event_type::children_changed;
  return watch_event_type::session;
}

session_state to_session_state(int state) {
  if (state == ZOO_CONNECTED_STATE || state == ZOO_READONLY_STATE)
    return session_state::connected;
  if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE)
    return session_state::expired;
  return session_state::disconnected; // connecting, associating, not connected
}

// -- C callbacks (completion thread, or the closing thread inside zookeeper_close) -------------

/// Frees a call ticket (and its watch ticket unless armed) and hands `value` to its callback.
template <class Callback, class Value>
void finish(const void* data, Value value, bool watch_armed) {
  auto* t = static_cast<call_ticket<Callback>*>(const_cast<void*>(data));
  auto* c = t->owner;
  std::lock_guard<std::mutex> gate{c->gate};
  Callback done;
  std::unique_ptr<ticket> own, own_watch;
  {
    std::lock_guard<std::mutex> guard{c->m};
    own = c->release(t);
    if (t->watch && !watch_armed)
      own_watch = c->release(t->watch);
    if (!c->closed)
      done = std::move(t->done);
  }
  if (done)
    run_deferred({[done = std::move(done), value = std::move(value)]() mutable {
      done(std::move(value));
    }});
}

void on_created(int rc, const char* path, const void* data) {
  result<std::string> r = rc == ZOK ? result<std::string>{std::string{path ? path : ""}}
                                    : result<std::string>{zookeeper_error(rc)};
  finish<create_callback>(data, std::move(r), false);
}

void on_removed(int rc, const void* data) {
  finish<status_callback>(data, status{zookeeper_error(rc)}, false);
}

void on_exists(int rc, const Stat* stat, const void* data) {
  using value = result<std::optional<node_stat>>;
  value r = rc == ZOK       ? value{std::optional<node_stat>{to_stat(*stat)}}
            : rc == ZNONODE ? value{std::optional<node_stat>{}}
                            : value{zookeeper_error(rc)};
  // exists arms its watch on a missing node too (C client: ZOK or ZNONODE).
  finish<exists_callback>(data, std::move(r), rc == ZOK || rc == ZNONODE);
}

// The value for ZOK (a result built from an empty error_code would be no value at all).
result<node_data> got_value(int rc, const char* bytes, int len, const Stat* stat) {
  if (rc != ZOK)
    return zookeeper_error(rc);
  node_data n;
  if (bytes && len > 0)
    n.data.assign(bytes, static_cast<std::size_t>(len));
  n.stat = to_stat(*stat);
  return n;
}

void on_got(int rc, const char* bytes, int len, const Stat* stat, const void* data) {
  finish<get_callback>(data, got_value(rc, bytes, len, stat), rc == ZOK);
}

void on_set(int rc, const Stat* stat, const void* data) {
  result<node_stat> r = rc == ZOK ? result<node_stat>{to_stat(*stat)}
                                  : result<node_stat>{zookeeper_error(rc)};
  finish<set_callback>(data, std::move(r), false);
}

result<std::vector<std::string>> children_value(int rc, const String_vector* names) {
  if (rc != ZOK)
    return zookeeper_error(rc);
  std::vector<std::string> out;
  for (int32_t i = 0; names && i < names->count; ++i)
    out.emplace_back(names->data[i]);
  std::sort(out.begin(), out.end());
  return out;
}

void on_children(int rc, const String_vector* names, const void* data) {
  finish<children_callback>(data, children_value(rc, names), rc == ZOK);
}

void on_watch(zhandle_t*, int type, int, const char* path, void* ctx) {
  if (type == ZOO_SESSION_EVENT)
    return; // disconnects keep the watch; expiry is delivered by on_session
  auto* t = static_cast<watch_ticket*>(ctx);
  auto* c = t->owner;
  watch_event ev{to_event_type(type), path ? path : ""};
  std::lock_guard<std::mutex> gate{c->gate};
  watcher w;
  std::unique_ptr<ticket> own;
  {
    std::lock_guard<std::mutex> guard{c->m};
    own = c->release(t); // the C client forgets a watch once it fired
    if (!c->closed)
      w = std::move(t->w);
  }
  if (w)
    run_deferred({[w = std::move(w), ev] { w(ev); }});
}

void on_session(zhandle_t* zh, int type, int state, const char*, void* ctx) {
  if (type != ZOO_SESSION_EVENT)
    return;
  auto* c = static_cast<core*>(ctx);
  auto s = to_session_state(state);
  std::lock_guard<std::mutex> gate{c->gate};
  std::vector<deferred_call> calls;
  {
    std::lock_guard<std::mutex> guard{c->m};
    if (c->closed || c->state == session_state::expired || c->state == s)
      return;
    c->state = s;
    if (s == session_state::connected) {
      const clientid_t* id = zoo_client_id(zh);
      c->id = id->client_id;
      c->password.assign(id->passwd, sizeof id->passwd);
    }
    if (c->on_state)
      calls.emplace_back([cb = c->on_state, s] { cb(s); });
    if (s == session_state::expired)
      for (auto& entry : c->tickets)
        if (auto* w = dynamic_cast<watch_ticket*>(entry.second.get()); w && w->w)
          calls.emplace_back([fn = std::move(w->w)] {
            fn(watch_event{watch_event_type::session, ""});
          });
  }
  run_deferred(std::move(calls));
}

template <class Callback>
struct argument_of;
template <class Arg>
struct argument_of<std::function<void(Arg)>> {
  using type = Arg;
};

/// Issues one asynchronous call: `issue(zh, call ticket, watch ticket or nullptr)` returns the C
/// client's rc. A refused call completes at once on this thread (through run_deferred). Paths are
/// checked here, not by the C client: with a chroot it would turn "a" into the valid "/chroot"
/// + "a".
template <class Callback, class Issue>
void submit(core& c, bool valid_path, Callback done, watcher w, Issue issue) {
  using value = typename argument_of<Callback>::type;
  std::error_code refused;
  if (!valid_path) {
    refused = errc::invalid_path;
  } else {
    std::lock_guard<std::mutex> handle{c.handle_mutex};
    call_ticket<Callback>* t = nullptr;
    watch_ticket* wt = nullptr;
    {
      std::lock_guard<std::mutex> guard{c.m};
      refused = c.refusal(); // zh is null only after close(), which refusal() reports
      if (!refused) {
        t = c.add(std::make_unique<call_ticket<Callback>>(&c, std::move(done)));
        if (w)
          t->watch = wt = c.add(std::make_unique<watch_ticket>(&c, std::move(w)));
      }
    }
    if (!refused) {
      int rc = issue(c.zh, t, wt);
      if (rc == ZOK)
        return; // t belongs to the completion now
      refused = zookeeper_error(rc);
      std::lock_guard<std::mutex> guard{c.m};
      done = std::move(t->done);
      c.release(t);
      if (wt)
        c.release(wt);
    }
  }
  if (done)
    run_deferred({[done = std::move(done), refused] { done(value{refused}); }});
}

void quiet_c_client_logging() {
  static std::once_flag once;
  std::call_once(once, [] { zoo_set_debug_level(ZOO_LOG_LEVEL_WARN); });
}

} // namespace

// -- zookeeper_coordinator ------------------------------------------------------------------------

zookeeper_coordinator::zookeeper_coordinator(const std::string& hosts,
                                             std::chrono::milliseconds session_timeout,
                                             session_callback on_state)
  : core_(std::make_unique<core>()) {
  quiet_c_client_logging();
  core_->on_state = std::move(on_state);
  std::lock_guard<std::mutex> handle{core_->handle_mutex};
  errno = 0;
  core_->zh = zookeeper_init(hosts.c_str(), on_session, static_cast<int>(session_timeout.count()),
                             nullptr, core_.get(), 0);
  if (!core_->zh)
    throw std::system_error(errno ? errno : EINVAL, std::generic_category(),
                            "zookeeper_init('" + hosts + "')");
}

zookeeper_coordinator::~zookeeper_coordinator() {
  close();
}

session_id zookeeper_coordinator::session() const {
  std::lock_guard<std::mutex> guard{core_->m};
  return core_->id;
}

session_state zookeeper_coordinator::state() const {
  std::lock_guard<std::mutex> guard{core_->m};
  return core_->closed ? session_state::closed : core_->state;
}

std::string zookeeper_coordinator::session_password() const {
  std::lock_guard<std::mutex> guard{core_->m};
  return core_->password;
}

void zookeeper_coordinator::create(const std::string& path, std::string_view data,
                                   create_mode mode, create_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void*) {
    return zoo_acreate(zh, path.c_str(), data.data(), static_cast<int>(data.size()),
                       &ZOO_OPEN_ACL_UNSAFE, to_zoo_mode(mode), on_created, t);
  };
  submit(*core_, is_valid_create_path(path, is_sequential(mode)), std::move(done), {}, issue);
}

void zookeeper_coordinator::remove(const std::string& path, int32_t version,
                                   status_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void*) {
    return zoo_adelete(zh, path.c_str(), version, on_removed, t);
  };
  // The root (or the chroot) is never removed.
  submit(*core_, is_valid_path(path) && path != "/", std::move(done), {}, issue);
}

void zookeeper_coordinator::exists(const std::string& path, watcher w, exists_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void* wt) {
    return zoo_awexists(zh, path.c_str(), wt ? on_watch : nullptr, wt, on_exists, t);
  };
  submit(*core_, is_valid_path(path), std::move(done), std::move(w), issue);
}

void zookeeper_coordinator::get(const std::string& path, watcher w, get_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void* wt) {
    return zoo_awget(zh, path.c_str(), wt ? on_watch : nullptr, wt, on_got, t);
  };
  submit(*core_, is_valid_path(path), std::move(done), std::move(w), issue);
}

void zookeeper_coordinator::set(const std::string& path, std::string_view data, int32_t version,
                                set_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void*) {
    return zoo_aset(zh, path.c_str(), data.data(), static_cast<int>(data.size()), version,
                    on_set, t);
  };
  submit(*core_, is_valid_path(path), std::move(done), {}, issue);
}

void zookeeper_coordinator::children(const std::string& path, watcher w,
                                     children_callback done) {
  auto issue = [&](zhandle_t* zh, void* t, void* wt) {
    return zoo_awget_children(zh, path.c_str(), wt ? on_watch : nullptr, wt, on_children, t);
  };
  submit(*core_, is_valid_path(path), std::move(done), std::move(w), issue);
}

void zookeeper_coordinator::close() {
  {
    std::lock_guard<std::mutex> guard{core_->m};
    if (core_->closed)
      return;
    core_->closed = true;
  }
  // A callback running now finishes first; later ones see `closed` and call nothing.
  { std::lock_guard<std::mutex> barrier{core_->gate}; }
  {
    std::lock_guard<std::mutex> handle{core_->handle_mutex};
    if (core_->zh)
      zookeeper_close(core_->zh); // joins the C client's threads: no callback after this
    core_->zh = nullptr;
  }
  decltype(core_->tickets) left;
  {
    std::lock_guard<std::mutex> guard{core_->m};
    left.swap(core_->tickets);
  }
}

// -- ensure_chroot --------------------------------------------------------------------------------

status zookeeper_coordinator::ensure_chroot(const std::string& connect,
                                            std::chrono::milliseconds limit) {
  auto parts = split_zookeeper_connect(connect);
  if (!parts)
    return parts.error();
  if (parts->chroot.empty())
    return {};
  struct waiter {
    std::mutex m;
    std::condition_variable cv;
    bool connected = false;
    std::optional<status> created;
  };
  auto w = std::make_shared<waiter>();
  auto deadline = std::chrono::steady_clock::now() + limit;
  try {
    zookeeper_coordinator zk{parts->hosts, std::chrono::seconds(10), [w](session_state s) {
                               std::lock_guard<std::mutex> guard{w->m};
                               w->connected = s == session_state::connected;
                               w->cv.notify_all();
                             }};
    std::unique_lock<std::mutex> lock{w->m};
    if (!w->cv.wait_until(lock, deadline, [&] { return w->connected; }))
      return errc::connection_loss;
    lock.unlock();
    ensure_path(zk, parts->chroot, [w](status s) {
      std::lock_guard<std::mutex> guard{w->m};
      w->created = s;
      w->cv.notify_all();
    });
    lock.lock();
    if (!w->cv.wait_until(lock, deadline, [&] { return w->created.has_value(); }))
      return errc::connection_loss;
    return *w->created;
  } catch (const std::system_error& e) {
    return e.code();
  }
}

} // namespace cafka::cluster

namespace cafka::cluster {

result<std::unique_ptr<zookeeper_coordinator>>
zookeeper_coordinator::connect(const std::string& connect,
                               std::chrono::milliseconds session_timeout,
                               std::chrono::milliseconds limit, session_callback on_state) {
  if (auto made = ensure_chroot(connect, limit); !made)
    return made.error();
  struct waiter {
    std::mutex m;
    std::condition_variable cv;
    bool connected = false;
    bool expired = false; // e.g. a loaded server answered after the session timeout
  };
  auto w = std::make_shared<waiter>();
  std::unique_ptr<zookeeper_coordinator> c;
  try {
    c = std::make_unique<zookeeper_coordinator>(
      connect, session_timeout, [w, on_state = std::move(on_state)](session_state s) {
        if (on_state)
          on_state(s);
        std::lock_guard<std::mutex> guard{w->m};
        w->connected = w->connected || s == session_state::connected;
        w->expired = w->expired || s == session_state::expired;
        w->cv.notify_all();
      });
  } catch (const std::system_error& e) {
    return e.code();
  }
  std::unique_lock<std::mutex> lock{w->m};
  if (!w->cv.wait_for(lock, limit, [&] { return w->connected || w->expired; }))
    return errc::connection_loss; // c closes on the way out
  if (!w->connected)
    return errc::session_expired;
  result<std::unique_ptr<zookeeper_coordinator>> out{std::move(c)};
  return out;
}

} // namespace cafka::cluster
