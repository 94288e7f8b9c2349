#include "key_counter.hpp"

#include <cstdio>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/consumer_records.hpp"
#include "client/subscription.hpp"

namespace {

caf::behavior key_counter(caf::event_based_actor*, std::shared_ptr<key_counts> counts) {
  return {
    [=](cafka::client::consumer_records& batch) {
      for (auto& rec : cafka::client::records(batch))
        ++(*counts)[rec.key.value_or("")];
    },
    [=](cafka::client::consumer_error& e) {
      std::fprintf(stderr, "consumer error: %s\n", cafka::describe(e.error).c_str());
    },
  };
}

} // namespace

caf::actor spawn_key_counter(caf::actor_system& sys, std::shared_ptr<key_counts> counts) {
  return sys.spawn(key_counter, std::move(counts));
}
