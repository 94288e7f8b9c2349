#include "cluster/errc.hpp"

#include <string>

namespace cafka::cluster {
namespace {

struct category : std::error_category {
  const char* name() const noexcept override { return "cafka.cluster"; }
  std::string message(int ev) const override {
    switch (static_cast<errc>(ev)) {
      case errc::no_node: return "no such node";
      case errc::node_exists: return "node exists";
      case errc::bad_version: return "version mismatch";
      case errc::not_empty: return "node has children";
      case errc::no_children_for_ephemerals: return "ephemeral nodes may not have children";
      case errc::connection_loss: return "connection to the coordinator lost";
      case errc::session_expired: return "coordinator session expired";
      case errc::invalid_path: return "invalid znode path";
      case errc::closed: return "coordinator session closed";
      case errc::malformed_data: return "malformed znode data";
      case errc::invalid_replication_factor: return "invalid replication factor";
      case errc::invalid_partitions: return "invalid number of partitions";
      case errc::inconsistent_racks:
        return "not all brokers have rack information for replica rack aware assignment";
      case errc::invalid_replica_assignment: return "invalid replica assignment";
    }
    return "unknown cluster error";
  }
};

} // namespace

const std::error_category& cluster_category() noexcept {
  static const category instance;
  return instance;
}

bool is_retriable(std::error_code ec) noexcept {
  return ec == errc::connection_loss;
}

bool needs_new_session(std::error_code ec) noexcept {
  return ec == errc::session_expired || ec == errc::closed;
}

} // namespace cafka::cluster
