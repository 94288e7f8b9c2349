// The cluster_tests binary: tests of cluster/ (coordinator, embedded store, paths, znode data,
// election, placement, leader choice).
#define BOOST_TEST_MODULE cluster_tests
#include <boost/test/unit_test.hpp>
