#include "sim/cluster.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>

#include <unistd.h>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/cluster_view_cache.hpp"
#include "actors/group_registry.hpp"
#include "actors/node_storage.hpp"
#include "actors/offset_log_store.hpp"
#include "actors/routing_table.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"
#include "sim/host.hpp"
#include "sim/network.hpp"
#include "sim/power_loss.hpp"
#include "storage/partition_log.hpp"
#include "storage/topic_partition.hpp"

namespace cafka::sim {

namespace {

// The nodes' wall clock at simulated time 0 (a fixed value: traces must not vary).
constexpr int64_t epoch_ms = 1'700'000'000'000;
// A run_until that takes more steps than this is a livelock, not a slow test.
constexpr uint64_t max_steps = 20'000'000;

// Where the brokers' log dirs go: $CAFKA_SIM_DIR, else /dev/shm (tmpfs: an fsync costs
// nothing there, and a machine crash is played from the logs' recovery points, not from
// what a disk kept), else /tmp.
std::string log_root() {
  if (const char* dir = std::getenv("CAFKA_SIM_DIR"); dir && *dir)
    return dir;
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0)
    return "/dev/shm";
  return "/tmp";
}

std::string make_temp_dir() {
  static const std::string root = log_root();
  auto tmpl = root + "/cafka-sim-XXXXXX";
  auto* p = ::mkdtemp(tmpl.data());
  if (!p)
    throw std::runtime_error("sim: cannot create a temporary log dir under " + root);
  return p;
}

std::string join(const std::vector<int32_t>& xs) {
  std::string out;
  for (auto x : xs)
    out += (out.empty() ? "" : ",") + std::to_string(x);
  return out;
}

} // namespace

struct broker_slot {
  config::server_config cfg;
  std::string log_dir;
  std::unique_ptr<host> h; ///< null while down
  std::optional<node> n;
  uint64_t generation = 0;
  cafka::cluster::session_id session = 0;
  std::shared_ptr<const cafka::cluster::loaded_view> last_view;
  int views = 0; ///< views loaded in this life
  // After a crash: the dead host, kept until its session expired (the store's callbacks
  // still reach its actors until then), and that session.
  std::unique_ptr<host> zombie;
  std::shared_ptr<cafka::cluster::coordinator> zombie_session;
  // The coordinator's side (cut(i, coordinator_host) and back); outlives restarts, as cuts do.
  bool coordinator_cut_to = false;
  bool coordinator_cut_from = false;
  // A GC pause: the host is not run and its clock stands still since paused_at.
  bool paused = false;
  caf::timespan paused_at{0};
  uint64_t pause_token = 0;
  // The coordinator hears nothing from the broker (cut from it, or paused): its session is
  // kept disconnected, and expires once that lasts the session timeout (a world event).
  bool silent = false;
  uint64_t silence_token = 0;
};

struct cluster::impl {
  options opts;
  std::mt19937_64 rng;
  std::shared_ptr<cafka::cluster::embedded_store> store = std::make_shared<cafka::cluster::embedded_store>();
  std::vector<broker_slot> brokers;
  std::unique_ptr<host> client;
  std::vector<std::unique_ptr<host>> more_clients; ///< add_client(): slots after the client's
  network net;
  std::vector<network::slot> slots; ///< brokers, then the client, then more_clients
  caf::timespan now{0};
  std::multimap<caf::timespan, std::function<void()>> events; ///< scheduled faults
  std::vector<std::string> trace;
  std::map<std::pair<size_t, size_t>, uint64_t> cut_tokens; ///< network cuts (host indexes) being watched
  uint64_t next_cut_token = 0;
  int32_t traced_controller = -1;
  int32_t traced_epoch = -1;
  std::shared_ptr<cafka::cluster::embedded_coordinator> observer; ///< recorded_state()'s session
  /// The slot of the host the last step ran, if nothing else happened since (the network
  /// then looks at that host's connections only); nullopt after anything else.
  std::optional<size_t> last_stepped;

  explicit impl(options o) : opts(std::move(o)), rng(opts.seed) {}

  int64_t now_ms() const { return std::chrono::duration_cast<std::chrono::milliseconds>(now).count(); }

  void note(const std::string& what) {
    char stamp[32];
    std::snprintf(stamp, sizeof stamp, "[%8.3fs] ", static_cast<double>(now_ms()) / 1000.0);
    trace.push_back(stamp + what);
    if (live_trace()) // CAFKA_SIM_TRACE=live: each line at once (a run that crashes prints none at the end)
      std::fprintf(stderr, "%s\n", trace.back().c_str());
  }

