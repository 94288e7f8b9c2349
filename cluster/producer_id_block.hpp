#pragma once
// Blocks of producer ids, claimed through the coordinator so that InitProducerId never hands
// out the same id twice in the cluster, nor after a restart: Kafka's ZooKeeper mode
// (core/.../coordinator/transaction/ProducerIdManager.scala, ProducerIdBlockZNode in
// kafka/zk/ZkData.scala, AK 0.11 to 3.x). The znode holds the last block claimed by any broker,
// in Kafka's JSON, so a cafka cluster and Kafka brokers on one ZooKeeper would not collide:
//
//   /latest_producer_id_block   {"version":1,"broker":2,"block_start":"3000","block_end":"3999"}
//
// Bounds are inclusive; Kafka writes them as strings (JSON numbers would lose precision in
// readers that use doubles) and "version" and "broker" as numbers. This file is the pure part:
// the text and the choice of the next block. The claim itself is cluster/producer_id_claim.hpp.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/result.hpp"

namespace cafka::cluster {

/// The znode, relative to the coordinator's chroot like every znode path
/// (ProducerIdBlockZNode.path; kept here rather than in znode_paths.hpp, which lists the nodes
/// of docs/architecture.md).
inline constexpr const char* producer_id_block_path = "/latest_producer_id_block";

/// ProducerIdManager.PidBlockSize (ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE in AK 3.x).
inline constexpr int64_t producer_id_block_size = 1000;

/// Kafka's ProducerIdBlock: the ids start..end (both inclusive) claimed by `broker`.
struct producer_id_block {
  int32_t broker = 0;
  int64_t start = 0;
  int64_t end = 0;

  int64_t size() const noexcept { return end - start + 1; }

  friend bool operator==(const producer_id_block& a, const producer_id_block& b) {
    return a.broker == b.broker && a.start == b.start && a.end == b.end;
  }
  friend bool operator!=(const producer_id_block& a, const producer_id_block& b) { return !(a == b); }
};

/// Exactly what Kafka writes (generateProducerIdBlockJson): the four fields in this order, no
/// spaces.
std::string encode_producer_id_block(const producer_id_block& b);

/// Kafka's JSON as above (whitespace between tokens allowed, unknown keys with scalar values
/// ignored). malformed_data unless: version is the number 1, broker a number in 0..INT32_MAX,
/// block_start and block_end decimal strings with 0 <= start <= end <= INT64_MAX; anything
/// that is not a flat JSON object of strings, integers, true, false and null is malformed too.
/// Empty data is malformed here: the claim treats it as "no block yet" (see there).
result<producer_id_block> decode_producer_id_block(std::string_view text);

/// The block `broker` claims after `previous` (nullopt: no block was ever claimed):
/// 0..block_size-1 first, then previous.end+1 .. previous.end+block_size.
/// Errors: std::errc::value_too_large when the new end would pass INT64_MAX (Kafka: "Have
/// exhausted all producerIds."); std::errc::invalid_argument for block_size < 1.
result<producer_id_block> next_block(const std::optional<producer_id_block>& previous, int32_t broker,
                                     int64_t block_size = producer_id_block_size);

} // namespace cafka::cluster
