#include "cluster/cluster_loader.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <set>

#include "cluster/errc.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::cluster {

// Completions and watches may run on the coordinator's thread while the owner calls load():
// everything shared is behind a mutex, and no callback runs while it is held.
struct cluster_loader::shared_state {
  std::mutex mutex;
  watcher on_change;
  std::set<std::string> armed; ///< "<session>:<kind>:<path>" of the armed watches
};

namespace {

using shared_ptr = std::shared_ptr<cluster_loader::shared_state>;

// A watch to pass to one call: `w` is empty if the same watch is already armed. If the call
// fails, nothing was armed and `release` forgets the key again.
struct arming {
  watcher w;
  std::string key;

  void release(const shared_ptr& s) const {
    if (!w)
      return;
    std::lock_guard<std::mutex> guard{s->mutex};
    s->armed.erase(key);
  }
};

// The session is part of the key: each session has its own watches, and a late event of an
// ended session cannot forget a watch of the next one.
arming arm(const shared_ptr& s, session_id session, char kind, const std::string& path) {
  std::string key = std::to_string(session) + ':' + kind + ':' + path;
  {
    std::lock_guard<std::mutex> guard{s->mutex};
    if (!s->armed.insert(key).second)
      return {{}, key};
  }
  return {[s, key](const watch_event& e) {
            watcher forward;
            {
              std::lock_guard<std::mutex> guard{s->mutex};
              s->armed.erase(key);
              forward = s->on_change;
            }
            if (forward)
              forward(e);
          },
          key};
}

// One load in flight. Each call issued holds a token (`pending`); the load completes when the
// last token is returned. A callback returns its own token only after issuing its follow-ups.
struct load_state {
  std::mutex mutex;
  int pending = 0;
  std::error_code error;
  std::vector<broker_registration> brokers;
  std::optional<controller_info> controller;
  std::map<std::string, topic_entry> topics;
  std::map<std::string, topic_config> broker_configs;
  std::vector<std::string> malformed;
  load_callback done;
};

using load_ptr = std::shared_ptr<load_state>;

void take(const load_ptr& l) {
  std::lock_guard<std::mutex> guard{l->mutex};
  ++l->pending;
}

void give_back(const load_ptr& l) {
  load_callback done;
  result<loaded_view> out = errc::closed; // replaced below
  {
    std::lock_guard<std::mutex> guard{l->mutex};
    if (--l->pending > 0)
      return;
    if (l->error) {
      out = l->error;
    } else {
      loaded_view v;
      v.view.set_brokers(l->brokers);
      v.view.set_controller(l->controller);
      for (auto& [name, topic] : l->topics)
        v.view.set_topic(name, std::move(topic));
      for (auto& [entity, config] : l->broker_configs)
        v.view.set_broker_config(entity, std::move(config));
      v.malformed = std::move(l->malformed);
      out = std::move(v);
    }
    done = std::move(l->done);
  }
  if (done)
    done(std::move(out));
}

// Records `ec` as the load's error unless one is recorded; true if the load still goes on.
bool note(const load_ptr& l, std::error_code ec = {}) {
  std::lock_guard<std::mutex> guard{l->mutex};
  if (ec && !l->error)
    l->error = ec;
  return !l->error;
}

void note_malformed(const load_ptr& l, std::string path) {
  std::lock_guard<std::mutex> guard{l->mutex};
  l->malformed.push_back(std::move(path));
}

// exists() with the watch, then get() of the same node: the watch covers the node appearing,
// changing or vanishing; `use` receives the data, or nothing if the node is missing.
void watch_and_get(coordinator& c, const shared_ptr& s, const load_ptr& l, const std::string& path,
                   std::function<void(const node_data&)> use) {
  auto a = arm(s, c.session(), 'e', path);
  take(l);
  c.exists(path, a.w, [s, l, a](result<std::optional<node_stat>> r) {
    if (!r) {
      a.release(s);
      note(l, r.error());
    }
    give_back(l);
  });
  take(l);
  c.get(path, {}, [l, use](result<node_data> r) {
    if (r)
      use(*r);
    else if (r.error() != errc::no_node)
      note(l, r.error());
    give_back(l);
  });
}

// A config node (a topic's or a broker's overrides), decoded and given to `keep` under the
// load's lock.
void load_config(coordinator& c, const shared_ptr& s, const load_ptr& l, const std::string& path,
                 std::function<void(topic_config&&)> keep) {
  watch_and_get(c, s, l, path, [l, path, keep](const node_data& d) {
    auto config = decode_topic_config(d.data);
    if (!config) {
      note_malformed(l, path);
      return;
    }
    std::lock_guard<std::mutex> guard{l->mutex};
    keep(std::move(*config));
  });
}

// /config/brokers/<entity>: a broker's dynamic configs, or (<default>) every broker's.
void load_broker_config(coordinator& c, const shared_ptr& s, const load_ptr& l, const std::string& entity) {
  load_config(c, s, l, broker_config_path(entity),
              [l, entity](topic_config&& config) { l->broker_configs[entity] = std::move(config); });
}

void load_brokers(coordinator& c, const shared_ptr& s, const load_ptr& l) {
  auto a = arm(s, c.session(), 'c', broker_ids_path());
  take(l);
  c.children(broker_ids_path(), a.w, [&c, s, l, a](result<std::vector<std::string>> names) {
    if (!names) {
      a.release(s);
      note(l, names.error());
    } else if (note(l)) {
      for (auto& name : *names) {
        auto id = parse_id_name(name);
        if (!id) {
          note_malformed(l, broker_ids_path() + '/' + name);
          continue;
        }
        load_broker_config(c, s, l, std::to_string(*id));
        take(l);
        c.get(broker_path(*id), {}, [l, id = *id](result<node_data> r) {
          if (r) {
            auto b = decode_broker_registration(r->data);
            if (b && b->id == id) {
              b->epoch = r->stat.czxid;
              std::lock_guard<std::mutex> guard{l->mutex};
              l->brokers.push_back(*b);
            } else {
              note_malformed(l, broker_path(id));
            }
          } else if (r.error() != errc::no_node) { // no_node: it just died
            note(l, r.error());
          }
          give_back(l);
        });
      }
    }
    give_back(l);
  });
}

void load_controller(coordinator& c, const shared_ptr& s, const load_ptr& l) {
  watch_and_get(c, s, l, controller_path(), [l](const node_data& d) {
    auto info = decode_controller_info(d.data);
    if (!info) {
      note_malformed(l, controller_path());
      return;
    }
    std::lock_guard<std::mutex> guard{l->mutex};
    l->controller = *info;
  });
}

// The states and config of a topic whose assignment is in l->topics[name].
void load_topic_details(coordinator& c, const shared_ptr& s, const load_ptr& l,
                        const std::string& name, int32_t partitions) {
  for (int32_t p = 0; p < partitions; ++p) {
    auto path = partition_state_path(name, p);
    watch_and_get(c, s, l, path, [l, name, p, path](const node_data& d) {
      auto st = decode_partition_state(d.data);
      if (!st) {
        note_malformed(l, path);
        return;
      }
      std::lock_guard<std::mutex> guard{l->mutex};
      l->topics[name].partitions[static_cast<size_t>(p)] = {*st, d.stat.version};
    });
  }
  load_config(c, s, l, topic_config_path(name),
              [l, name](topic_config&& config) { l->topics[name].config = std::move(config); });
}

void load_topics(coordinator& c, const shared_ptr& s, const load_ptr& l) {
  auto a = arm(s, c.session(), 'c', topics_path());
  take(l);
  c.children(topics_path(), a.w, [&c, s, l, a](result<std::vector<std::string>> names) {
    if (!names) {
      a.release(s);
      note(l, names.error());
    } else if (note(l)) {
      for (auto& escaped : *names) {
        auto name = unescape_name(escaped);
        if (!name) {
          note_malformed(l, topics_path() + '/' + escaped);
          continue;
        }
        // Watched: partitions added or reassigned change the assignment. A topic deleted
        // meanwhile is simply missing.
        watch_and_get(c, s, l, topic_path(*name), [&c, s, l, name = *name](const node_data& d) {
          auto assignment = decode_topic_assignment(d.data);
          if (!assignment) {
            note_malformed(l, topic_path(name));
          } else if (note(l)) {
            auto n = static_cast<int32_t>(assignment->partitions.size());
            {
              std::lock_guard<std::mutex> guard{l->mutex};
              auto& t = l->topics[name];
              t.assignment = std::move(*assignment);
              t.assignment_version = d.stat.version;
              t.partitions.resize(static_cast<size_t>(n));
            }
            load_topic_details(c, s, l, name, n);
          }
        });
      }
    }
    give_back(l);
  });
}

} // namespace

cluster_loader::cluster_loader(watcher on_change) : shared_(std::make_shared<shared_state>()) {
  shared_->on_change = std::move(on_change);
}

void cluster_loader::load(coordinator& c, load_callback done) {
  auto l = std::make_shared<load_state>();
  l->done = std::move(done);
  take(l); // held while issuing, so an inline completion cannot finish the load early
  load_brokers(c, shared_, l);
  load_controller(c, shared_, l);
  load_topics(c, shared_, l);
  load_broker_config(c, shared_, l, default_broker_entity);
  give_back(l);
}

std::size_t cluster_loader::armed_watches() const {
  std::lock_guard<std::mutex> guard{shared_->mutex};
  return shared_->armed.size();
}

} // namespace cafka::cluster