  static bool live_trace() {
    static const bool on = [] {
      const char* flag = std::getenv("CAFKA_SIM_TRACE");
      return flag && std::string{flag} == "live";
    }();
    return on;
  }

  std::string name(size_t i) const { return "broker " + std::to_string(brokers[i].cfg.broker_id); }
  std::string label(size_t i) const {
    if (i == cluster::client_host)
      return "client";
    if (i == cluster::coordinator_host)
      return "coordinator";
    return i < brokers.size() ? name(i) : "client " + std::to_string(i - brokers.size() + 1);
  }

  void require_broker(size_t i, const char* what) const {
    if (i >= brokers.size())
      throw std::out_of_range(std::string{"sim: "} + what + ": no broker " + std::to_string(i) + " (there are "
                              + std::to_string(brokers.size()) + "; the client and the coordinator are not brokers)");
  }

  void sync_slots() {
    slots.resize(brokers.size() + 1 + more_clients.size());
    for (size_t i = 0; i < brokers.size(); ++i)
      slots[i] = network::slot{brokers[i].h.get(), brokers[i].generation};
    slots[brokers.size()] = network::slot{client.get(), 1};
    for (size_t k = 0; k < more_clients.size(); ++k)
      slots[brokers.size() + 1 + k] = network::slot{more_clients[k].get(), 1};
  }

  void start(size_t i) {
    auto& b = brokers[i];
    b.h = std::make_unique<host>(name(i), b.cfg.listeners.front().host, false);
    ++b.generation;
    b.views = 0;
    b.last_view.reset();
    sync_slots();
    net.listen(slots, i, b.cfg.caf_port);
    node_options no;
    no.open_session = [this, i] {
      auto c = std::make_shared<cafka::cluster::embedded_coordinator>(store);
      brokers[i].session = c->session();
      return std::shared_ptr<cafka::cluster::coordinator>{c};
    };
    no.detached_io_worker = false;
    no.kafka_listeners = false;
    // Member ids from the seed too (never 0, which would mean random_device).
    no.member_id_seed = opts.seed * 1000003 + static_cast<uint64_t>(b.cfg.broker_id) * 101 + b.generation;
    std::string error_text;
    auto started = start_node(b.h->system(), b.cfg, error_text, no, [this] { return epoch_ms + now_ms(); });
    if (!started)
      throw std::runtime_error("sim: starting " + name(i) + ": " + error_text);
    b.n = std::move(*started);
    b.last_view = b.n->views->snapshot(); // the empty view before the first load
    // As cafka-server does: the node actor at caf.port (asynchronous here; the world
    // runs the middleman like any other actor).
    auto& sys = b.h->system();
    caf::anon_send(sys.middleman().actor_handle(), caf::publish_atom_v, b.cfg.caf_port,
                   caf::actor_cast<caf::strong_actor_ptr>(b.n->actor), sys.message_types<node_actor>(),
                   std::string{}, true);
    note(name(i) + " up at " + b.cfg.listeners.front().host + ":" + std::to_string(b.cfg.caf_port)
         + " (session " + std::to_string(b.session) + ")");
    update_silence(i); // still cut off from the coordinator from a former life?
  }

  // -- the coordinator's view of a broker: its session lives while it hears from it --

  bool should_be_silent(const broker_slot& b) const {
    return b.h && (b.coordinator_cut_to || b.coordinator_cut_from || b.paused);
  }

  std::string why_silent(const broker_slot& b) const {
    return b.paused ? "paused" : "cut off from the coordinator";
  }

  // Starts or ends the silence of broker i after a cut, heal, pause, resume or restart.
  void update_silence(size_t i) {
    auto& b = brokers[i];
    auto silent = should_be_silent(b);
    if (silent == b.silent)
      return;
    b.silent = silent;
    auto token = ++b.silence_token;
    auto id = b.session;
    if (silent) {
      if (store->disconnect_session(id))
        note(name(i) + ": session " + std::to_string(id) + " disconnected (" + why_silent(b) + ")");
      // ZooKeeper's server expires a session it has not heard from for the timeout; the
      // client learns of it when it reaches the server again.
      auto timeout = std::chrono::milliseconds(b.cfg.zookeeper_session_timeout_ms);
      events.emplace(now + timeout, [this, i, token, id, timeout] {
        auto& s = brokers[i];
        if (s.silence_token != token || !s.silent)
          return;
        if (store->expire_session(id))
          note(name(i) + ": session " + std::to_string(id) + " expired (the coordinator heard nothing from it for "
               + std::to_string(timeout.count()) + " ms)");
        enforce_silence();
      });
    } else {
      if (store->reconnect_session(id))
        note(name(i) + ": session " + std::to_string(id) + " reconnected");
    }
  }

