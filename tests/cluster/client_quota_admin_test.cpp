// cluster/client_quota_admin.hpp and cluster/quota_znodes.hpp: Kafka's Describe/Alter rules
// for client quotas over a table, and the stored forms (znode paths, values, the file).
#include <boost/test/unit_test.hpp>

#include "cluster/client_quota_admin.hpp"
#include "cluster/quota_znodes.hpp"

using namespace cafka::cluster;
namespace wire = cafka::wire;

namespace {

quota_entity client(const std::string& name) { return {entity_part::absent(), entity_part::named_as(name)}; }

wire::alter_client_quotas_request set_request(std::vector<wire::quota_entity_component> entity, std::string key,
                                              double value) {
  wire::alter_client_quotas_request req;
  req.entries.push_back({std::move(entity), {{std::move(key), value, false}}});
  return req;
}

} // namespace

BOOST_AUTO_TEST_SUITE(client_quota_admin)

BOOST_AUTO_TEST_CASE(alter_sets_and_removes_and_reports_what_changed) {
  quota_table t;
  auto a = alter_quotas(t, set_request({{"client-id", std::string("app")}}, "producer_byte_rate", 1048576));
  BOOST_TEST(a.response.entries.at(0).error_code == 0);
  BOOST_REQUIRE(a.changed.size() == 1u);
  BOOST_TEST(a.after.match(quota_kind::producer_byte_rate, "ANONYMOUS", "app")->limit == 1048576);
  auto again = alter_quotas(a.after, set_request({{"client-id", std::string("app")}}, "producer_byte_rate", 1048576));
  BOOST_TEST(again.changed.empty()); // nothing to store
  wire::alter_client_quotas_request remove;
  remove.entries.push_back({{{"client-id", std::string("app")}}, {{"producer_byte_rate", 0, true}}});
  auto removed = alter_quotas(a.after, remove);
  BOOST_TEST(removed.after.entries().empty());
  BOOST_TEST(removed.changed.size() == 1u);
  auto validate = set_request({{"user", std::nullopt}}, "request_percentage", 200);
  validate.validate_only = true;
  auto v = alter_quotas(t, validate);
  BOOST_TEST(v.response.entries.at(0).error_code == 0);
  BOOST_TEST(v.after.entries().empty());
}

BOOST_AUTO_TEST_CASE(alter_refuses_what_kafka_refuses_and_what_cafka_does_not_enforce) {
  quota_table t;
  auto code = [&](wire::alter_client_quotas_request req) { return alter_quotas(t, req).response.entries.at(0).error_code; };
  BOOST_TEST(code(set_request({}, "producer_byte_rate", 1)) == 42);
  BOOST_TEST(code(set_request({{"user", std::string("")}}, "producer_byte_rate", 1)) == 42);
  BOOST_TEST(code(set_request({{"group", std::string("g")}}, "producer_byte_rate", 1)) == 42);
  BOOST_TEST(code(set_request({{"ip", std::string("1.2.3.4")}}, "connection_creation_rate", 1)) == 42);
  BOOST_TEST(code(set_request({{"client-id", std::string("a")}, {"client-id", std::string("b")}}, "producer_byte_rate",
                              1))
             == 42);
  BOOST_TEST(code(set_request({{"client-id", std::string("a")}}, "producer_byte_rate", 1.5)) == 42);
  BOOST_TEST(code(set_request({{"client-id", std::string("a")}}, "producer_byte_rate", 0)) == 42);
  BOOST_TEST(code(set_request({{"client-id", std::string("a")}}, "controller_mutation_rate", 5)) == 42);
  BOOST_TEST(code(set_request({{"client-id", std::string("a")}}, "retention.ms", 5)) == 42);
  auto mixed = set_request({{"client-id", std::string("a")}}, "producer_byte_rate", 10);
  mixed.entries.push_back({{{"client-id", std::string("b")}}, {{"nonsense", 1, false}}});
  auto a = alter_quotas(t, mixed); // one bad entry does not stop the others
  BOOST_TEST(a.response.entries.at(0).error_code == 0);
  BOOST_TEST(a.response.entries.at(1).error_code == 42);
  BOOST_TEST(a.after.entries().size() == 1u);
}

