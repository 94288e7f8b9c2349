#pragma once
// The application's consumer: counts the records it is handed per key. Nothing in it knows
// whether the brokers are real processes or simulated ones.
#include <map>
#include <memory>
#include <string>

#include <caf/fwd.hpp>

using key_counts = std::map<std::string, int>;

/// Spawns the counter; `counts` is updated as records arrive.
caf::actor spawn_key_counter(caf::actor_system& sys, std::shared_ptr<key_counts> counts);
