#pragma once
// Which partition of __consumer_offsets holds a group's committed offsets, by Kafka's rule
// (GroupMetadataManager.partitionFor): Utils.abs(groupId.hashCode()) % partitions.
//
// groupId.hashCode() is Java's String.hashCode: h = 31 * h + c over the UTF-16 code units of
// the string, in 32-bit two's-complement arithmetic (a character outside the BMP counts as
// its two surrogates). Utils.abs maps INT_MIN, which has no positive counterpart, to 0. The
// same group must land on the same partition as on a Kafka cluster with the same
// offsets.topic.num.partitions, so the coordinator a client is told about is the one that
// holds the group's offsets.

#include <cstdint>
#include <string_view>

namespace cafka::cluster {

/// Java's String.hashCode of the string whose UTF-8 bytes are `utf8`. Bytes that are not
/// valid UTF-8 count as U+FFFD, one per maximal invalid subsequence, as Java's decoder
/// (new String(bytes, UTF_8)) replaces them.
int32_t java_string_hash_code(std::string_view utf8) noexcept;

/// Kafka's Utils.abs: |n|, except that INT_MIN maps to 0.
int32_t kafka_abs(int32_t n) noexcept;

/// The partition of __consumer_offsets for `group`, in [0, partitions).
/// Precondition: partitions >= 1 (offsets.topic.num.partitions is validated so).
int32_t offsets_partition_for(std::string_view group, int32_t partitions) noexcept;

} // namespace cafka::cluster