  // A silent broker's session must not be connected: the node's renewing session opens a
  // new one as soon as it notices an expiry (inside the store's callbacks, or in a step of
  // the broker), and that one cannot reach the coordinator either. It is disconnected right
  // after it opened (after the renewal announced it: the node's member then retries its
  // registration until the reconnect).
  void enforce_silence() {
    for (size_t i = 0; i < brokers.size(); ++i) {
      auto& b = brokers[i];
      if (!b.silent || !b.h)
        continue;
      if (store->state_of(b.session) == cafka::cluster::session_state::connected
          && store->disconnect_session(b.session))
        note(name(i) + ": new session " + std::to_string(b.session) + " disconnected (" + why_silent(b) + ")");
    }
  }

  void pause(size_t i, caf::timespan d) {
    auto& b = brokers[i];
    if (!b.h)
      throw std::logic_error("sim: pause of " + name(i) + ", which is down");
    if (b.paused)
      throw std::logic_error("sim: pause of " + name(i) + ", which is already paused");
    if (d <= caf::timespan{0})
      throw std::invalid_argument("sim: a pause must last longer than 0 ms");
    b.paused = true;
    b.paused_at = now;
    auto token = ++b.pause_token;
    note(name(i) + " paused for " + std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(d).count())
         + " ms");
    update_silence(i);
    events.emplace(now + d, [this, i, token] {
      auto& s = brokers[i];
      if (!s.paused || s.pause_token != token)
        return;
      s.paused = false;
      note(name(i) + " resumed");
      update_silence(i); // the coordinator hears from it again before it runs
      s.h->advance(now - s.paused_at); // its clock catches up: late timers fire at once
    });
    // Its peers hear no heartbeat from it: after the connection timeout they close
    // their connections to it (it finds them closed when it resumes).
    if (opts.connection_timeout.count() > 0 && d > opts.connection_timeout)
      events.emplace(now + opts.connection_timeout, [this, i, token] {
        auto& s = brokers[i];
        if (!s.paused || s.pause_token != token)
          return;
        size_t n = 0;
        for (auto other : hosts_but(i))
          n += drop_between(i, other);
        note(name(i) + " silent for the connection timeout: " + std::to_string(n) + " connection(s) closed");
      });
  }

  // Every host index but i (brokers, the client hosts; not the coordinator).
  std::vector<size_t> hosts_but(size_t i) const {
    std::vector<size_t> out;
    for (size_t j = 0; j < brokers.size(); ++j)
      if (j != i)
        out.push_back(j);
    if (i != cluster::client_host)
      out.push_back(cluster::client_host);
    for (size_t k = 1; k <= more_clients.size(); ++k)
      if (brokers.size() + k != i)
        out.push_back(brokers.size() + k);
    return out;
  }

  // Host indexes: brokers 0..brokers-1, client_host, then add_client()'s brokers+1, ...
  // The slots are brokers, the client, then the added clients: the same numbers.
  size_t slot_of(size_t i) const {
    if (i == cluster::client_host)
      return brokers.size();
    if (i >= brokers.size() && (i == brokers.size() || i > brokers.size() + more_clients.size()))
      throw std::out_of_range("sim: no host " + std::to_string(i) + " (there are " + std::to_string(brokers.size())
                              + " brokers and " + std::to_string(more_clients.size()) + " added client hosts)");
    return i;
  }

  // Closes every connection between hosts a and b at both ends (a TCP reset).
  size_t drop_between(size_t a, size_t b) {
    sync_slots();
    return net.drop(slots, slot_of(a), slot_of(b));
  }

  // A cut of a -> b: while it lasts, every connection_timeout the connections between a
  // and b are closed, as the middleman heartbeat would (one that opened during the cut
  // may be closed sooner than the timeout: the check is periodic, not per connection).
  void watch_cut(size_t a, size_t b) {
    if (opts.connection_timeout.count() <= 0)
      return;
    auto token = cut_tokens[{a, b}] = ++next_cut_token;
    events.emplace(now + opts.connection_timeout, [this, a, b, token] { close_cut(a, b, token); });
  }

  void close_cut(size_t a, size_t b, uint64_t token) {
    auto it = cut_tokens.find({a, b});
    if (it == cut_tokens.end() || it->second != token)
      return; // healed (and perhaps cut again) since
    if (auto n = drop_between(a, b); n > 0)
      note("link " + label(a) + " -> " + label(b) + " cut for the connection timeout: " + std::to_string(n) +
           " connection(s) closed");
    events.emplace(now + opts.connection_timeout, [this, a, b, token] { close_cut(a, b, token); });
  }

  // Kills every actor of the node that the world knows of and lets them process it; the
  // storage closes with the last handle (no flush, no checkpoint).
  void kill_node(broker_slot& b) {
    auto& n = *b.n;
    auto kill = [](const auto& hdl) {
      if (hdl)
        caf::anon_send_exit(hdl, caf::exit_reason::kill);
    };
    if (n.routes) // every local replica: the leaders and the followers, __consumer_offsets too
      for (auto& [_, actor] : *n.routes->all_replicas())
        kill(actor);
    if (n.groups)
      for (auto& g : n.groups->close())
        kill(g);
    kill(n.actor);
    kill(n.cleaner);
    kill(n.log_cleaner); // (its workers are linked to it)
    kill(n.offsets_expirer);
    kill(n.txn_coordinator); // (its abort timer would keep the host's scheduler busy forever)
    kill(n.io_worker);
    for (auto& l : n.listeners)
      kill(l.actor);
    b.h->scheduler().run();
  }

  // A power loss: every log of the node keeps what was fsynced (below its recovery point)
  // and a seed-drawn prefix of the rest, which may end inside a batch (sim/power_loss.hpp).
  // The node's actors are dead, so nothing else touches the logs meanwhile. Returns the
  // torn tails to write once the logs are closed.
  std::vector<torn_tail> lose_unflushed(size_t i) {
    auto& n = *brokers[i].n;
    std::vector<std::pair<std::string, std::shared_ptr<storage::partition_log>>> logs;
    for (auto& [tp, open] : n.storage->partitions)
      logs.emplace_back(storage::partition_dir_name(tp), open.log);
    if (n.offsets)
      for (auto& [tp, log] : n.offsets->logs())
        logs.emplace_back(storage::partition_dir_name(tp), log);
    std::vector<torn_tail> tails;
    for (auto& [name, log] : logs) {
      if (!log)
        continue;
      // Half of the time nothing unflushed stays; else a uniform share of it.
      bool keep_some = std::uniform_int_distribution<int>{0, 1}(rng) == 1;
      auto keep = keep_some ? std::uniform_real_distribution<double>{0, 1}(rng) : 0.0;
      auto tail = cut_unflushed(*log, keep);
      if (!tail)
        note(this->name(i) + ": cannot cut " + name + " back to its recovery point: " + tail.error().message());
      else if (tail->lost_offsets > 0) {
        note(this->name(i) + ": " + name + ": " + std::to_string(tail->lost_offsets) + " unflushed record(s), " +
             std::to_string(tail->bytes.size()) + " of their bytes stay on disk");
        tails.push_back(std::move(*tail));
      }
    }
    return tails;
  }

  void expire_zombie(size_t i) {
    auto& b = brokers[i];
    if (!b.zombie)
      return;
    if (store->expire_session(b.zombie_session->session()))
      note(name(i) + ": session " + std::to_string(b.zombie_session->session()) + " of the crashed broker expired");
    b.zombie_session->close();
    b.zombie_session.reset();
    b.zombie->abandon_actors();
    b.zombie.reset();
  }

  // Broker i's process ends (a crash, or the end of a stop): no pause or silence any more,
  // its connections close at the peers, and the node's actors are killed. Its node (the
  // storage handles) and host are the caller's to drop.
  void end_process(size_t i) {
    auto& b = brokers[i];
    b.paused = false;
    ++b.pause_token;
    b.silent = false;
    ++b.silence_token;
    sync_slots();
    net.drop_host(slots, i);
    kill_node(b);
  }

  void crash(size_t i, crash_mode mode) {
    auto& b = brokers[i];
    if (!b.h)
      throw std::logic_error("sim: crash of " + name(i) + ", which is down");
    note(name(i) + (mode == crash_mode::machine ? " crashed (machine: unflushed data lost)" : " crashed (process)"));
    // The crashed broker's session expires as any crashed one's (below).
    end_process(i);
    auto session = b.n->coordinator;
    std::vector<torn_tail> tails;
    if (mode == crash_mode::machine)
      tails = lose_unflushed(i);
    b.n.reset(); // the last handles: logs and the log-dir lock close without a flush
    for (auto& t : tails)
      if (auto st = write_torn_tail(t); !st)
        note(name(i) + ": cannot write the torn tail of " + t.segment_path + ": " + st.error().message());
    b.zombie = std::move(b.h);
    b.zombie_session = std::move(session);
    b.last_view.reset();
    sync_slots();
    auto timeout = std::chrono::milliseconds(b.cfg.zookeeper_session_timeout_ms);
    auto gen = b.generation;
    events.emplace(now + timeout, [this, i, gen] {
      if (brokers[i].generation == gen)
        expire_zombie(i);
    });
  }

  // A clean shutdown (cafka-server on SIGTERM): the node's stop sequence, driven by the
  // world for at most `max` of simulated time, then its storage closes (flush, checkpoint,
  // clean-shutdown marker) and its session is closed, so the others see it leave at once.
  bool stop(size_t i, std::chrono::milliseconds max) {
    auto& b = brokers[i];
    if (!b.h)
      throw std::logic_error("sim: stop of " + name(i) + ", which is down");
    if (b.paused)
      throw std::logic_error("sim: stop of " + name(i) + ", which is paused");
    note(name(i) + " stopping");
    auto answer = std::make_shared<std::optional<bool>>();
    { // no handle of the host's actors may outlive the host
      auto& sys = b.h->system();
      auto stopper = spawn_node_stopper(sys, *b.n);
      sys.spawn([stopper, answer](caf::event_based_actor* self) {
        self->request(stopper, caf::infinite, shutdown_atom_v)
          .then([=](bool ok) { *answer = ok; }, [=](caf::error&) { *answer = false; });
      });
    }
    run_until([&] { return answer->has_value(); }, max);
    auto closed = finish_node_stop(*b.n, answer->value_or(false));
    bool clean = answer->value_or(false) && closed;
    note(name(i) + (clean ? " stopped cleanly" : " stopped, but not cleanly: " +
                                                   (closed ? std::string{"the node did not shut down in time"}
                                                           : closed.error().message())));
    end_process(i); // what is left of the node (the partition actors are gone)
    b.n.reset();
    b.h->abandon_actors(); // its session is closed: nothing reaches its actors any more
    b.h.reset();
    b.last_view.reset();
    sync_slots();
    return clean;
  }

  void restart(size_t i) {
    auto& b = brokers[i];
    if (b.h)
      throw std::logic_error("sim: restart of " + name(i) + ", which is up");
    expire_zombie(i);
    start(i);
  }

  // Traces every new view a running broker loaded, and controller changes.
  void observe() {
    for (size_t i = 0; i < brokers.size(); ++i) {
      auto& b = brokers[i];
      if (!b.n || !b.n->views)
        continue;
      auto snap = b.n->views->snapshot();
      if (snap == b.last_view)
        continue;
      b.last_view = snap;
      auto& v = snap->view;
      std::string line = name(i) + " view " + std::to_string(++b.views) + ": brokers [" + join(v.broker_ids())
                         + "] controller ";
      if (auto& c = v.controller()) {
        line += std::to_string(c->broker_id) + " (epoch " + std::to_string(c->epoch) + ")";
        if (c->epoch > traced_epoch) {
          traced_epoch = c->epoch;
          if (c->broker_id != traced_controller)
            note("controller is now broker " + std::to_string(c->broker_id) + " (epoch " + std::to_string(c->epoch)
                 + ")");
          traced_controller = c->broker_id;
        }
      } else {
        line += "none";
      }
      line += " topics [";
      bool first = true;
      for (auto& [topic, entry] : v.topics()) {
        if (topic.rfind("__", 0) == 0)
          continue;
        line += (first ? "" : ",") + topic + "/" + std::to_string(entry.partitions.size());
        first = false;
      }
      note(line + "]");
    }
  }

  bool any_silent() const {
    return std::any_of(brokers.begin(), brokers.end(), [](const broker_slot& b) { return b.silent; });
  }

  std::vector<host*> live_hosts() {
    std::vector<host*> out;
    for (auto& b : brokers)
      if (b.h && !b.paused) // a paused host neither runs nor sees its clock move
        out.push_back(b.h.get());
    out.push_back(client.get());
    for (auto& h : more_clients)
      out.push_back(h.get());
    return out;
  }

  // One unit of work on a host drawn by the seed's generator; false if all are idle.
  bool step() {
    sync_slots();
    for (auto& e : net.wire(slots, now, rng, last_stepped))
      note(e);
    last_stepped.reset();
    auto order = live_hosts();
    for (size_t k = order.size(); k > 1; --k) // Fisher-Yates with our generator
      std::swap(order[k - 1], order[std::uniform_int_distribution<size_t>{0, k - 1}(rng)]);
    for (auto* h : order)
      if (h->step(rng)) {
        for (size_t k = 0; k < slots.size(); ++k)
          if (slots[k].h == h)
            last_stepped = k;
        if (any_silent())
          enforce_silence();
        observe();
        return true;
      }
    return false;
  }

  // Moves simulated time to the next timer or fault, if it is not beyond `deadline`.
  bool jump(caf::timespan deadline) {
    std::optional<caf::timespan> next;
    for (auto* h : live_hosts())
      if (auto t = h->next_timer(); t && (!next || *t < *next))
        next = t;
    if (auto d = net.next_delivery(now); d && (!next || *d < *next))
      next = d;
    if (!events.empty() && (!next || events.begin()->first - now < *next))
      next = events.begin()->first - now;
    if (!next || now + *next > deadline)
      return false;
    move_time(*next);
    return true;
  }

  void move_time(caf::timespan d) {
    last_stepped.reset();
    now += d;
    for (auto* h : live_hosts())
      h->advance(d);
    while (!events.empty() && events.begin()->first <= now) {
      auto f = std::move(events.begin()->second);
      events.erase(events.begin());
      f();
    }
    observe();
  }

  bool run_until(const std::function<bool()>& done, caf::timespan max) {
    last_stepped.reset(); // the caller may have changed anything since
    auto deadline = now + max;
    for (uint64_t steps = 0; steps < max_steps; ++steps) {
      if (done())
        return true;
      if (step())
        continue;
      if (!jump(deadline)) {
        if (deadline > now)
          move_time(deadline - now);
        return done();
      }
    }
    note("run_until gave up after " + std::to_string(max_steps) + " steps (livelock?)");
    return done();
  }

  void shutdown() {
    if (observer)
      observer->close();
    // Sessions first, so that no store callback reaches a system being destroyed.
    for (auto& b : brokers) {
      if (b.zombie_session)
        b.zombie_session->close();
      if (b.n && b.n->coordinator)
        b.n->coordinator->close();
    }
    for (auto& b : brokers) {
      if (b.n)
        kill_node(b);
      b.n.reset();
      for (auto* h : {b.h.get(), b.zombie.get()})
        if (h)
          h->abandon_actors();
      b.h.reset();
      b.zombie.reset();
    }
    if (client) {
      client->abandon_actors();
      client.reset();
    }
    for (auto& h : more_clients)
      h->abandon_actors();
    more_clients.clear();
    for (auto& b : brokers) {
      std::error_code ec;
      std::filesystem::remove_all(b.log_dir, ec);
    }
  }
};

