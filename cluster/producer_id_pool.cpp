#include "cluster/producer_id_pool.hpp"

#include <deque>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace cafka::cluster {

struct producer_id_pool::state : std::enable_shared_from_this<state> {
  state(claim_function c, int64_t p) : claim(std::move(c)), prefetch_below(p) {}

  const claim_function claim;
  const int64_t prefetch_below;

  std::mutex mutex;
  int64_t next_id = 0;   // the next id of the current block, if remaining > 0
  int64_t remaining = 0; // ids left in the current block (a count: end + 1 may overflow)
  std::optional<producer_id_block> spare; // claimed ahead, above the current block
  bool claiming = false;                  // at most one claim at a time keeps blocks in order
  std::deque<id_callback> waiters;        // non-empty only while claiming

  // -- under the lock --

  std::optional<int64_t> take() {
    if (remaining == 0 && spare) {
      next_id = spare->start;
      remaining = spare->size();
      spare.reset();
    }
    if (remaining == 0)
      return std::nullopt;
    auto id = next_id;
    if (--remaining > 0)
      ++next_id;
    return id;
  }

  // Whether to start a claim now; marks it started.
  bool begin_claim() {
    if (claiming || spare || (remaining >= prefetch_below && waiters.empty()))
      return false;
    return claiming = true;
  }

  // -- without the lock --

  void run_claim() {
    claim([weak = weak_from_this()](result<producer_id_block> r) {
      if (auto self = weak.lock())
        self->claimed(std::move(r));
    });
  }

  void next(id_callback done) {
    std::optional<int64_t> id;
    bool start;
    {
      std::lock_guard<std::mutex> guard{mutex};
      if (waiters.empty()) // else they come first
        id = take();
      if (!id)
        waiters.push_back(std::move(done));
      start = begin_claim();
    }
    if (id && done)
      done(*id);
    if (start)
      run_claim();
  }

  void claimed(result<producer_id_block> r) {
    std::vector<std::pair<id_callback, result<int64_t>>> ready;
    bool start = false;
    {
      std::lock_guard<std::mutex> guard{mutex};
      claiming = false;
      if (r) {
        spare = *r; // taken once the current block is used up
        while (!waiters.empty()) {
          auto id = take();
          if (!id)
            break;
          ready.emplace_back(std::move(waiters.front()), *id);
          waiters.pop_front();
        }
        start = begin_claim(); // more waiters than ids, or already below prefetch_below
      } else {
        // Everyone waiting learns the error; no claim again until the next call, so a failing
        // coordinator is not asked in a loop.
        for (auto& w : waiters)
          ready.emplace_back(std::move(w), r.error());
        waiters.clear();
      }
    }
    for (auto& [done, id] : ready)
      if (done)
        done(std::move(id));
    if (start)
      run_claim();
  }
};

producer_id_pool::producer_id_pool(claim_function claim, int64_t prefetch_below)
  : state_(std::make_shared<state>(std::move(claim), prefetch_below)) {}

producer_id_pool::~producer_id_pool() = default;

void producer_id_pool::next(id_callback done) {
  state_->next(std::move(done));
}

} // namespace cafka::cluster
