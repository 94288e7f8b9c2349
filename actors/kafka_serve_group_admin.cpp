// DeleteGroups and OffsetDelete: asked of each group's actor (actors/group_actor.hpp; the
// rules are cluster/group_deletion.hpp). A group this node does not coordinate gets
// NOT_COORDINATOR (or COORDINATOR_LOAD_IN_PROGRESS), one without an actor (never joined nor
// committed to) GROUP_ID_NOT_FOUND.
#include <memory>
#include <utility>

#include <caf/all.hpp>

#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/kafka_serve_groups.hpp"

namespace cafka {

namespace {

// The error DeleteGroups or OffsetDelete answers for the group before asking its actor,
// with the actor in `group` when there is none.
kafka_error group_to_change(const kafka_services& s, const std::string& group_id, std::optional<group_actor>& group) {
  if (group_id.empty())
    return kafka_error::invalid_group_id;
  if (auto e = coordinator_error(s, group_id); e != kafka_error::none)
    return e;
  group = existing_group(s, group_id);
  return group ? kafka_error::none : kafka_error::group_id_not_found;
}

} // namespace

void serve(const kafka_services& s, wire::delete_groups_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::delete_groups_response skeleton;
  for (auto& id : req.groups_names)
    skeleton.results.push_back({id, 0});
  auto done = kafka_countdown<wire::delete_groups_response>::make(
    std::move(skeleton), [reply, version](wire::delete_groups_response& resp) {
      reply.send([&](wire::byte_writer& w) { wire::encode_delete_groups_response(resp, version, w); });
    });
  for (size_t i = 0; i < req.groups_names.size(); ++i) {
    auto& id = req.groups_names[i];
    std::optional<group_actor> group;
    if (auto e = group_to_change(s, id, group); e != kafka_error::none) {
      done->response.results[i].error_code = protocol::wire_code(e);
      continue;
    }
    done->expect();
    auto registry = s.groups;
    s.self->request(*group, group_timeout, delete_group_atom_v)
      .then(
        [done, i, id, registry, actor = *group](int16_t code) {
          // Dead from now on, whether its offsets went or not (then they stay stored, and the
          // group comes back with them on next use): only a group with members stays. The
          // actor stops too: out of the registry, a stopping broker would not close it, and its
          // timers would hold the process's exit back until they fired (the fuzz test found it).
          if (code != protocol::wire_code(kafka_error::non_empty_group)) {
            registry->erase(id, actor);
            caf::anon_send(actor, caf::close_atom_v);
          }
          done->response.results[i].error_code = code;
          done->arrive();
        },
        [done, i](caf::error& err) {
          done->response.results[i].error_code = protocol::wire_code(group_error(err));
          done->arrive();
        });
  }
  done->arrive();
}

void serve(const kafka_services& s, wire::offset_delete_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  auto send = [reply, version](const wire::offset_delete_response& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_offset_delete_response(resp, version, w); });
  };
  wire::offset_delete_response resp;
  std::optional<group_actor> group;
  if (auto e = group_to_change(s, req.group_id, group); e != kafka_error::none) {
    resp.error_code = protocol::wire_code(e);
    return send(resp);
  }
  group_offset_query query;
  for (auto& t : req.topics)
    for (auto p : t.partitions)
      query.partitions.push_back({t.name, p});
  s.self->request(*group, group_timeout, delete_offsets_atom_v, std::move(query))
    .then(
      [send](group_offsets_deleted& answer) {
        wire::offset_delete_response resp;
        resp.error_code = protocol::wire_code(answer.group_error);
        for (auto& [tp, error] : answer.partitions) {
          if (resp.topics.empty() || resp.topics.back().name != tp.topic)
            resp.topics.push_back({tp.topic, {}});
          resp.topics.back().partitions.push_back({tp.partition, protocol::wire_code(error)});
        }
        send(resp);
      },
      [send](caf::error& err) {
        wire::offset_delete_response resp;
        resp.error_code = protocol::wire_code(group_error(err));
        send(resp);
      });
}

} // namespace cafka
