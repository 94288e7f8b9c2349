// cafka-configs: client quotas, topic and broker configs, as Kafka's kafka-configs.sh sets
// and shows them, over the Kafka protocol (DescribeClientQuotas / AlterClientQuotas here;
// DescribeConfigs / IncrementalAlterConfigs for topics and brokers in configs_resources.cpp).
//
//   cafka-configs --bootstrap-server 127.0.0.1:9092 --alter --entity-type clients --entity-name app
//                 --add-config producer_byte_rate=1048576,consumer_byte_rate=2097152
//   cafka-configs --bootstrap-server 127.0.0.1:9092 --describe --entity-type clients [--entity-name app]
//   cafka-configs ... --alter --entity-type users --entity-default --delete-config request_percentage
//
// --entity-name / --entity-default pair with the --entity-type values in order (users, then
// clients, as Kafka's tool); --user, --client, --user-defaults, --client-defaults say the
// same directly.
#include <cmath>
#include <cstdio>
#include <optional>

#include "apps/configs_resources.hpp"
#include "apps/kafka_call.hpp"
#include "apps/tool_args.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/client_quotas.hpp"

namespace {

using namespace cafka;
namespace wire = cafka::wire;

constexpr const char* tool = "cafka-configs";

const std::vector<tools::option> options{
  {"bootstrap-server", "HOST:PORT", "a broker's Kafka listener (default 127.0.0.1:9092)"},
  {"describe", "", "show the quotas or configs of the entity named"},
  {"all", "", "--describe of a topic or broker: every config, not only the dynamic ones"},
  {"alter", "", "change them (--add-config, --delete-config)"},
  {"entity-type", "TYPE", "topics, brokers, users or clients (users and clients: a user's quota for one client)",
   true},
  {"entity-name", "NAME", "the topic, broker id, user or client-id, in the order of --entity-type", true},
  {"entity-default", "", "the default entity of each --entity-type given without a name", true},
  {"user", "NAME", "the user (same as --entity-type users --entity-name NAME)"},
  {"client", "NAME", "the client-id (same as --entity-type clients --entity-name NAME)"},
  {"user-defaults", "", "the default user"},
  {"client-defaults", "", "the default client-id"},
  {"add-config", "K=V,...", "configs or quotas to set (quotas: producer_byte_rate, consumer_byte_rate, "
                            "request_percentage)"},
  {"delete-config", "K,...", "configs or quotas to remove"},
  {"request-timeout-ms", "MS", "give up waiting for an answer after this long (default 30000)"},
};

// One side of the entity: absent, a name, the default (nullopt name), or (--describe of a
// type without a name) any.
struct side {
  bool given = false;
  std::optional<std::string> name;
  bool any = false;
};

struct entity_sides {
  side user, client;
};

entity_sides entity_of(const tools::args& a) {
  entity_sides e;
  auto set = [](side& s, std::optional<std::string> name, const char* what, bool any = false) {
    if (s.given)
      throw tools::usage_error(std::string{"the "} + what + " is given twice");
    s = {true, std::move(name), any};
  };
  auto types = a.values("entity-type");
  auto names = a.values("entity-name");
  if (names.size() > types.size())
    throw tools::usage_error("more --entity-name than --entity-type");
  auto defaults = a.values("entity-default").size();
  if (types.size() > names.size() + defaults && a.has("alter"))
    throw tools::usage_error("--alter needs an --entity-name or --entity-default for each --entity-type");
  for (size_t i = 0; i < types.size(); ++i) {
    std::optional<std::string> name;
    if (i < names.size())
      name = names[i];
    bool any = i >= names.size() + defaults;
    if (types[i] == "users")
      set(e.user, name, "user", any);
    else if (types[i] == "clients")
      set(e.client, name, "client-id", any);
    else
      throw tools::usage_error("--entity-type must be topics, brokers, users or clients, not '" + types[i] + "'");
  }
  if (a.has("user"))
    set(e.user, a.value_or("user", ""), "user");
  if (a.has("client"))
    set(e.client, a.value_or("client", ""), "client-id");
  if (a.has("user-defaults"))
    set(e.user, std::nullopt, "user");
  if (a.has("client-defaults"))
    set(e.client, std::nullopt, "client-id");
  if (!e.user.given && !e.client.given)
    throw tools::usage_error("name an entity: --entity-type users|clients (or --user, --client)");
  return e;
}

std::string java_double(double v) {
  // As Java's Double.toString, which kafka-configs prints: 1048576.0, 2.5E7.
  char buf[64];
  if (v != 0 && (std::fabs(v) >= 1e7 || std::fabs(v) < 1e-3)) {
    int exp = static_cast<int>(std::floor(std::log10(std::fabs(v))));
    std::snprintf(buf, sizeof buf, "%.15g", v / std::pow(10.0, exp));
    std::string m = buf;
    if (m.find('.') == std::string::npos)
      m += ".0";
    return m + "E" + std::to_string(exp);
  }
  std::snprintf(buf, sizeof buf, "%.15g", v);
  std::string out = buf;
  if (out.find_first_of(".e") == std::string::npos)
    out += ".0";
  return out;
}

std::string describe_entity(const std::vector<wire::quota_entity_component>& entity) {
  std::string out;
  for (auto& c : entity) {
    auto kind = c.entity_type == "user" ? std::string{"user-principal"} : c.entity_type;
    out += out.empty() ? "" : ", ";
    out += c.entity_name ? kind + " '" + *c.entity_name + "'" : "the default " + kind;
  }
  return out;
}

int describe(const std::string& broker, const entity_sides& e, int timeout_ms) {
  wire::describe_client_quotas_request req;
  req.strict = true;
  auto add = [&](const side& s, const char* type) {
    if (!s.given)
      return;
    if (s.any)
      req.components.push_back({type, 2, std::nullopt});
    else if (s.name)
      req.components.push_back({type, 0, s.name});
    else
      req.components.push_back({type, 1, std::nullopt});
  };
  add(e.user, "user");
  add(e.client, "client-id");
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_describe_client_quotas_request(req, 0, w);
  auto answer = tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::describe_client_quotas), 0, body,
                                  timeout_ms);
  auto resp = wire::decode_describe_client_quotas_response({answer.data(), answer.size()}, 0);
  if (!resp)
    tools::fail(tool, broker + " sent a malformed DescribeClientQuotas response");
  if (resp->error_code != 0)
    tools::fail(tool, "error " + std::to_string(resp->error_code) + ": " + resp->error_message.value_or(""));
  for (auto& entry : resp->entries.value_or(std::vector<wire::client_quota_entry>{})) {
    std::string values;
    for (auto& v : entry.values)
      values += (values.empty() ? "" : ", ") + v.key + "=" + java_double(v.value);
    std::printf("Quota configs for %s are %s\n", describe_entity(entry.entity).c_str(), values.c_str());
  }
  return 0;
}

