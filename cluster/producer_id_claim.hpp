#pragma once
// Claiming the next block of producer ids through the coordinator, as Kafka's ZooKeeper mode
// does (ProducerIdManager.getNewProducerIdBlock): read /latest_producer_id_block with its
// version, compute the block after it (producer_id_block.hpp), write it conditionally on that
// version. Whoever loses a race reads again, so every block is claimed by exactly one broker.
//
//   node missing        -> create it with the first block 0..999; node_exists (another broker
//                          created it first) -> read again
//   node with no data   -> the first block, set conditionally (Kafka 2.x brokers create the node
//                          empty at startup: KafkaZkClient.createTopLevelPaths)
//   node with a block   -> the next block, set conditionally; bad_version -> read again; no_node
//                          (deleted in between) -> read again
//
// Kafka retries forever; this gives up after `max_attempts` reads and reports the last conflict
// (bad_version or node_exists). Each lost race means another claim won, so n brokers claiming
// at once need at most n attempts. Other errors go to `done` at once: malformed_data (the node
// holds something else; it is not overwritten), value_too_large (ids exhausted), connection_loss
// (outcome unknown: the block may have been written, and is then never used — a gap of up to a
// block, never a duplicate; Kafka instead re-reads and recognises its own write), session errors.
//
// `done` is called once, following coordinator.hpp's callback contract (possibly on the
// coordinator's thread, possibly before this returns), unless the session is closed first;
// `c` must stay alive until then.

#include <cstdint>
#include <functional>
#include <memory>

#include "cluster/coordinator.hpp"
#include "cluster/producer_id_block.hpp"

namespace cafka::cluster {

using producer_id_block_callback = std::function<void(result<producer_id_block>)>;

inline constexpr int producer_id_claim_attempts = 10;

void claim_producer_id_block(coordinator& c, int32_t broker_id, producer_id_block_callback done,
                             int64_t block_size = producer_id_block_size,
                             int max_attempts = producer_id_claim_attempts);

/// The claim function of a producer_id_pool (producer_id_pool.hpp): claims on `c` while it
/// lives (typically the node's renewing_session, so that claims survive session expiries),
/// `closed` once it is gone. Weak so that the pool never keeps the coordinator alive: a
/// coordinator must not be destroyed from one of its own callbacks.
std::function<void(producer_id_block_callback)>
producer_id_claimer(std::weak_ptr<coordinator> c, int32_t broker_id,
                    int64_t block_size = producer_id_block_size);

} // namespace cafka::cluster
