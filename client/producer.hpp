#pragma once
// The producer for plain threads (main, tools): a thread-safe facade over the producer
// actor (producer_actor.hpp, which explains batching, partitioning, retries and
// reconnects).
//
//   caf::actor_system_config cfg;
//   cafka::client::configure_client(cfg);
//   caf::actor_system sys{cfg};
//   cafka::client::producer p{sys, {/*bootstrap_servers=*/"127.0.0.1:9192"}};
//   auto offset = p.send_sync("topic", "key", "value");          // blocks
//   auto fut = p.send("topic", std::nullopt, "value");            // async: a future
//   p.send({"topic", "k", "v"}, [](caf::expected<record_metadata> md) { ... });
//   p.send(std::move(records),                                   // many at once
//          [](size_t i, const caf::expected<record_metadata>& md) { ... });
//   p.flush();                                                   // blocks
//   p.close();                                                   // blocks (also ~producer)
//
// Hand-over: send() puts records into a buffer shared with the producer actor
// (send_buffer.hpp) under a mutex; only a send that finds the buffer idle sends the actor
// a message, which then takes everything queued at once. So a burst of sends costs one
// message, and a lone record is taken as soon as the actor runs (no added delay). The
// bulk send() hands over a whole vector under one lock and reports through one callback
// (bulk_callback): the cheapest way to send many records.
//
// Threads: every member may be called from any number of threads at once. Records sent
// from one thread keep their order per partition. send() never blocks. send_sync(),
// flush(), close() and the destructor BLOCK and must not be called from an actor (nor
// from a send callback, which runs on the producer actor): use the producer actor
// directly there. Each blocking call is bounded: by delivery_timeout plus
// request_timeout (plus a margin), or by close()'s timeout.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <caf/expected.hpp>
#include <caf/fwd.hpp>

#include "actors/node_actor.hpp"
#include "client/producer_actor.hpp"
#include "client/producer_config.hpp"
#include "client/record_metadata.hpp"
#include "client/send_buffer.hpp"

namespace cafka::client {

class producer {
public:
  /// Starts a producer that connects to cfg.bootstrap_servers (asynchronously: the
  /// constructor does not block; the first records wait for the connection). Throws
  /// std::invalid_argument for an invalid config. `sys` must be configured with
  /// configure_client() and outlive the producer.
  producer(caf::actor_system& sys, producer_config cfg);

  /// Starts a producer that uses `node` (e.g. from connect()).
  producer(caf::actor_system& sys, node_actor node, producer_config cfg);

  /// close() with its default timeout.
  ~producer();

  producer(const producer&) = delete;
  producer& operator=(const producer&) = delete;

  using result_future = std::future<caf::expected<record_metadata>>;

  /// Hands a record over; the future is ready once it is acknowledged or failed. After
  /// close() it is ready at once with caf::sec::request_receiver_down.
  result_future send(producer_record rec);
  result_future send(std::string topic, std::optional<std::string> key, std::optional<std::string> value,
                     std::vector<protocol::record_header> headers = {},
                     std::optional<int64_t> timestamp = std::nullopt);

  /// Hands a record over; `done` is called exactly once (see send_callback: on the
  /// producer actor's thread; on the calling thread if the producer is already closed).
  void send(producer_record rec, send_callback done);

  /// Hands all of `recs` over at once (in order, as if sent one by one); `done(i, result)`
  /// is called exactly once per record i (see bulk_callback: on the producer actor's
  /// thread; on the calling thread if the producer is already closed). Never blocks.
  void send(std::vector<producer_record> recs, bulk_callback done);

  /// Sends and BLOCKS until the record is acknowledged: its offset, or its typed error.
  caf::expected<int64_t> send_sync(producer_record rec);
  caf::expected<int64_t> send_sync(std::string topic, std::optional<std::string> key,
                                   std::optional<std::string> value,
                                   std::vector<protocol::record_header> headers = {},
                                   std::optional<int64_t> timestamp = std::nullopt);

  /// BLOCKS until every record handed in before the call is acknowledged or failed (all
  /// batches are sent at once, ignoring linger). Returns an error only if the producer
  /// is closed or did not answer in time.
  caf::error flush();

  /// Flushes (waiting at most `timeout`), then stops the producer actor; records still
  /// not acknowledged fail with caf::sec::request_receiver_down. BLOCKS up to about
  /// 2 * timeout. Idempotent.
  void close(std::chrono::milliseconds timeout = std::chrono::seconds(30));

  /// Transactions (producer_config::transactional_id; producer_actor.hpp). Each BLOCKS until
  /// done (bounded by request_timeout / delivery_timeout) and returns the error if any:
  ///   p.init_transactions();                 // once
  ///   p.begin_transaction();
  ///   p.send(...); ...
  ///   p.send_offsets_to_transaction(offsets, "group");   // optional
  ///   p.commit_transaction();                // or abort_transaction()
  /// A commit that fails with an abortable error (a record failed) leaves the transaction to
  /// abort_transaction(); PRODUCER_FENCED / INVALID_PRODUCER_EPOCH are fatal (close it).
  caf::error init_transactions();
  caf::error begin_transaction();
  caf::error send_offsets_to_transaction(std::vector<group_offset> offsets, const std::string& group_id);
  caf::error commit_transaction();
  caf::error abort_transaction();

  /// The producer actor (for actors that want to send to it directly).
  producer_actor actor() const { return actor_; }

private:
  /// A transactional request to the actor, BLOCKING up to `timeout` (closed: refused at once).
  template <class... Ts>
  caf::error ask_transaction(std::chrono::milliseconds timeout, Ts&&... xs);

  caf::actor_system& sys_;
  producer_config cfg_;
  std::shared_ptr<send_buffer> buffer_;
  producer_actor actor_;
  std::atomic<bool> closed_{false};
};

} // namespace cafka::client
