#pragma once
// For the suites that run brokers in-process (actors_tests, client_tests): their INFO lines
// (leadership, groups, shutdowns) would bury a failed check's message in the output ctest
// prints; only WARN and ERROR are written unless CAFKA_TEST_LOG_LEVEL says otherwise
// (e.g. CAFKA_TEST_LOG_LEVEL=info when a failure needs the story). Include from main.cpp
// only: it defines the global fixture.

#include <cstdlib>

#include <boost/test/unit_test.hpp>

#include "actors/log_line.hpp"

namespace cafka::test {

struct quiet_server_logs {
  quiet_server_logs() {
    config::log_levels levels;
    levels.all = config::log_level::warn;
    if (auto* chosen = std::getenv("CAFKA_TEST_LOG_LEVEL"))
      levels.all = config::parse_log_level(chosen).value_or(levels.all);
    set_log_levels(levels);
  }
};

BOOST_TEST_GLOBAL_FIXTURE(quiet_server_logs);

} // namespace cafka::test
