#pragma once
// The producer's settings, named after Kafka's producer configs.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include <caf/error.hpp>

#include "client/retry.hpp"
#include "protocol/batch_header.hpp"

namespace cafka::client {

struct producer_config {
  /// bootstrap.servers: "host:port[,host:port...]" of the node's caf.port. Needed unless
  /// the producer is given a node actor; then it is only where to reconnect to.
  std::string bootstrap_servers;
  /// batch.size: a partition's batch is sent once it holds this many bytes (estimated).
  size_t batch_size = 16384;
  /// linger.ms: ... or once its first record is this old.
  std::chrono::milliseconds linger{5};
  /// acks: -1 (all, the default as in Kafka 3.0+) = once every in-sync replica has it,
  /// refused with NOT_ENOUGH_REPLICAS (retried) while fewer than min.insync.replicas are in
  /// sync; 1 = the leader answers once the batch is in its operating system (the record
  /// gets its offset); 0 = nobody waits for an answer (offset -1, no retries).
  int16_t acks = -1;
  /// compression.type: none, gzip, snappy, lz4 or zstd (Kafka's formats, protocol/compression.hpp).
  protocol::compression_codec compression = protocol::compression_codec::none;
  /// retries: how often a batch is sent again after a retriable error (retry.hpp).
  int retries = 5;
  /// retry.backoff.ms / retry.backoff.max.ms.
  backoff_policy retry_backoff{std::chrono::milliseconds(100), std::chrono::milliseconds(1000)};
  /// request.timeout.ms: one produce or metadata request.
  std::chrono::milliseconds request_timeout{30000};
  /// delivery.timeout.ms: a record fails with request_timed_out if it is not acknowledged
  /// this long after send() (waiting for metadata, a connection, retries included).
  std::chrono::milliseconds delivery_timeout{120000};
  /// max.in.flight.requests.per.connection, per partition. 1 keeps each partition's order
  /// even across retries; more may reorder a partition after a retry.
  size_t max_in_flight = 1;
  /// max.request.size: a single record larger than this fails at once (message_too_large).
  size_t max_request_size = 1048576;
  /// buffer.memory: how many bytes of records (their estimated encoded size) the producer
  /// actor holds at most, accumulated or unacknowledged. Beyond it, records handed to the
  /// producer class wait in its hand-over buffer until acknowledgements free room
  /// (send() still never blocks: that buffer is not bounded), and their delivery_timeout
  /// counts from send(). Records sent to the actor in messages are always taken.
  size_t buffer_memory = 32u << 20;
  /// enable.idempotence: the producer gets a producer id (InitProducerId) and numbers its
  /// batches per partition, so the leader drops a retried batch it already has and the
  /// partition keeps the producer's order (up to 5 in flight). Unset (the default): on unless
  /// the settings conflict with it (acks other than -1, max_in_flight above 5, retries 0),
  /// as Kafka 3.2+ decides; true with such settings is a config error.
  std::optional<bool> enable_idempotence;
  /// transactional.id: a transactional producer (implies idempotence): init_transactions()
  /// before anything is sent, then every record is sent inside begin/commit or abort.
  std::string transactional_id;
  /// transaction.timeout.ms: the coordinator aborts a transaction open longer.
  std::chrono::milliseconds transaction_timeout{60000};
  /// Whether metadata requests may create unknown topics (the broker's
  /// auto.create.topics.enable decides too).
  bool allow_auto_create_topics = true;
  /// One connection attempt.
  std::chrono::milliseconds connect_timeout{5000};
  /// Seed of the sticky partitioner's random choice; 0 = random.
  uint64_t partitioner_seed = 0;
  /// Where the timestamp of a record sent without one comes from: milliseconds since the
  /// epoch. Empty (the default): the system clock. A simulation sets its simulated epoch
  /// time here so that two runs with one seed produce the same records. Called on the
  /// producer actor. (Not a Kafka config; not read from configuration files.)
  std::function<int64_t()> now_ms;
};

/// Whether a producer with `cfg` (valid) is idempotent.
bool idempotent(const producer_config& cfg);

/// The first problem with `cfg` (caf::sec::invalid_argument, with the setting named), or
/// none. `need_bootstrap`: bootstrap_servers must be given (and parse).
caf::error validate(const producer_config& cfg, bool need_bootstrap);

} // namespace cafka::client
