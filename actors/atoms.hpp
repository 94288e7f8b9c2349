#pragma once
// cafka's atoms (at most 10 characters each). CAF's own atoms are reused where the
// meaning matches: get, close, delete, tick, timeout, update, flush, ok.

#include <caf/atom.hpp>
#include <caf/type_id.hpp>

CAF_ADD_ATOM(cafka, cafka, produce_atom, "produce")
CAF_ADD_ATOM(cafka, cafka, fetch_atom, "fetch")
CAF_ADD_ATOM(cafka, cafka, list_offsets_atom, "listoffset")
CAF_ADD_ATOM(cafka, cafka, retention_atom, "retention")
CAF_ADD_ATOM(cafka, cafka, metadata_atom, "metadata")
CAF_ADD_ATOM(cafka, cafka, create_topic_atom, "createtopc")
CAF_ADD_ATOM(cafka, cafka, delete_topic_atom, "deletetopc")
CAF_ADD_ATOM(cafka, cafka, describe_atom, "describe")
CAF_ADD_ATOM(cafka, cafka, list_topics_atom, "listtopics")
CAF_ADD_ATOM(cafka, cafka, shutdown_atom, "shutdown")
CAF_ADD_ATOM(cafka, cafka, join_group_atom, "joingroup")
CAF_ADD_ATOM(cafka, cafka, sync_group_atom, "syncgroup")
CAF_ADD_ATOM(cafka, cafka, heartbeat_atom, "heartbeat")
CAF_ADD_ATOM(cafka, cafka, leave_group_atom, "leavegroup")
CAF_ADD_ATOM(cafka, cafka, commit_offsets_atom, "commitoffs")
CAF_ADD_ATOM(cafka, cafka, fetch_offsets_atom, "fetchoffs")
CAF_ADD_ATOM(cafka, cafka, group_coordinator_atom, "groupcoord")
CAF_ADD_ATOM(cafka, cafka, list_groups_atom, "listgroups")
CAF_ADD_ATOM(cafka, cafka, membership_atom, "membership")
CAF_ADD_ATOM(cafka, cafka, forwarded_atom, "forwarded")
// replication (actors/replication_messages.hpp)
CAF_ADD_ATOM(cafka, cafka, role_atom, "role")
CAF_ADD_ATOM(cafka, cafka, replica_fetch_atom, "replfetch")
CAF_ADD_ATOM(cafka, cafka, replica_append_atom, "replappend")
CAF_ADD_ATOM(cafka, cafka, epoch_end_atom, "epochend")
CAF_ADD_ATOM(cafka, cafka, truncate_atom, "truncate")
CAF_ADD_ATOM(cafka, cafka, follow_atom, "follow")
CAF_ADD_ATOM(cafka, cafka, isr_atom, "isr")
CAF_ADD_ATOM(cafka, cafka, leader_and_isr_atom, "leaderisr")
CAF_ADD_ATOM(cafka, cafka, controlled_shutdown_atom, "ctlshutdn")
// __consumer_offsets (actors/replicated_offsets.hpp)
CAF_ADD_ATOM(cafka, cafka, offsets_load_atom, "offsload")
