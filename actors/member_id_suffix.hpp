#pragma once
// The unique part of the member ids a group generates ("<client id>-<suffix>"), a random
// UUID as Kafka's: ids must not repeat when a group is recreated, or a consumer that kept
// an old id would be taken for a member of the new group.
//
// Seedable for the deterministic simulation (issue 7): node_options::member_id_seed seeds
// one generator per node (member_id_seeds) that draws a seed for each group it creates, so
// a recreated group still gets fresh ids, and two runs with one seed give the same ids as
// long as groups are created in the same order. Seed 0 (the default) keeps random_device.

#include <cstdint>
#include <functional>

#include "cluster/group_state.hpp"

namespace cafka {

/// A source of random version-4 UUIDs in text form, e.g.
/// "3f2b8c1e-9a4d-4e7f-8b21-0c5d6e7f8a9b"; each source has its own generator, seeded
/// from std::random_device.
cluster::group_state::suffix_source make_member_id_suffixes();

/// The same, from a generator seeded with `seed`: two sources with one seed give the
/// same sequence (any seed, 0 included).
cluster::group_state::suffix_source make_member_id_suffixes(uint64_t seed);

/// Seeds for the member-id sources of a node's groups (thread-safe; never 0). `node_seed`
/// 0: every call answers 0, which group_context reads as "seed from random_device".
std::function<uint64_t()> make_member_id_seeds(uint64_t node_seed);

} // namespace cafka
