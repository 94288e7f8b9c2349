// The config_tests binary: tests of config/ (server.properties parsing and validation).
#define BOOST_TEST_MODULE config_tests
#include <boost/test/unit_test.hpp>
