#pragma once
// The quota actor: one per broker. It applies AlterClientQuotas (validated by
// cluster/client_quota_admin.hpp, stored durably through a quota_store on the I/O worker,
// one alteration at a time, then published to the listeners' registry before the answer)
// and, in a cluster, watches /config/changes to reload the quotas other brokers stored.
// DescribeClientQuotas needs no actor: the listener answers it from the registry.

#include <memory>

#include <caf/allowed_unsafe_message_type.hpp>
#include <caf/atom.hpp>
#include <caf/fwd.hpp>

#include "cluster/client_quotas.hpp"
#include "protocol/wire/client_quotas.hpp"

namespace cafka {

class quota_store;
namespace cluster {
class coordinator;
}

/// (alter_quotas_atom, wire::alter_client_quotas_request) -> wire::alter_client_quotas_response
using alter_quotas_atom = caf::atom_constant<caf::atom("altquotas")>;

/// `changes`: the session whose /config/changes is watched (null on a single node).
caf::actor spawn_quota_admin(caf::actor_system& sys, std::shared_ptr<cluster::client_quota_registry> registry,
                             std::shared_ptr<quota_store> store, caf::actor io_worker,
                             std::shared_ptr<cluster::coordinator> changes);

} // namespace cafka

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::alter_client_quotas_request)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafka::wire::alter_client_quotas_response)
