#include "storage/planted_bugs.hpp"

#include <atomic>

namespace cafka::testing {

namespace {

std::atomic<planted_bug> planted{planted_bug::none};

} // namespace

planted_bug current_planted_bug() noexcept {
  return planted.load(std::memory_order_relaxed);
}

void plant_bug(planted_bug bug) noexcept {
  planted.store(bug, std::memory_order_relaxed);
}

} // namespace cafka::testing
