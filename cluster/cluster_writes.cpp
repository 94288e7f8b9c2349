#include "cluster/cluster_writes.hpp"

#include <memory>
#include <mutex>
#include <optional>

#include "cluster/errc.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::cluster {
namespace {

// Results of calls issued back to back; `done` gets the first error in issue order once the
// last completion (and the issuer's own token) is in.
struct batch {
  std::mutex mutex;
  int pending = 1; // the issuer's token
  std::vector<status> results;
  status_callback done;

  // Reserves a result slot and a token; returns the slot.
  size_t add() {
    std::lock_guard<std::mutex> guard{mutex};
    ++pending;
    results.emplace_back();
    return results.size() - 1;
  }

  void finish(std::optional<size_t> slot = std::nullopt, status st = {}) {
    status_callback call;
    status first;
    {
      std::lock_guard<std::mutex> guard{mutex};
      if (slot)
        results[*slot] = st;
      if (--pending > 0)
        return;
      for (auto& r : results)
        if (!r) {
          first = r;
          break;
        }
      call = std::move(done);
    }
    if (call)
      call(first);
  }
};

create_callback create_into(const std::shared_ptr<batch>& b) {
  auto slot = b->add();
  return [b, slot](result<std::string> r) { b->finish(slot, r ? status{} : status{r.error()}); };
}

// The node of each partition first, first + 1, ... and its state, into `b`.
void create_partitions_into(coordinator& c, const std::shared_ptr<batch>& b, const std::string& topic, int32_t first,
                            const std::vector<partition_state>& states) {
  for (size_t i = 0; i < states.size(); ++i) {
    auto partition = first + static_cast<int32_t>(i);
    c.create(partition_path(topic, partition), "", create_mode::persistent, create_into(b));
    c.create(partition_state_path(topic, partition), encode(states[i]), create_mode::persistent, create_into(b));
  }
}

} // namespace

void publish_new_topic(coordinator& c, const std::string& topic, const new_topic& t,
                       const topic_config& config, status_callback done) {
  auto n = t.assignment.partitions.size();
  if (n == 0 || t.partition_states.size() != n) {
    done(errc::invalid_partitions);
    return;
  }
  auto states = t.partition_states;
  auto config_data = encode(config);
  c.create(topic_path(topic), encode(t.assignment), create_mode::persistent,
           [&c, topic, states, config_data, done](result<std::string> r) {
             if (!r) {
               done(r.error()); // node_exists: the topic exists, or another controller won
               return;
             }
             auto b = std::make_shared<batch>();
             b->done = done;
             c.create(partitions_path(topic), "", create_mode::persistent, create_into(b));
             create_partitions_into(c, b, topic, 0, states);
             c.create(topic_config_path(topic), config_data, create_mode::persistent,
                      create_into(b));
             b->finish();
           });
}

void write_partition_states(coordinator& c, const std::vector<partition_state_write>& writes,
                            status_callback done) {
  auto b = std::make_shared<batch>();
  b->done = std::move(done);
  for (auto& w : writes) {
    auto path = partition_state_path(w.topic, w.partition);
    auto data = encode(w.state);
    if (w.expected_version == no_state_version) {
      c.create(path, data, create_mode::persistent, create_into(b));
    } else {
      auto slot = b->add();
      c.set(path, data, w.expected_version, [b, slot](result<node_stat> r) {
        b->finish(slot, r ? status{} : status{r.error()});
      });
    }
  }
  b->finish();
}

void publish_partition_addition(coordinator& c, const std::string& topic, const partition_addition& a,
                                int32_t expected_version, status_callback done) {
  if (a.new_states.empty() || a.assignment.partitions.size() != static_cast<size_t>(a.first) + a.new_states.size()) {
    done(errc::invalid_partitions);
    return;
  }
  auto states = a.new_states;
  auto first = a.first;
  c.set(topic_path(topic), encode(a.assignment), expected_version,
        [&c, topic, states, first, done](result<node_stat> r) {
          if (!r) {
            done(r.error()); // bad_version: changed meanwhile; no_node: deleted
            return;
          }
          auto b = std::make_shared<batch>();
          b->done = done;
          create_partitions_into(c, b, topic, first, states);
          b->finish();
        });
}

void write_decision(coordinator& c, const std::vector<partition_state_write>& states,
                    const std::vector<assignment_write>& assignments, status_callback done) {
  write_partition_states(c, states, [&c, assignments, done](status s) {
    if (!s || assignments.empty()) {
      done(s);
      return;
    }
    auto b = std::make_shared<batch>();
    b->done = done;
    for (auto& a : assignments) {
      auto slot = b->add();
      c.set(topic_path(a.topic), encode(a.assignment), a.expected_version,
            [b, slot](result<node_stat> r) { b->finish(slot, r ? status{} : status{r.error()}); });
    }
    b->finish();
  });
}

} // namespace cafka::cluster
