#pragma once
// producer_id_pool: the producer ids one broker hands out (InitProducerId), from blocks claimed
// through the coordinator (producer_id_claim.hpp) — Kafka's ProducerIdManager.generateProducerId,
// made asynchronous, with the prefetch of AK 3.x's RPCProducerIdManager: once fewer than
// `prefetch_below` ids are left in the current block, the next block is claimed in the
// background, so that a request rarely waits for the coordinator.
//
// Ids come out strictly increasing, in the order next() takes them (each new block lies above
// every earlier one, as the znode only grows), and are unique in the cluster as long as every
// broker claims through the same znode. Ids left in a block when the broker stops are never
// used (Kafka does the same).
//
// next() answers at once from the current block, else queues the caller until a claim
// completes; a failed claim fails every queued caller with its error (the handler answers an
// error, the client retries) and the next call claims again. Callbacks run without the pool's
// lock held, on the calling thread or on the thread that completes a claim (the coordinator's):
// like coordinator callbacks they must be cheap and must not block. Destroying the pool drops
// queued callers uncalled; a claim still in flight then completes into nothing.
//
// Thread-safe: one mutex guards the state; it is never held while calling `claim` or a caller.

#include <cstdint>
#include <functional>
#include <memory>

#include "cluster/producer_id_block.hpp"

namespace cafka::cluster {

class producer_id_pool {
public:
  using id_callback = std::function<void(result<int64_t>)>;
  /// Claims one block and reports it once: producer_id_claimer(coordinator, broker id), or a
  /// fake in tests. Called without the pool's lock; may complete before it returns.
  using claim_function = std::function<void(std::function<void(result<producer_id_block>)>)>;

  /// Claims when fewer than `prefetch_below` ids are left (0: only when a caller has to wait).
  explicit producer_id_pool(claim_function claim,
                            int64_t prefetch_below = producer_id_block_size / 10);
  ~producer_id_pool();
  producer_id_pool(const producer_id_pool&) = delete;
  producer_id_pool& operator=(const producer_id_pool&) = delete;

  /// The next id, to `done` (exactly once unless the pool is destroyed first).
  void next(id_callback done);

private:
  struct state;
  std::shared_ptr<state> state_; // shared with the claims in flight, which hold it weakly
};

} // namespace cafka::cluster
