// cluster::errc as std::error_code.
#include "cluster/errc.hpp"

#include <boost/test/unit_test.hpp>

using namespace cafka::cluster;

BOOST_AUTO_TEST_SUITE(cluster_errc)

BOOST_AUTO_TEST_CASE(codes_have_a_category_and_messages) {
  std::error_code ec = errc::no_node;
  BOOST_TEST(ec.category().name() == std::string("cafka.cluster"));
  BOOST_TEST(ec.message() == "no such node");
  for (int e = static_cast<int>(errc::no_node); e <= static_cast<int>(errc::invalid_replica_assignment); ++e)
    BOOST_TEST(make_error_code(static_cast<errc>(e)).message() != "unknown cluster error");
}

BOOST_AUTO_TEST_CASE(classifiers) {
  BOOST_TEST(is_retriable(errc::connection_loss));
  BOOST_TEST(!is_retriable(errc::session_expired));
  BOOST_TEST(needs_new_session(errc::session_expired));
  BOOST_TEST(needs_new_session(errc::closed));
  BOOST_TEST(!needs_new_session(errc::connection_loss));
  BOOST_TEST(!needs_new_session(errc::no_node));
  BOOST_TEST(!needs_new_session(std::error_code{}));
}

BOOST_AUTO_TEST_SUITE_END()
