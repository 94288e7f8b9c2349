// The one translation unit that defines the test module (and with it main()).
#define BOOST_TEST_MODULE client_tests
#include <boost/test/unit_test.hpp>

#include "tests/support/quiet_server_logs.hpp"