cluster::cluster(options opts) : impl_(std::make_unique<impl>(std::move(opts))) {
  auto& s = *impl_;
  if (s.opts.brokers < 1 || s.opts.brokers > 200)
    throw std::invalid_argument("sim: brokers must be between 1 and 200, not " + std::to_string(s.opts.brokers));
  s.client = std::make_unique<host>("client", "10.0.1.1", true);
  s.brokers.resize(static_cast<size_t>(s.opts.brokers));
  for (size_t i = 0; i < s.brokers.size(); ++i) {
    auto& b = s.brokers[i];
    b.log_dir = make_temp_dir();
    b.cfg.broker_id = static_cast<int32_t>(i + 1);
    b.cfg.log_dirs = {b.log_dir};
    b.cfg.listeners = {config::listener{"PLAINTEXT", "10.0.0." + std::to_string(i + 1), 9092}};
    b.cfg.caf_port = 9192;
    b.cfg.num_partitions = 3;
    b.cfg.zookeeper_session_timeout_ms = 6000;
    if (s.opts.configure)
      s.opts.configure(b.cfg);
  }
  s.note("seed " + std::to_string(s.opts.seed) + ", " + std::to_string(s.brokers.size()) + " brokers");
  try {
    for (size_t i = 0; i < s.brokers.size(); ++i)
      s.start(i);
  } catch (...) {
    s.shutdown();
    throw;
  }
}

