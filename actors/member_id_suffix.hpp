#pragma once
// The unique part of the member ids a group generates ("<client id>-<suffix>"), a random
// UUID as Kafka's: ids must not repeat when a group is recreated, or a consumer that kept
// an old id would be taken for a member of the new group.

#include "cluster/group_state.hpp"

namespace cafka {

/// A source of random version-4 UUIDs in text form, e.g.
/// "3f2b8c1e-9a4d-4e7f-8b21-0c5d6e7f8a9b"; each source has its own generator.
cluster::group_state::suffix_source make_member_id_suffixes();

} // namespace cafka
