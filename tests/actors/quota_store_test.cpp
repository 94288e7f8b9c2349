// actors/quota_store.hpp: quotas saved through one coordinator session are what another
// session loads (Kafka's /config/users, /config/clients layout), with a change notification
// per save; and the single-node file keeps them across a reopen.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>

#include "actors/quota_store.hpp"
#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster/quota_znodes.hpp"

using namespace cafka;
using cluster::entity_part;
using cluster::quota_entity;
using cluster::quota_kind;

BOOST_AUTO_TEST_SUITE(quota_store_suite)

BOOST_AUTO_TEST_CASE(a_saved_quota_is_loaded_by_another_session_and_announced) {
  auto store = std::make_shared<cluster::embedded_store>();
  auto writer = coordinator_quota_store(std::make_shared<cluster::embedded_coordinator>(store));
  auto reader_session = std::make_shared<cluster::embedded_coordinator>(store);
  auto reader = coordinator_quota_store(reader_session);
  BOOST_TEST(reader->load()->entries().empty()); // nothing stored yet: no /config at all
  cluster::quota_table t;
  quota_entity both{entity_part::named_as("alice"), entity_part::named_as("app")};
  quota_entity clients{entity_part::absent(), entity_part::any_default()};
  t.set(both, quota_kind::producer_byte_rate, 1024);
  t.set(clients, quota_kind::request_percentage, 50);
  BOOST_REQUIRE(writer->save(t, {both, clients}));
  auto loaded = reader->load();
  BOOST_REQUIRE(loaded);
  BOOST_TEST((loaded->entries() == t.entries()));
  std::vector<std::string> notes;
  reader_session->children(cluster::config_changes_path, {}, [&](result<std::vector<std::string>> r) {
    if (r)
      notes = *r;
  });
  BOOST_TEST(notes.size() == 2u);
  // Removing the last key leaves a node without quotas (a parent keeps its children).
  cluster::quota_table fewer = t;
  fewer.remove(both, quota_kind::producer_byte_rate);
  BOOST_REQUIRE(writer->save(fewer, {both}));
  BOOST_TEST((reader->load()->entries() == fewer.entries()));
}

BOOST_AUTO_TEST_CASE(the_single_node_file_keeps_them) {
  char tmpl[] = "/tmp/cafka-quota-store-XXXXXX";
  std::string dir = ::mkdtemp(tmpl);
  auto path = dir + "/cafka-quotas";
  auto store = file_quota_store(path);
  BOOST_TEST(store->load()->entries().empty()); // no file yet
  cluster::quota_table t;
  t.set({entity_part::absent(), entity_part::named_as("app")}, quota_kind::consumer_byte_rate, 4096);
  BOOST_REQUIRE(store->save(t, {}));
  BOOST_TEST((file_quota_store(path)->load()->entries() == t.entries()));
  std::system(("rm -rf " + dir).c_str());
}

BOOST_AUTO_TEST_SUITE_END()