int alter(const tools::args& a, const std::string& broker, const entity_sides& e, int timeout_ms) {
  wire::alter_client_quota_entry entry;
  if (e.user.given)
    entry.entity.push_back({"user", e.user.name});
  if (e.client.given)
    entry.entity.push_back({"client-id", e.client.name});
  for (auto& kv : tools::comma_list(a.value_or("add-config", ""))) {
    auto [key, value] = tools::split_key_value(kv, "add-config");
    char* end = nullptr;
    double v = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0')
      throw tools::usage_error("--add-config " + key + ": '" + value + "' is not a number");
    entry.ops.push_back({key, v, false});
  }
  for (auto& key : tools::comma_list(a.value_or("delete-config", "")))
    entry.ops.push_back({key, 0.0, true});
  if (entry.ops.empty())
    throw tools::usage_error("--alter needs --add-config or --delete-config");
  wire::alter_client_quotas_request req;
  req.entries.push_back(std::move(entry));
  std::vector<char> body;
  wire::byte_writer w{body};
  wire::encode_alter_client_quotas_request(req, 0, w);
  auto answer =
    tools::kafka_call(broker, static_cast<int16_t>(wire::api_key::alter_client_quotas), 0, body, timeout_ms);
  auto resp = wire::decode_alter_client_quotas_response({answer.data(), answer.size()}, 0);
  if (!resp || resp->entries.size() != 1)
    tools::fail(tool, broker + " sent a malformed AlterClientQuotas response");
  auto& result = resp->entries.front();
  if (result.error_code != 0)
    tools::fail(tool, "error " + std::to_string(result.error_code) + ": " + result.error_message.value_or(""));
  std::printf("Completed updating config for %s.\n", describe_entity(req.entries.front().entity).c_str());
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  return tools::run(tool, "--bootstrap-server HOST:PORT (--describe | --alter) ENTITY [--add-config K=V,...] "
                          "[--delete-config K,...]",
                    argc, argv, options, [](const tools::args& a) {
                      if (a.has("describe") == a.has("alter"))
                        throw tools::usage_error("give exactly one of --describe and --alter");
                      auto broker = a.value_or("bootstrap-server", "127.0.0.1:9092");
                      tools::check_bootstrap(broker);
                      auto timeout = static_cast<int>(a.integer("request-timeout-ms", 30000, 1, 2147483647));
                      if (tools::names_resource(a))
                        return a.has("describe") ? tools::describe_resource(a, broker, timeout)
                                                 : tools::alter_resource(a, broker, timeout);
                      auto e = entity_of(a);
                      return a.has("describe") ? describe(broker, e, timeout) : alter(a, broker, e, timeout);
                    });
}
