// cafka-example-word-count: a consumer written as an actor, counting words in real time.
//
// One stateful actor is subscribed to every partition of --topic (from the latest offset,
// or from the earliest with --from-beginning). Each subscription delivers whole fetch
// results (consumer_records) to it as requests, one at a time, so the actor is never
// flooded and its state (the counts) needs no locks. Every second it prints the five
// most frequent words. It stops after --max-records records or when no record arrived
// for --idle-ms milliseconds (0: never; stop it with Ctrl-C), and then prints every
// word with its count, most frequent first.
//
//   cafka-example-word-count --bootstrap-server=127.0.0.1:9192 --topic=lines --from-beginning

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/subscription.hpp"

using namespace cafka;
using namespace std::chrono;

struct config : caf::actor_system_config {
  std::string bootstrap = "127.0.0.1:9192";
  std::string topic = "lines";
  bool from_beginning = false;
  size_t max_records = 0; // 0: no limit
  size_t idle_ms = 0;     // 0: wait forever
  config() {
    opt_group{custom_options_, "global"}
      .add(bootstrap, "bootstrap-server", "host:port of the node's caf.port")
      .add(topic, "topic", "the topic to count")
      .add(from_beginning, "from-beginning", "count what is there already, too")
      .add(max_records, "max-records", "stop after this many records (0: no limit)")
      .add(idle_ms, "idle-ms", "stop when no record arrived for this long (0: never)");
  }
};

struct counter_state {
  std::map<std::string, size_t> counts;
  size_t records = 0;
  size_t reported = 0; // records at the last report
  steady_clock::time_point last_record = steady_clock::now();
};

// "word count" lines, most frequent first (then alphabetically); all, or the top `n`.
void print_counts(const counter_state& st, size_t n) {
  std::vector<std::pair<std::string, size_t>> sorted(st.counts.begin(), st.counts.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.second > b.second; });
  sorted.resize(std::min(n, sorted.size()));
  for (auto& [word, count] : sorted)
    std::printf("%s %zu\n", word.c_str(), count);
  std::fflush(stdout);
}

caf::behavior word_counter(caf::stateful_actor<counter_state>* self, node_actor node, std::string topic,
                           client::start_position start, size_t max_records, size_t idle_ms) {
  // Which partitions there are (a request that never blocks), then one subscription each.
  self->request(node, seconds(10), describe_atom_v, topic)
    .then(
      [=](topic_description& d) {
        for (auto& p : d.partitions)
          client::subscribe(self->system(), node, caf::actor_cast<caf::actor>(self), p.tp, start);
      },
      [=](caf::error& err) {
        std::fprintf(stderr, "topic '%s': %s\n", topic.c_str(), describe(err).c_str());
        self->quit(err);
      });
  auto finish = [self] {
    std::printf("final counts after %zu records:\n", self->state.records);
    print_counts(self->state, SIZE_MAX);
    self->quit(); // the subscriptions monitor us and stop, too
  };
  self->delayed_send(self, seconds(1), caf::tick_atom_v);
  return {
    [=](client::consumer_records& batch) { // one fetch result of one partition
      for (auto& rec : client::records(batch)) {
        std::istringstream words{rec.value.value_or("")};
        for (std::string word; words >> word;)
          ++self->state.counts[word];
        if (++self->state.records == max_records)
          return finish();
      }
      self->state.last_record = steady_clock::now();
    },
    [=](client::consumer_error& e) { // the subscription has stopped
      std::fprintf(stderr, "partition %d: %s\n", e.tp.partition, describe(e.error).c_str());
      self->quit(e.error);
    },
    [=](caf::tick_atom) { // once a second: report, or give up when idle
      if (idle_ms > 0 && steady_clock::now() - self->state.last_record > milliseconds(idle_ms))
        return finish();
      if (self->state.records != self->state.reported) {
        self->state.reported = self->state.records;
        std::printf("-- top words after %zu records:\n", self->state.records);
        print_counts(self->state, 5);
      }
      self->delayed_send(self, seconds(1), caf::tick_atom_v);
    },
  };
}

int main(int argc, char** argv) {
  config cfg;
  client::configure_client(cfg);
  if (auto err = cfg.parse(argc, argv)) {
    std::fprintf(stderr, "bad arguments: %s\n", caf::to_string(err).c_str());
    return 2;
  }
  if (cfg.cli_helptext_printed)
    return 0;
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, cfg.bootstrap, seconds(5));
  if (!node) {
    std::fprintf(stderr, "cannot reach %s: %s\n", cfg.bootstrap.c_str(), describe(node.error()).c_str());
    return 1;
  }
  auto start = cfg.from_beginning ? client::start_position::earliest() : client::start_position::latest();
  auto counter = sys.spawn(word_counter, *node, cfg.topic, start, cfg.max_records, cfg.idle_ms);
  // Wait until the counter is done; its exit reason says whether it failed.
  caf::scoped_actor self{sys};
  self->monitor(counter);
  int rc = 0;
  self->receive([&](caf::down_msg& dm) { rc = dm.reason == caf::exit_reason::normal ? 0 : 1; });
  return rc;
}
