#pragma once
// Which partition a record goes to: Kafka's default partitioner, bit for bit.
//
// A record with a key goes to toPositive(murmur2(key)) % partitions, exactly as Java's
// org.apache.kafka.clients.producer.internals.BuiltInPartitioner, so that cafka and
// Kafka clients put the same key on the same partition. A record without a key is
// "sticky" (KIP-480): all null-key records of a topic go to one randomly chosen
// partition until the batch being filled for it is closed (full, or sent after
// linger.ms); then another partition is chosen.
//
// Pure logic: no actors, no clocks. Not thread-safe (one per producer actor).

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <string_view>

namespace cafka::client {

/// Kafka's Utils.murmur2: MurmurHash2, seed 0x9747b28c, the 32-bit result read as a
/// Java int (so it may be negative).
int32_t murmur2(std::string_view data) noexcept;

/// Kafka's Utils.toPositive: clears the sign bit (not abs()).
inline int32_t to_positive(int32_t x) noexcept {
  return static_cast<int32_t>(static_cast<uint32_t>(x) & 0x7fffffffu);
}

/// The partition of a record with key `key` in a topic of `partitions` (> 0) partitions.
int32_t partition_for_key(std::string_view key, int32_t partitions) noexcept;

/// The sticky choice for records without a key, per topic.
class sticky_partitioner {
public:
  explicit sticky_partitioner(uint64_t seed = std::random_device{}());

  /// The current sticky partition of `topic` (chosen at random on first use, or when the
  /// partition count changed). Precondition: partitions > 0.
  int32_t partition(const std::string& topic, int32_t partitions);

  /// The batch that `previous` was filling for `topic` was closed: choose another
  /// partition (a different one when there are at least two) if `previous` is still
  /// the current choice; otherwise nothing changes.
  void on_new_batch(const std::string& topic, int32_t previous, int32_t partitions);

private:
  int32_t pick(int32_t partitions, int32_t avoid);

  struct choice {
    int32_t partition = 0;
    int32_t partitions = 0;
  };
  std::map<std::string, choice> current_;
  std::mt19937_64 rng_;
};

} // namespace cafka::client
