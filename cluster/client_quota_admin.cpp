#include "cluster/client_quota_admin.hpp"

#include <cmath>
#include <set>

#include "protocol/kafka_error.hpp"

namespace cafka::cluster {

namespace {

using protocol::kafka_error;
using protocol::wire_code;

constexpr const char* user_type = "user";
constexpr const char* client_type = "client-id";
constexpr const char* ip_type = "ip";

struct refusal {
  kafka_error code = kafka_error::none;
  std::string message;
};

entity_part part_from_wire(const std::optional<std::string>& name) {
  return name ? entity_part::named_as(*name) : entity_part::any_default();
}

std::optional<std::string> wire_name(const entity_part& part) {
  if (part.kind == entity_part::form::named)
    return part.name;
  return std::nullopt;
}

// An AlterClientQuotas entity; the refusal says why it is not one cafka stores.
refusal entity_from_wire(const std::vector<wire::quota_entity_component>& components, quota_entity& out) {
  if (components.empty())
    return {kafka_error::invalid_request, "Invalid empty client quota entity"};
  for (auto& c : components) {
    entity_part* side = nullptr;
    if (c.entity_type == user_type)
      side = &out.user;
    else if (c.entity_type == client_type)
      side = &out.client_id;
    else if (c.entity_type == ip_type)
      return {kafka_error::invalid_request, "IP quotas are not supported by this broker"};
    else
      return {kafka_error::invalid_request, "Unhandled client quota entity type: " + c.entity_type};
    if (side->kind != entity_part::form::absent)
      return {kafka_error::invalid_request, "Duplicate client quota entity type: " + c.entity_type};
    if (side == &out.user && c.entity_name && c.entity_name->empty())
      return {kafka_error::invalid_request, "Empty user not supported"};
    *side = part_from_wire(c.entity_name);
  }
  return {};
}

refusal check_op(const wire::quota_op& op) {
  auto kind = quota_kind_of(op.key);
  if (!kind)
    return {kafka_error::invalid_request,
            op.key == "controller_mutation_rate" ? "Quota controller_mutation_rate is not supported by this broker"
                                                 : "Invalid configuration key " + op.key};
  if (op.remove)
    return {};
  if (!std::isfinite(op.value) || op.value <= 0)
    return {kafka_error::invalid_request, "Quota " + op.key + " must be greater than 0"};
  if (*kind != quota_kind::request_percentage) {
    if (std::abs(op.value - std::round(op.value)) > 1e-6)
      return {kafka_error::invalid_request, op.key + " cannot be a fractional value."};
    if (op.value >= 9.2e18)
      return {kafka_error::invalid_request, "Quota " + op.key + " is too large for a LONG."};
  }
  return {};
}

// One filter component as a test of one side of an entity.
struct side_filter {
  bool on_user = false;
  int8_t match_type = 0;
  std::optional<std::string> match;
};

refusal filter_from_wire(const std::vector<wire::quota_filter_component>& components,
                         std::vector<side_filter>& out, bool& has_ip) {
  std::set<std::string> seen;
  for (auto& c : components) {
    if (c.entity_type.empty())
      return {kafka_error::invalid_request, "Invalid empty entity type"};
    if (!seen.insert(c.entity_type).second)
      return {kafka_error::invalid_request, "Duplicate entity type " + c.entity_type};
    if (c.match_type < 0 || c.match_type > 2)
      return {kafka_error::invalid_request, "Unknown match type " + std::to_string(c.match_type)};
    if (c.match_type == 0 && !c.match)
      return {kafka_error::invalid_request, "A null match is not an exact match"};
    if (c.match_type != 0 && c.match)
      return {kafka_error::invalid_request, "Only an exact match names an entity"};
    if (c.entity_type == ip_type) {
      has_ip = true;
      continue;
    }
    if (c.entity_type != user_type && c.entity_type != client_type)
      return {kafka_error::unsupported_version, "Custom entity type '" + c.entity_type + "' not supported"};
    out.push_back({c.entity_type == user_type, c.match_type, c.match});
  }
  if (has_ip && !out.empty())
    return {kafka_error::invalid_request,
            "Invalid entity filter component combination, IP filter component should not be used with "
            "user or clientId filter component."};
  return {};
}

bool matches(const side_filter& f, const entity_part& part) {
  switch (f.match_type) {
    case 0: return part.kind == entity_part::form::named && part.name == *f.match;
    case 1: return part.kind == entity_part::form::default_entity;
    default: return part.kind != entity_part::form::absent;
  }
}

size_t sides_of(const quota_entity& e) {
  return (e.user.kind != entity_part::form::absent ? 1 : 0) + (e.client_id.kind != entity_part::form::absent ? 1 : 0);
}

} // namespace

wire::alter_client_quotas_response failed_alteration(const wire::alter_client_quotas_request& req,
                                                     const std::string& why) {
  wire::alter_client_quotas_response resp;
  for (auto& e : req.entries)
    resp.entries.push_back({wire_code(kafka_error::unknown_server_error), why, e.entity});
  return resp;
}

std::vector<wire::quota_entity_component> wire_entity(const quota_entity& entity) {
  std::vector<wire::quota_entity_component> out;
  if (entity.user.kind != entity_part::form::absent)
    out.push_back({user_type, wire_name(entity.user)});
  if (entity.client_id.kind != entity_part::form::absent)
    out.push_back({client_type, wire_name(entity.client_id)});
  return out;
}

wire::describe_client_quotas_response describe_quotas(const quota_table& table,
                                                      const wire::describe_client_quotas_request& req) {
  wire::describe_client_quotas_response resp;
  std::vector<side_filter> filters;
  bool has_ip = false;
  if (auto r = filter_from_wire(req.components, filters, has_ip); r.code != kafka_error::none) {
    resp.error_code = wire_code(r.code);
    resp.error_message = r.message;
    return resp;
  }
  resp.entries.emplace();
  if (has_ip) // cafka stores no ip quotas
    return resp;
  for (auto& [entity, values] : table.entries()) {
    bool ok = !values.empty() && (!req.strict || sides_of(entity) == filters.size());
    for (auto& f : filters)
      ok = ok && matches(f, f.on_user ? entity.user : entity.client_id);
    if (!ok)
      continue;
    wire::client_quota_entry entry;
    entry.entity = wire_entity(entity);
    for (auto& [kind, value] : values)
      entry.values.push_back({key_of(kind), value});
    resp.entries->push_back(std::move(entry));
  }
  return resp;
}

quota_alteration alter_quotas(const quota_table& before, const wire::alter_client_quotas_request& req) {
  quota_alteration out;
  out.after = before;
  std::set<quota_entity> changed;
  for (auto& entry : req.entries) {
    wire::alter_client_quota_result result;
    result.entity = entry.entity;
    quota_entity entity;
    auto refused = entity_from_wire(entry.entity, entity);
    for (auto& op : entry.ops)
      if (refused.code == kafka_error::none)
        refused = check_op(op);
    if (refused.code != kafka_error::none) {
      result.error_code = wire_code(refused.code);
      result.error_message = refused.message;
    } else if (!req.validate_only) {
      for (auto& op : entry.ops) {
        auto kind = *quota_kind_of(op.key);
        if (op.remove)
          out.after.remove(entity, kind);
        else
          out.after.set(entity, kind, kind == quota_kind::request_percentage ? op.value : std::round(op.value));
      }
      changed.insert(entity);
    }
    out.response.entries.push_back(std::move(result));
  }
  auto values_of = [](const quota_table& t, const quota_entity& e) {
    auto it = t.entries().find(e);
    return it == t.entries().end() ? std::map<quota_kind, double>{} : it->second;
  };
  for (auto& e : changed)
    if (values_of(before, e) != values_of(out.after, e))
      out.changed.push_back(e);
  return out;
}

} // namespace cafka::cluster
