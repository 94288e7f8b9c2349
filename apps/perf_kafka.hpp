#pragma once
// librdkafka plumbing for cafka-perf: owned handles, configurations built from key/value
// maps, librdkafka's in-process mock cluster, topic creation and partition discovery.
// Uses librdkafka's C API only (no CAF): the tool measures a broker through a real client.

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

namespace cafka::perf {

/// librdkafka configuration properties, e.g. {"linger.ms", "5"}.
using properties = std::map<std::string, std::string>;

struct client_deleter {
  void operator()(rd_kafka_t* rk) const { rd_kafka_destroy(rk); }
};
using client = std::unique_ptr<rd_kafka_t, client_deleter>;

struct topic_deleter {
  void operator()(rd_kafka_topic_t* rkt) const { rd_kafka_topic_destroy(rkt); }
};
using topic_handle = std::unique_ptr<rd_kafka_topic_t, topic_deleter>;

struct queue_deleter {
  void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
using queue = std::unique_ptr<rd_kafka_queue_t, queue_deleter>;

struct message_deleter {
  void operator()(rd_kafka_message_t* m) const { rd_kafka_message_destroy(m); }
};
using message = std::unique_ptr<rd_kafka_message_t, message_deleter>;

/// A configuration holding `props`. The properties come from the command line, so a
/// key or value librdkafka rejects throws tools::usage_error.
rd_kafka_conf_t* make_conf(const properties& props);

/// A producer or consumer; takes ownership of `conf`. Throws std::runtime_error.
client make_client(rd_kafka_type_t type, rd_kafka_conf_t* conf);

/// The delivery reports of one producer, counted by the thread that polls it.
struct delivery_counts {
  int64_t expected = 0; ///< reports still to come plus those seen; the last one stops the clock
  int64_t reports = 0;
  int64_t failed = 0;
  int64_t delivered_bytes = 0;
  std::string first_error;
  std::chrono::steady_clock::time_point last_report{};

  /// Books a record that failed without a report (librdkafka refused it outright).
  void refused(rd_kafka_resp_err_t err);
};

/// A producer configured with `props` whose delivery reports go to `counts`.
client make_producer(const properties& props, delivery_counts& counts);

/// librdkafka's mock cluster with one broker, running in this process. It needs a client
/// to live in (`test.mock.num.brokers=1`); real clients then reach it over TCP on
/// localhost, so it measures what librdkafka itself can do on this machine.
class mock_cluster {
public:
  mock_cluster();
  std::string bootstrap() const;
  /// The mock broker does not implement CreateTopics: create topics directly.
  void create_topic(const std::string& topic, int partitions);

private:
  client owner_;
  rd_kafka_mock_cluster_t* cluster_ = nullptr;
};

/// The broker under test: a bootstrap list, and the mock cluster behind it if any.
struct target {
  std::string label;
  std::string bootstrap;
  mock_cluster* mock = nullptr;
};

/// How a topic is created: partitions, replication factor (the mock: 1) and topic configs.
struct topic_layout {
  int partitions = 1;
  int replication_factor = 1;
  properties configs;
};

/// Creates `topic` as `layout` says: the Admin API for a real broker, directly for the
/// mock. A topic that already exists is fine, and so is a failed creation if the topic
/// exists anyway (says so on stderr). Returns the partition count the topic has. Throws
/// std::runtime_error.
size_t create_topic(const target& t, const std::string& topic, const topic_layout& layout,
                    std::chrono::milliseconds timeout);

/// The partition ids of `topic`, waiting up to `timeout` for the metadata to show it
/// (a new topic takes a moment to appear). Throws std::runtime_error.
std::vector<int32_t> partitions_of(rd_kafka_t* rk, const std::string& topic, std::chrono::milliseconds timeout);

/// One partition's offsets: records live in [low, high).
struct watermarks {
  int32_t partition = 0;
  int64_t low = 0;
  int64_t high = 0;
};

/// The low and high watermarks of each of `partitions`. Throws std::runtime_error.
std::vector<watermarks> query_watermarks(rd_kafka_t* rk, const std::string& topic,
                                         const std::vector<int32_t>& partitions, std::chrono::milliseconds timeout);

/// A consumer without a group reading some partitions into one queue. It uses
/// librdkafka's simple consumer API (consume_start), since rd_kafka_assign() wants a
/// group.id in librdkafka 2.0.2, and a group would make the broker under test serve a
/// coordinator too. The client `rk` must outlive the reader.
class partition_reader {
public:
  /// Starts each partition of `marks` at its high watermark if `from_end`, else at its
  /// low one. Throws std::runtime_error.
  partition_reader(rd_kafka_t* rk, const std::string& topic, const std::vector<watermarks>& marks, bool from_end);
  ~partition_reader();
  partition_reader(const partition_reader&) = delete;
  partition_reader& operator=(const partition_reader&) = delete;

  /// The next record (or error), or null after `timeout_ms` without one.
  message poll(int timeout_ms);
  /// Up to `max` records (or errors) at once, appended to `out`: what is there, or
  /// else the first to arrive within `timeout_ms`.
  /// Cheaper per record than poll(), which matters when the client is the bottleneck.
  void poll_batch(int timeout_ms, size_t max, std::vector<message>& out);

private:
  topic_handle topic_;
  queue queue_;
  std::vector<int32_t> started_;
};

} // namespace cafka::perf
