#pragma once
// Where a broker's client quotas are kept (formats: cluster/quota_znodes.hpp): a file in the
// first log dir on a single node, ZooKeeper's /config/users and /config/clients in a cluster.
// Both calls block (file I/O, or waiting for ZooKeeper): run them at start-up or on the I/O
// worker, never on a scheduler thread. save() returns once the change is durable, so an
// acknowledged AlterClientQuotas survives a kill.

#include <memory>
#include <string>
#include <vector>

#include "cluster/client_quotas.hpp"
#include "protocol/result.hpp"

namespace cafka {

namespace cluster {
class coordinator;
}

class quota_store {
public:
  virtual ~quota_store() = default;
  virtual result<cluster::quota_table> load() = 0;
  /// Stores `changed` entities as `table` has them (absent: no quota left).
  virtual status save(const cluster::quota_table& table, const std::vector<cluster::quota_entity>& changed) = 0;
};

/// <path> (written whole, atomically).
std::shared_ptr<quota_store> file_quota_store(std::string path);
/// The quota znodes; each save() also writes a change notification (the last 100 are kept)
/// that every broker's quota actor watches.
std::shared_ptr<quota_store> coordinator_quota_store(std::shared_ptr<cluster::coordinator> session);

} // namespace cafka
