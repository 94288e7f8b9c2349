// The one translation unit that defines the test module (and with it main()).
#define BOOST_TEST_MODULE protocol_tests
#include <boost/test/unit_test.hpp>
