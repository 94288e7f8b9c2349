#pragma once
// Bugs a test plants on purpose, to show that the simulation's invariants find them (issue
// 17: "planted bugs are found"). Process-wide; nothing but tests ever plants one, and with
// none planted (the default) every check below is one relaxed atomic load per batch or
// transaction.
//
//   append_duplicates        a partition leader appends an idempotent producer's retried
//                            batch again instead of answering it as a duplicate
//                            (storage/producer_state.cpp);
//   marker_to_one_partition  a transaction coordinator writes the end marker to the first
//                            partition of a transaction only, and completes it
//                            (actors/txn_coordinator.cpp).

#include <cstdint>

namespace cafka::testing {

enum class planted_bug : uint8_t { none, append_duplicates, marker_to_one_partition };

planted_bug current_planted_bug() noexcept;

/// Plants `bug` (none removes it). For tests only.
void plant_bug(planted_bug bug) noexcept;

} // namespace cafka::testing
