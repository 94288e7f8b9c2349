#define BOOST_TEST_MODULE integration_tests
#include <boost/test/unit_test.hpp>
