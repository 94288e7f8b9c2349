// Bounced brokers: registered again (a larger epoch) since the controller last acted
// (cluster/broker_epochs.hpp).
#include "cluster/broker_epochs.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(broker_epochs_suite)

namespace {
broker_registration at(int32_t id, int64_t epoch) {
  broker_registration b;
  b.id = id;
  b.epoch = epoch;
  return b;
}
using ids = std::vector<int32_t>;
} // namespace

BOOST_AUTO_TEST_CASE(a_new_controller_finds_no_bounce_in_its_first_view) {
  broker_epochs e;
  BOOST_TEST(e.bounced({at(1, 10), at(2, 20)}) == ids{}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_larger_epoch_than_the_one_acted_on_is_a_bounce_until_acted_on) {
  broker_epochs e;
  e.acted({at(1, 10), at(2, 20), at(3, 30)});
  BOOST_TEST(e.bounced({at(1, 10), at(2, 20), at(3, 30)}) == ids{}, boost::test_tools::per_element());
  auto after = std::vector<broker_registration>{at(3, 31), at(1, 40), at(2, 20)};
  BOOST_TEST(e.bounced(after) == (ids{1, 3}), boost::test_tools::per_element());
  BOOST_TEST(e.bounced(after) == (ids{1, 3}), boost::test_tools::per_element()); // not acted on yet
  e.acted(after);
  BOOST_TEST(e.bounced(after) == ids{}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_broker_seen_gone_returns_as_a_plain_startup) {
  broker_epochs e;
  e.acted({at(1, 10), at(2, 20)});
  e.acted({at(1, 10)}); // broker 2's failure was decided on
  BOOST_TEST(e.bounced({at(1, 10), at(2, 25)}) == ids{}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_new_term_forgets_the_epochs) {
  broker_epochs e;
  e.acted({at(1, 10)});
  e.reset();
  BOOST_TEST(e.bounced({at(1, 11)}) == ids{}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