cluster::~cluster() {
  // For replaying a failure by hand, and for comparing runs across processes.
  if (const char* flag = std::getenv("CAFKA_SIM_TRACE");
      flag && *flag && std::string{flag} != "0" && !impl::live_trace())
    for (auto& line : impl_->trace)
      std::fprintf(stderr, "%s\n", line.c_str());
  impl_->shutdown();
}

bool cluster::run_until(const std::function<bool()>& done, std::chrono::milliseconds max_sim_time) {
  return impl_->run_until(done, max_sim_time);
}

void cluster::advance(std::chrono::milliseconds d) {
  impl_->run_until([] { return false; }, d);
}

std::chrono::milliseconds cluster::now() const { return std::chrono::milliseconds(impl_->now_ms()); }

size_t cluster::size() const { return impl_->brokers.size(); }

broker_handle cluster::broker(size_t i) {
  auto& b = impl_->brokers.at(i);
  broker_handle out;
  out.id = b.cfg.broker_id;
  out.address = b.cfg.listeners.front().host;
  out.caf_port = b.cfg.caf_port;
  out.up = b.h != nullptr;
  if (b.h) {
    out.system = &b.h->system();
    out.n = &*b.n;
  }
  return out;
}

caf::actor_system& cluster::client() { return impl_->client->system(); }

