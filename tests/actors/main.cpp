#define BOOST_TEST_MODULE actors_tests
#include <boost/test/unit_test.hpp>

#include "tests/support/quiet_server_logs.hpp"
