#pragma once
// Until cafka has a group coordinator, every consumer-group request is answered with
// COORDINATOR_NOT_AVAILABLE (15), a retriable error, in the exact response layout of
// the request's version so that clients parse it and retry instead of dropping the
// connection.
//
// Error 15 goes wherever the layout has an error code: top level for FindCoordinator,
// JoinGroup, SyncGroup, Heartbeat and LeaveGroup; per requested partition for
// OffsetCommit and OffsetFetch (echoing the request's topics and partitions), plus
// OffsetFetch's top-level code in v2+. The other fields carry Kafka's "unknown"
// values: FindCoordinator node_id -1, host "", port -1; JoinGroup generation -1 and
// empty names and members; SyncGroup an empty assignment; OffsetFetch offset -1,
// leader epoch -1, metadata "".

#include <cstdint>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

/// Decodes `body`, a request of FindCoordinator, JoinGroup, SyncGroup, Heartbeat,
/// LeaveGroup, OffsetCommit or OffsetFetch at a `version` in cafka's advertised range,
/// and writes that version's response body to `w`. On a malformed body returns the
/// decode error and writes nothing; another api key fails with
/// std::errc::not_supported.
status encode_coordinator_not_available(int16_t api_key, int16_t version, bytes_view body,
                                        byte_writer& w);

} // namespace cafka::wire