size_t cluster::add_client() {
  auto& s = *impl_;
  auto k = s.more_clients.size() + 2; // the first client host is 10.0.1.1
  if (k > 254)
    throw std::invalid_argument("sim: at most 253 extra client hosts");
  s.more_clients.push_back(
    std::make_unique<host>("client " + std::to_string(k), "10.0.1." + std::to_string(k), true));
  s.note("client " + std::to_string(k) + " up at 10.0.1." + std::to_string(k));
  return s.brokers.size() + s.more_clients.size();
}

caf::actor_system& cluster::client(size_t host) {
  auto& s = *impl_;
  if (host == client_host)
    return s.client->system();
  if (host <= s.brokers.size() || host > s.brokers.size() + s.more_clients.size())
    throw std::out_of_range("sim: no client host " + std::to_string(host));
  return s.more_clients[host - s.brokers.size() - 1]->system();
}

std::string cluster::bootstrap() const {
  std::string out;
  for (auto& b : impl_->brokers)
    out += (out.empty() ? "" : ",") + b.cfg.listeners.front().host + ":" + std::to_string(b.cfg.caf_port);
  return out;
}

int32_t cluster::controller() const {
  int32_t agreed = -1;
  for (auto& b : impl_->brokers) {
    if (!b.n)
      continue;
    auto& c = b.n->views->snapshot()->view.controller();
    if (!c)
      return -1;
    if (agreed != -1 && c->broker_id != agreed)
      return -1;
    agreed = c->broker_id;
  }
  return agreed;
}