BOOST_AUTO_TEST_CASE(describe_matches_exact_default_and_any_strictly_or_not) {
  quota_table t;
  t.set(client("app"), quota_kind::producer_byte_rate, 100);
  t.set({entity_part::absent(), entity_part::any_default()}, quota_kind::consumer_byte_rate, 200);
  t.set({entity_part::named_as("alice"), entity_part::named_as("app")}, quota_kind::request_percentage, 50);
  auto count = [&](std::vector<wire::quota_filter_component> f, bool strict) {
    auto r = describe_quotas(t, {std::move(f), strict});
    BOOST_REQUIRE(r.entries);
    return r.entries->size();
  };
  BOOST_TEST(count({{"client-id", 0, std::string("app")}}, true) == 1u);
  BOOST_TEST(count({{"client-id", 0, std::string("app")}}, false) == 2u); // and alice's
  BOOST_TEST(count({{"client-id", 1, std::nullopt}}, true) == 1u);
  BOOST_TEST(count({{"client-id", 2, std::nullopt}}, true) == 2u);
  BOOST_TEST(count({{"user", 2, std::nullopt}, {"client-id", 2, std::nullopt}}, true) == 1u);
  BOOST_TEST(count({{"ip", 2, std::nullopt}}, true) == 0u);
  auto one = describe_quotas(t, {{{"user", 0, std::string("alice")}}, false});
  BOOST_TEST(one.entries->at(0).entity.size() == 2u);
  BOOST_TEST(one.entries->at(0).values.at(0).key == "request_percentage");
  BOOST_TEST(describe_quotas(t, {{{"client-id", 0, std::nullopt}}, true}).error_code == 42);
  BOOST_TEST(describe_quotas(t, {{{"client-id", 7, std::nullopt}}, true}).error_code == 42);
  BOOST_TEST(describe_quotas(t, {{{"topic", 2, std::nullopt}}, true}).error_code == 35);
  BOOST_TEST(describe_quotas(t, {{{"ip", 2, std::nullopt}, {"user", 2, std::nullopt}}, true}).error_code == 42);
  BOOST_TEST(!describe_quotas(t, {{{"topic", 2, std::nullopt}}, true}).entries);
}

BOOST_AUTO_TEST_CASE(entity_paths_as_kafka_lays_them_out) {
  BOOST_TEST(quota_znode_path(client("app")) == "/config/clients/app");
  quota_entity both{entity_part::named_as("user with spaces"), entity_part::any_default()};
  BOOST_TEST(quota_entity_path(both) == "users/user%20with%20spaces/clients/<default>");
  quota_entity named_default{entity_part::named_as("<default>"), entity_part::absent()};
  BOOST_TEST(quota_entity_path(named_default) == "users/%3Cdefault%3E");
  for (auto& e : {client("app"), both, named_default}) {
    auto back = quota_entity_of_path(quota_entity_path(e));
    BOOST_REQUIRE(back);
    BOOST_TEST((*back == e));
  }
  for (auto bad : {"", "clients", "clients/", "users/a/clients", "users/a/topics/b", "topics/x", "clients/%zz"})
    BOOST_TEST(!quota_entity_of_path(bad), bad);
}

BOOST_AUTO_TEST_CASE(values_and_the_single_node_file_round_trip) {
  quota_values v{{quota_kind::producer_byte_rate, 1048576}, {quota_kind::request_percentage, 12.5}};
  auto text = encode_quota_values(v);
  BOOST_TEST(text == "version=1\nconfig.producer_byte_rate=1048576\nconfig.request_percentage=12.5\n");
  BOOST_TEST((*decode_quota_values(text) == v));
  BOOST_TEST(decode_quota_values("")->empty()); // a parent node without data
  BOOST_TEST(!decode_quota_values("version=1\nconfig.producer_byte_rate=lots\n"));
  quota_table t;
  t.set(client("a.b"), quota_kind::consumer_byte_rate, 5);
  t.set({entity_part::any_default(), entity_part::named_as("x")}, quota_kind::request_percentage, 0.25);
  auto back = parse_quota_file(format_quota_file(t));
  BOOST_REQUIRE(back);
  BOOST_TEST((back->entries() == t.entries()));
  for (auto bad : {"", "version=2\n", "version=1\nclients%2Fa\n", "version=1\nclients%2Fa.nope=1\n",
                   "version=1\ntopics%2Fa.producer_byte_rate=1\n"})
    BOOST_TEST(!parse_quota_file(bad), bad);
}

BOOST_AUTO_TEST_SUITE_END()
