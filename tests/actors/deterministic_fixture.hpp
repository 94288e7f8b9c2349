#pragma once
// An actor system under CAF's deterministic test scheduler: no threads run on their
// own; the test drives messages (run()) and simulated time (advance()).

#include <chrono>
#include <filesystem>
#include <string>

#include <boost/test/unit_test.hpp>
#include <caf/all.hpp>

#include "actors/system_config.hpp"

namespace cafka::test {

struct deterministic_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  caf::scoped_actor self;
  caf::scheduler::test_coordinator& sched;
  /// The wall clock the actors see (ms since the epoch), moved by advance().
  int64_t now = 1'700'000'000'000;

  static caf::actor_system_config& prepare(caf::actor_system_config& c) {
    register_cafka_types(c);
    c.set("scheduler.policy", caf::atom("testing"));
    c.set("logger.inline-output", true);
    return c;
  }

  deterministic_fixture()
    : sys(prepare(cfg)),
      self(sys, true),
      sched(dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())) {}

  ~deterministic_fixture() { run_all(); }

  /// Handles every queued message (no timers).
  void run() { sched.run(); }

  /// Moves simulated time (and the actors' wall clock) forward, firing due timers.
  void advance(std::chrono::milliseconds d) {
    now += d.count();
    sched.clock().advance_time(d);
    sched.run();
  }

  /// Messages and timers until idle.
  void run_all() {
    for (;;) {
      auto k = sched.run();
      if (sched.trigger_timeout())
        ++k;
      if (k == 0)
        return;
    }
  }

  std::function<int64_t()> clock() {
    return [this] { return now; };
  }

  /// Receives the reply of `request` (a handle returned by self->request); fails the
  /// test instead of blocking when nothing is queued.
  template <class Handle, class... Fs>
  void expect_reply(Handle& request, Fs... fs) {
    BOOST_REQUIRE_MESSAGE(!self->mailbox().empty(), "no reply queued");
    request.receive(fs..., [](caf::error& e) { BOOST_FAIL("unexpected error: " << caf::to_string(e)); });
  }

  /// Receives the error reply of `request`; `Reply` is the success type it must not get.
  template <class Reply, class Handle, class F>
  void expect_error(Handle& request, F f) {
    BOOST_REQUIRE_MESSAGE(!self->mailbox().empty(), "no reply queued");
    request.receive([](Reply&) { BOOST_FAIL("expected an error"); }, f);
  }
};

/// A fresh folder under /tmp, removed at destruction.
struct temp_folder {
  std::string path;
  temp_folder() {
    char tmpl[] = "/tmp/cafka-actors-XXXXXX";
    path = ::mkdtemp(tmpl);
  }
  ~temp_folder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

} // namespace cafka::test