bool cluster::converged() const {
  std::vector<int32_t> up;
  for (auto& b : impl_->brokers)
    if (b.n)
      up.push_back(b.cfg.broker_id);
  for (auto& b : impl_->brokers)
    if (b.n && b.n->views->snapshot()->view.broker_ids() != up)
      return false;
  auto c = controller();
  return c != -1 && std::find(up.begin(), up.end(), c) != up.end();
}

void cluster::crash(size_t i, crash_mode mode) { impl_->crash(i, mode); }

bool cluster::stop(size_t i, std::chrono::milliseconds max_sim_time) { return impl_->stop(i, max_sim_time); }

void cluster::restart(size_t i) { impl_->restart(i); }

void cluster::expire_session(size_t i) {
  auto& s = *impl_;
  auto& b = s.brokers.at(i);
  if (!b.n)
    throw std::logic_error("sim: expire_session of " + s.name(i) + ", which is down");
  auto id = b.session; // the node's renewing session replaces it inside expire_session
  if (s.store->expire_session(id))
    s.note(s.name(i) + ": session " + std::to_string(id) + " expired (fault)");
  if (b.silent)
    s.enforce_silence(); // its new session cannot reach the coordinator either
}

namespace {

size_t slot_in(const cluster::impl& s, size_t i) { return s.slot_of(i); }

} // namespace

namespace {

// cut (down = true) or heal one direction of a link; the coordinator's links are a broker's
// session, the others the simulated network's.
void set_link(cluster::impl& s, size_t from, size_t to, bool down) {
  const char* verb = down ? "cut" : "heal";
  auto what = "link " + s.label(from) + " -> " + s.label(to) + (down ? " cut" : " healed");
  if (from == cluster::coordinator_host || to == cluster::coordinator_host) {
    if (from == to)
      throw std::invalid_argument(std::string{"sim: "} + verb + " of the coordinator from itself");
    auto i = from == cluster::coordinator_host ? to : from;
    if (i == cluster::client_host)
      throw std::invalid_argument(std::string{"sim: the client has no coordinator session to "} + verb);
    auto& b = s.brokers.at(slot_in(s, i));
    (from == cluster::coordinator_host ? b.coordinator_cut_from : b.coordinator_cut_to) = down;
    s.note(what);
    s.update_silence(i);
    return;
  }
  if (down)
    s.net.cut(slot_in(s, from), slot_in(s, to));
  else
    s.net.heal(slot_in(s, from), slot_in(s, to));
  s.note(what);
  if (down)
    s.watch_cut(from, to);
  else
    s.cut_tokens.erase({from, to});
}

} // namespace

