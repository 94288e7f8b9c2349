#pragma once
// Everything a node keeps on disk: its log.dirs (locked), the topic registry and the
// open partition logs. Opened in the main thread before any actor runs (recovery
// blocks), shared with the node actor while it runs, and closed in the main thread
// after the node actor stopped (actors/node.hpp).

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/dynamic_broker_config.hpp"
#include "config/server_config.hpp"
#include "protocol/result.hpp"
#include "storage/log_directory.hpp"
#include "storage/partition_log.hpp"
#include "storage/topic_registry.hpp"

namespace cafka {

struct node_storage {
  struct open_partition {
    std::shared_ptr<storage::partition_log> log;
    size_t dir = 0; ///< index into dirs
  };

  config::server_config config;
  /// The broker configs changed at run time: on a single node read from and written to
  /// <first log dir>/cafka-broker-configs, in a cluster taken from the view.
  config::dynamic_broker_configs dynamic;
  std::vector<std::unique_ptr<storage::log_directory>> dirs;
  /// The partition folders each dir held at start (a partition stays in its dir).
  std::vector<std::vector<storage::topic_partition>> found_at_start;
  storage::topic_map topics;
  std::map<storage::topic_partition, open_partition> partitions;
  /// Logs of internal topics (__consumer_offsets), opened and closed by their owner, not
  /// served to clients; listed here only so that the checkpoint written at a clean shutdown
  /// covers them (else the log dir is not marked clean).
  std::map<storage::topic_partition, open_partition> internal_partitions;
  /// The high watermarks of every dir's replication-offset-checkpoint as read at start.
  storage::offset_checkpoint high_watermarks;

  /// <first log dir>/cafka-topics
  std::string registry_path() const;
  /// <first log dir>/cafka-broker-configs (single node)
  std::string broker_configs_path() const;
  /// The broker defaults (the dynamic ones over server.properties) with a topic's overrides
  /// (already validated at creation).
  storage::log_config log_config_for(const std::string& topic) const;
  /// The log dir a partition's log belongs in: the one it was found in at start, else the
  /// online one holding the fewest partitions.
  size_t dir_for(const storage::topic_partition& tp) const;
  /// Opens (creating) a partition's log in dir_for(tp).
  status open_partition_log(const storage::topic_partition& tp, int64_t now_ms);
  /// The recovery points of the open logs (internal ones included), per log dir.
  std::vector<storage::offset_checkpoint> recovery_points() const;
};

/// Locks every log dir, reads the registry and opens (recovering) every partition of
/// every registered topic. Errors name the directory in `error_text`.
result<std::shared_ptr<node_storage>> open_node_storage(const config::server_config& cfg,
                                                        int64_t now_ms, std::string& error_text);

/// Closes every log (flush, seal) and marks each log dir cleanly shut down.
status close_node_storage(node_storage& ns);

} // namespace cafka
