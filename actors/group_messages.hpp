#pragma once
// inspect() for the group actor's message types, so that they cross CAF's middleman: cafka's
// C++ client joins groups and commits offsets by talking to a group actor directly (the node
// hands out its handle, as it hands out partition actors), and cafka-consumer-groups
// describes groups and resets their offsets the same way. The types themselves are plain
// values of cluster/ (no CAF there); their type IDs are in actors/type_ids.hpp.
//
// CAF 0.17 has no inspector for std::optional: an optional string travels as a flag and a
// string (optional_text below), written back after loading by a load callback.

#include <optional>
#include <string>
#include <utility>

#include <caf/error.hpp>
#include <caf/meta/load_callback.hpp>
#include <caf/meta/type_name.hpp>
#include <caf/none.hpp>

#include "actors/group_offset_store.hpp"
#include "actors/messages.hpp"
#include "cluster/group_description.hpp"
#include "cluster/group_requests.hpp"

namespace cafka::cluster {

/// A view of an optional string for inspectors: `present` + `text`.
struct optional_text {
  std::optional<std::string>& ref;
  bool present = ref.has_value();
  std::string text = ref.value_or(std::string{});
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, optional_text& x) {
  auto store = [&x]() -> caf::error {
    x.ref = x.present ? std::optional<std::string>{x.text} : std::nullopt;
    return caf::none;
  };
  return f(x.present, x.text, caf::meta::load_callback(store));
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, group_protocol& x) {
  return f(caf::meta::type_name("group_protocol"), x.name, x.metadata);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, join_request& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("join_request"), x.member_id, instance, x.client_id, x.client_host,
           x.session_timeout_ms, x.rebalance_timeout_ms, x.protocol_type, x.protocols,
           x.require_known_member_id);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, joined_member& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("joined_member"), x.member_id, instance, x.metadata);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, join_answer& x) {
  return f(caf::meta::type_name("join_answer"), x.error, x.generation, x.protocol_name, x.leader,
           x.member_id, x.members);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_assignment& x) {
  return f(caf::meta::type_name("member_assignment"), x.member_id, x.assignment);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, sync_request& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("sync_request"), x.member_id, instance, x.generation, x.assignments);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, sync_answer& x) {
  return f(caf::meta::type_name("sync_answer"), x.error, x.assignment);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, heartbeat_request& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("heartbeat_request"), x.member_id, instance, x.generation);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_identity& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("member_identity"), x.member_id, instance);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, leave_answer& x) {
  return f(caf::meta::type_name("leave_answer"), x.error, x.members);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_description& x) {
  optional_text instance{x.group_instance_id};
  return f(caf::meta::type_name("member_description"), x.member_id, instance, x.client_id,
           x.client_host, x.metadata, x.assignment);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, group_description& x) {
  return f(caf::meta::type_name("group_description"), x.state, x.protocol_type, x.protocol,
           x.members);
}

} // namespace cafka::cluster

namespace cafka {

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, group_offset& x) {
  return f(caf::meta::type_name("group_offset"), x.tp, x.offset, x.leader_epoch, x.metadata);
}

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, group_offset_query& x) {
  return f(caf::meta::type_name("group_offset_query"), x.all, x.partitions);
}

} // namespace cafka
