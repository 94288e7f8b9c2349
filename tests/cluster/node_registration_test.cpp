// Broker registration, one election round, and topic metadata in the coordinator.
#include <boost/test/unit_test.hpp>

#include <memory>

#include "cluster/embedded_coordinator.hpp"
#include "cluster/embedded_store.hpp"
#include "cluster/errc.hpp"
#include "cluster/node_registration.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"

using namespace cafka;
using namespace cafka::cluster;

namespace {

// The embedded coordinator completes inline, so results are ready when the call returns.
registration_result registered(coordinator& c, int32_t id) {
  std::optional<result<registration_result>> out;
  register_broker(c, broker_registration{id, "127.0.0.1", 9092, 9192, ""},
                  [&](result<registration_result> r) { out = r; });
  BOOST_REQUIRE(out);
  BOOST_REQUIRE_MESSAGE(*out, out->error().message());
  return **out;
}

std::optional<std::string> data_of(coordinator& c, const std::string& path) {
  std::optional<std::string> out;
  c.get(path, {}, [&](result<node_data> r) {
    if (r)
      out = r->data;
  });
  return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(node_registration)

BOOST_AUTO_TEST_CASE(the_first_broker_becomes_controller_and_the_next_follows) {
  auto store = std::make_shared<embedded_store>();
  embedded_coordinator a{store}, b{store};
  auto ra = registered(a, 1);
  BOOST_TEST(ra.controller_id == 1);
  BOOST_TEST(ra.controller_epoch == 1);
  auto rb = registered(b, 2);
  BOOST_TEST(rb.controller_id == 1);
  BOOST_TEST(rb.controller_epoch == 1);
  auto reg = decode_broker_registration(*data_of(b, broker_path(2)));
  BOOST_TEST(reg->caf_port == 9192);
  BOOST_TEST(*decode_controller_epoch(*data_of(a, controller_epoch_path())) == 1);
}

BOOST_AUTO_TEST_CASE(a_new_controller_takes_a_higher_epoch_after_the_old_one_expired) {
  auto store = std::make_shared<embedded_store>();
  auto a = std::make_unique<embedded_coordinator>(store);
  registered(*a, 1);
  store->expire_session(a->session()); // its /controller and /brokers/ids/1 vanish
  embedded_coordinator b{store};
  auto rb = registered(b, 2);
  BOOST_TEST(rb.controller_id == 2);
  BOOST_TEST(rb.controller_epoch == 2);
}

BOOST_AUTO_TEST_CASE(a_duplicate_broker_id_is_refused) {
  auto store = std::make_shared<embedded_store>();
  embedded_coordinator a{store}, b{store};
  registered(a, 1);
  std::optional<result<registration_result>> out;
  register_broker(b, broker_registration{1, "127.0.0.1", 9092, 9192, ""},
                  [&](result<registration_result> r) { out = r; });
  BOOST_REQUIRE(out);
  BOOST_TEST((out->error() == errc::node_exists));
}

BOOST_AUTO_TEST_CASE(topics_are_published_and_unpublished) {
  auto store = std::make_shared<embedded_store>();
  embedded_coordinator c{store};
  registered(c, 0);
  topic_assignment assignment{{{0}, {0}, {0}}, {}, {}};
  std::optional<status> published;
  publish_topic(c, "orders", assignment, partition_state{0, 0, 1, {0}}, topic_config{{{"retention.ms", "1000"}}},
                [&](status st) { published = st; });
  BOOST_REQUIRE(published);
  BOOST_REQUIRE(*published);
  BOOST_TEST((*decode_topic_assignment(*data_of(c, topic_path("orders"))) == assignment));
  BOOST_TEST(decode_partition_state(*data_of(c, partition_state_path("orders", 2)))->leader == 0);
  BOOST_TEST(decode_topic_config(*data_of(c, topic_config_path("orders")))->entries.at("retention.ms") == "1000");
  std::optional<status> removed;
  unpublish_topic(c, "orders", 3, [&](status st) { removed = st; });
  BOOST_REQUIRE(removed);
  BOOST_TEST(static_cast<bool>(*removed));
  BOOST_TEST(!data_of(c, topic_path("orders")));
  BOOST_TEST(!data_of(c, topic_config_path("orders")));
}

BOOST_AUTO_TEST_SUITE_END()
