#pragma once
// DescribeClientQuotas and AlterClientQuotas (KIP-546) over a quota_table, as Kafka answers
// them (docs/quotas-notes.md §1), without I/O: the listener answers Describe from the
// broker's table; the quota actor validates an Alter here, stores the entities it changed
// and then publishes the new table.
//
// What cafka refuses that Kafka accepts: "ip" entities and controller_mutation_rate
// (INVALID_REQUEST naming them): cafka does not enforce them, so it does not store them.
// Values must be > 0, byte rates whole numbers (KRaft's checks).

#include <vector>

#include "cluster/client_quotas.hpp"
#include "protocol/wire/client_quotas.hpp"

namespace cafka::cluster {

wire::describe_client_quotas_response describe_quotas(const quota_table& table,
                                                      const wire::describe_client_quotas_request& req);

struct quota_alteration {
  wire::alter_client_quotas_response response;
  quota_table after;                   ///< the table with every valid entry applied
  std::vector<quota_entity> changed;   ///< entities whose values changed (empty if validate_only)
};

quota_alteration alter_quotas(const quota_table& before, const wire::alter_client_quotas_request& req);

/// Every entry of `req` failed with UNKNOWN_SERVER_ERROR and `why` (storing them failed).
wire::alter_client_quotas_response failed_alteration(const wire::alter_client_quotas_request& req,
                                                     const std::string& why);

/// The wire form of an entity: user first, then client-id; a null name is <default>.
std::vector<wire::quota_entity_component> wire_entity(const quota_entity& entity);

} // namespace cafka::cluster
