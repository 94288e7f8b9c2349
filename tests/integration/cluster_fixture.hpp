#pragma once
// A cafka cluster of real processes for the cluster tests: one real ZooKeeper server
// (tests/support/zookeeper_server) and cafka-server processes with broker.id 1..N, each with
// zookeeper.connect=127.0.0.1:PORT/cafka (a chroot), its own log dir and free ports. A broker
// can be killed (SIGKILL) and started again with the same broker.id and log dir (it gets new
// free ports; clients learn them from Metadata). Everything is stopped by PID at destruction.
//
// Metadata is read with librdkafka's C API through one broker's address (a fresh handle per
// call, so nothing is cached between calls). Every wait is a bounded poll; none asserts on time.

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"
#include "tests/support/zookeeper_server.hpp"

namespace cafka::test {

/// What one Metadata request (all topics) answered.
struct cluster_metadata_view {
  struct partition {
    int32_t leader = -1;
    int error = 0; ///< Kafka error code (5 = LEADER_NOT_AVAILABLE)
    std::vector<int32_t> replicas;
    std::vector<int32_t> isr;
  };
  std::string error; ///< non-empty if the request failed
  int32_t controller = -1;
  std::set<int32_t> brokers;
  std::map<std::string, std::map<int32_t, partition>> topics;

  bool ok() const { return error.empty(); }
  /// Partitions of `topic` per leader (-1 for those without one).
  std::map<int32_t, int> leader_counts(const std::string& topic) const;
  /// Partitions of `topic` led by `broker`.
  std::vector<int32_t> led_by(const std::string& topic, int32_t broker) const;
  /// Whether every partition of `topic` (at least `partitions` of them) has a leader and no error.
  bool all_led(const std::string& topic, size_t partitions) const;
};

/// Metadata for all topics through `bootstrap` ("host:port") only.
cluster_metadata_view read_metadata(const std::string& bootstrap,
                                    std::chrono::milliseconds limit = std::chrono::seconds(15));

/// Polls `done` every 200 ms for at most `limit`; true if it became true.
bool poll_until(const std::function<bool()>& done, std::chrono::milliseconds limit);

class cluster_fixture {
public:
  /// ZooKeeper and brokers 1..`brokers` with zookeeper.session.timeout.ms = `session_timeout_ms`
  /// and the `extra` overrides ("key=value") at every start.
  explicit cluster_fixture(int brokers = 3, int session_timeout_ms = 6000, std::vector<std::string> extra = {});
  ~cluster_fixture();
  cluster_fixture(const cluster_fixture&) = delete;
  cluster_fixture& operator=(const cluster_fixture&) = delete;

  zookeeper_server& zookeeper() { return zk_; }
  /// zookeeper.connect of the brokers (with the chroot).
  std::string connect() const { return zk_.hosts() + "/cafka"; }
  int session_timeout_ms() const noexcept { return session_timeout_ms_; }

  /// Starts broker `id` (again: same log dir); throws if it does not come up. With
  /// `same_ports`, a broker that ran before listens on the ports it had (as brokers with
  /// fixed ports do; clients reconnect without learning a new address), else on free ones.
  server_process& start(int32_t id, bool same_ports = false);
  /// kill -9 of broker `id`.
  void kill(int32_t id);
  /// SIGTERM to broker `id` and wait (a clean shutdown); its exit status.
  int stop(int32_t id);
  /// Broker `id`'s log.dirs (kept across restarts).
  std::string log_dir(int32_t id) const;
  /// Removes broker `id`'s log dir and everything in it (the broker must not run).
  void wipe(int32_t id);
  bool running(int32_t id) const;
  server_process& broker(int32_t id);
  std::vector<int32_t> running_ids() const;

  /// The Kafka listener ("127.0.0.1:port") and the caf.port address of a running broker.
  std::string bootstrap(int32_t id) { return broker(id).bootstrap(); }
  std::string caf_address(int32_t id) { return "127.0.0.1:" + std::to_string(broker(id).caf_port()); }

  /// Waits (bounded) until Metadata through `via` lists exactly `ids` as live brokers.
  bool wait_for_brokers(int32_t via, const std::set<int32_t>& ids, std::chrono::milliseconds limit);
  /// cafka-topics --create through broker `via`'s Kafka listener; the tool's result.
  run_result create_topic(int32_t via, const std::string& topic, int partitions);
  /// The same with a replication factor and topic configs ("key=value", one --config each).
  run_result create_topic(int32_t via, const std::string& topic, int partitions, int replication_factor,
                          const std::vector<std::string>& configs);
  /// Every broker's output so far, for failure messages.
  std::string outputs();
  /// Everything broker `id` printed, its earlier processes (before restarts) included.
  std::string history(int32_t id);

private:
  scratch_dir dir_;
  zookeeper_server zk_;
  int session_timeout_ms_;
  std::vector<std::string> extra_;
  std::map<int32_t, std::unique_ptr<server_process>> brokers_;
  std::map<int32_t, std::string> earlier_; ///< output of broker processes that were replaced
  std::map<int32_t, std::pair<uint16_t, uint16_t>> ports_; ///< the last (Kafka, caf) ports of each broker
};

} // namespace cafka::test
