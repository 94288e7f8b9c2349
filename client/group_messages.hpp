#pragma once
// What a native group member (group_consumer.hpp) tells its consumer actor besides the
// consumer_records it forwards: the partitions it was assigned in a generation, and the
// partitions taken away when a rebalance starts or the member stops. Ordinary messages
// (not requests), sent before the first batch of an assignment and after the last one.

#include <cstdint>
#include <vector>

#include <caf/meta/type_name.hpp>

#include "actors/messages.hpp"

namespace cafka::client {

struct partitions_assigned {
  int32_t generation = -1;
  std::vector<topic_partition> partitions; ///< sorted; may be empty
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partitions_assigned& x) {
  return f(caf::meta::type_name("partitions_assigned"), x.generation, x.partitions);
}

struct partitions_revoked {
  std::vector<topic_partition> partitions; ///< what was assigned until now
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, partitions_revoked& x) {
  return f(caf::meta::type_name("partitions_revoked"), x.partitions);
}

} // namespace cafka::client
