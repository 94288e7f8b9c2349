#pragma once
// The broker's own topics: __consumer_offsets (committed offsets, cluster/offset_records.hpp)
// and __transaction_state (transaction coordinators' state, cluster/txn_log.hpp). Brokers
// create them on first need; clients can neither create nor produce to them, and they are
// not listed in Metadata.
//
// __transaction_state is kept by time retention at transactional.id.expiration.ms instead of
// compaction (documented choice until log compaction exists, docs/transactions.md): every
// change of a transactional id writes its whole state again, so a segment whose newest record
// is older than the expiration holds only states of ids the coordinator has expired anyway.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace cafka::cluster {

bool is_internal_topic(std::string_view name) noexcept;

/// The topic configs __transaction_state is created with, as Kafka's: compacted (an expired
/// id's tombstone, then compaction, removes it), the segment size, min.insync.replicas at
/// most `replicas`, no unclean election.
std::map<std::string, std::string> txn_topic_configs(int32_t replicas, int32_t min_isr, int32_t segment_bytes);

} // namespace cafka::cluster
