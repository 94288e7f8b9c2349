#pragma once
// The producer id issuer: one per broker, it hands out the producer ids of InitProducerId
// from blocks claimed through the coordinator (cluster/producer_id_pool.hpp), so that ids are
// unique in the cluster and across restarts. A ZooKeeper cluster keeps the last block in
// /latest_producer_id_block; a single node's embedded store lives in memory, so there each
// block is also written to a file in the first log dir before its ids are used, and that file
// seeds the znode at the next start.

#include <functional>
#include <memory>
#include <string>

#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include "cluster/producer_id_pool.hpp"

namespace cafka {

namespace cluster {
class coordinator;
}

/// (next_producer_id_atom) -> int64_t, or the claim's error as a caf::error.
using next_producer_id_atom = caf::atom_constant<caf::atom("nextpid")>;

caf::actor spawn_producer_id_issuer(caf::actor_system& sys, cluster::producer_id_pool::claim_function claim);

/// A single node's block file ("<first log dir>/cafka-producer-id-block"), in the znode's JSON.
std::string producer_id_block_file(const std::string& log_dir);

/// Start-up (blocking): copies the block file, when there is one, into `c`'s
/// /latest_producer_id_block. A file that does not parse is an error (naming the file), as
/// handing out ids again from 0 could repeat ids of the last run.
status seed_producer_id_block(cluster::coordinator& c, const std::string& file);

/// `claim` whose blocks are written to `file` (atomically, fsynced, on `io_worker`) before they
/// are reported; a failed write reports its error instead.
cluster::producer_id_pool::claim_function persisted_claims(cluster::producer_id_pool::claim_function claim,
                                                           std::string file, caf::actor io_worker);

} // namespace cafka