void cluster::cut(size_t from, size_t to) { set_link(*impl_, from, to, true); }

void cluster::heal(size_t from, size_t to) { set_link(*impl_, from, to, false); }

namespace {

// isolate (down = true) or rejoin: every link of host i, both directions; a broker's
// coordinator link too.
void set_every_link(cluster::impl& s, size_t i, bool down) {
  s.slot_of(i); // throws for a host that does not exist
  s.note(s.label(i) + (down ? " isolated" : " rejoins"));
  auto others = s.hosts_but(i);
  if (i < s.brokers.size())
    others.push_back(cluster::coordinator_host);
  for (auto other : others) {
    set_link(s, i, other, down);
    set_link(s, other, i, down);
  }
}

} // namespace

void cluster::isolate(size_t i) { set_every_link(*impl_, i, true); }

void cluster::rejoin(size_t i) { set_every_link(*impl_, i, false); }

void cluster::delay(size_t from, size_t to, std::chrono::milliseconds min, std::chrono::milliseconds max) {
  auto& s = *impl_;
  if (from == coordinator_host || to == coordinator_host)
    throw std::invalid_argument("sim: the coordinator link cannot be delayed (only cut)");
  if (min.count() < 0 || min > max)
    throw std::invalid_argument("sim: delay needs 0 <= min <= max, not " + std::to_string(min.count()) + " ms .. "
                                + std::to_string(max.count()) + " ms");
  s.net.delay(slot_in(s, from), slot_in(s, to), min, max);
  if (max.count() == 0)
    s.note("link " + s.label(from) + " -> " + s.label(to) + " no longer delayed");
  else
    s.note("link " + s.label(from) + " -> " + s.label(to) + " delayed by " + std::to_string(min.count()) + ".."
           + std::to_string(max.count()) + " ms");
}

size_t cluster::drop(size_t from, size_t to) {
  auto& s = *impl_;
  if (from == coordinator_host || to == coordinator_host)
    throw std::invalid_argument("sim: the coordinator link cannot be dropped (cut it instead)");
  auto a = slot_in(s, from);
  auto b = slot_in(s, to);
  if (a == b)
    throw std::invalid_argument("sim: drop of a host's link to itself");
  s.sync_slots();
  auto n = s.net.drop(s.slots, a, b);
  s.note("link " + s.label(from) + " -> " + s.label(to) + " dropped: " + std::to_string(n)
         + " connection(s) closed");
  return n;
}

void cluster::pause(size_t i, std::chrono::milliseconds d) {
  impl_->require_broker(i, "pause");
  impl_->pause(i, d);
}

bool cluster::paused(size_t i) const { return impl_->brokers.at(i).paused; }

const std::vector<std::string>& cluster::trace() const { return impl_->trace; }

void cluster::note(const std::string& what) { impl_->note(what); }

std::optional<cafka::cluster::partition_state> cluster::recorded_state(const std::string& topic, int32_t partition) {
  auto& s = *impl_;
  if (!s.observer)
    s.observer = std::make_shared<cafka::cluster::embedded_coordinator>(s.store);
  std::optional<cafka::cluster::partition_state> out;
  // The store runs the callback on this thread before get() returns (no other call is under way).
  s.observer->get(cafka::cluster::partition_state_path(topic, partition), {},
                  [&out](result<cafka::cluster::node_data> r) {
                    if (!r)
                      return;
                    if (auto st = cafka::cluster::decode_partition_state(r->data))
                      out = std::move(*st);
                  });
  return out;
}

std::optional<cafka::cluster::topic_assignment> cluster::recorded_assignment(const std::string& topic) {
  auto& s = *impl_;
  if (!s.observer)
    s.observer = std::make_shared<cafka::cluster::embedded_coordinator>(s.store);
  std::optional<cafka::cluster::topic_assignment> out;
  s.observer->get(cafka::cluster::topic_path(topic), {}, [&out](result<cafka::cluster::node_data> r) {
    if (!r)
      return;
    if (auto a = cafka::cluster::decode_topic_assignment(r->data))
      out = std::move(*a);
  });
  return out;
}

const std::string& cluster::log_dir(size_t i) const { return impl_->brokers.at(i).log_dir; }

} // namespace cafka::sim
