#pragma once
// Errors of the cluster layer, as std::error_code: the ZooKeeper return codes that callers
// act on (mirrored 1:1 so that a ZooKeeper C-client implementation maps its `rc` directly),
// plus the errors of znode data decoding and of the pure placement decisions.

#include <system_error>

namespace cafka::cluster {

enum class errc {
  // -- coordinator: ZooKeeper's codes (ZOK is success, an empty error_code) --
  no_node = 1,                ///< ZNONODE: the node, or for create its parent, does not exist
  node_exists,                ///< ZNODEEXISTS: create of a path that exists
  bad_version,                ///< ZBADVERSION: the expected version differs from the node's
  not_empty,                  ///< ZNOTEMPTY: remove of a node that has children
  no_children_for_ephemerals, ///< ZNOCHILDRENFOREPHEMERALS: create below an ephemeral node
  connection_loss,            ///< ZCONNECTIONLOSS / ZOPERATIONTIMEOUT: the call may or may not
                              ///< have taken effect; retry after the session is connected again
  session_expired,            ///< ZSESSIONEXPIRED: the session is dead, its ephemerals are gone;
                              ///< only a new session helps
  invalid_path,               ///< ZBADARGUMENTS for a path that breaks ZooKeeper's path rules
  closed,                     ///< ZCLOSING: a call on a session after close()
  // -- znode data --
  malformed_data,             ///< znode data or a child name that does not decode
  // -- decisions --
  invalid_replication_factor, ///< replication factor < 1 or above the number of live brokers
  invalid_partitions,         ///< partition count < 1
  inconsistent_racks,         ///< some live brokers have a broker.rack and some do not: rack-aware
                              ///< placement needs all or none (Kafka: AdminOperationException)
  invalid_replica_assignment, ///< a manual assignment with an empty list, a duplicate, an unknown
                              ///< broker or lists of different lengths
};

const std::error_category& cluster_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), cluster_category()};
}

/// connection_loss: the session lives on; retry (idempotently) once it is connected again.
bool is_retriable(std::error_code ec) noexcept;

/// session_expired or closed: this session is finished; open a new one and re-create ephemerals
/// and watches (ClickHouse's "hardware error" split, reduced to what we act on).
bool needs_new_session(std::error_code ec) noexcept;

} // namespace cafka::cluster

template <>
struct std::is_error_code_enum<cafka::cluster::errc> : std::true_type {};
