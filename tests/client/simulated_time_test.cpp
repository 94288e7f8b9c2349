// The producer under CAF's deterministic test scheduler: its linger, retry back-off and
// record timestamps follow SIMULATED time (the actor clock that advance() moves, and
// producer_config::now_ms), not the real clocks — what the in-process simulation (issue 7)
// needs to replay a run from its seed. No sleeps: real time does not matter here, so each
// test failed while the producer read std::chrono::steady_clock / system_clock itself.
//
// The node and its partition are stand-ins (untyped actors cast to the typed handles):
// metadata names one partition, produce answers are counted and scripted.

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/node_actor.hpp"
#include "actors/system_config.hpp"
#include "client/producer_actor.hpp"
#include "client/type_ids.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace std::chrono_literals;

namespace {

// What the stand-in partition saw and how it answers.
struct partition_script {
  int produce_requests = 0;
  /// Answers the first `failures` requests with not_leader_or_follower (retriable).
  int failures = 0;
};

caf::behavior fake_partition(caf::event_based_actor*, std::shared_ptr<partition_script> script) {
  return {
    [=](produce_atom, produce_request&) -> caf::result<produce_result> {
      auto n = script->produce_requests++;
      if (n < script->failures)
        return caf::make_error(kafka_error::not_leader_or_follower, "scripted failure");
      return produce_result{n, -1, 0};
    },
  };
}

// Metadata: topic "t" with one partition, served by `part`.
caf::behavior fake_node(caf::event_based_actor*, caf::actor part) {
  return {
    [=](metadata_atom, metadata_request&) -> cluster_metadata {
      cluster_metadata md;
      md.controller_id = 0;
      partition_metadata pm;
      pm.partition = 0;
      pm.leader = 0;
      pm.replicas = {0};
      pm.actor = caf::actor_cast<partition_actor>(part);
      md.topics.push_back(topic_metadata{"t", 0, {pm}});
      return md;
    },
  };
}

struct simulated_time_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  caf::scheduler::test_coordinator& sched;
  std::shared_ptr<partition_script> script = std::make_shared<partition_script>();
  caf::actor part;
  caf::actor node;
  /// The simulated epoch time the producer stamps records with.
  int64_t epoch_ms = 1'600'000'000'000;

  static caf::actor_system_config& prepare(caf::actor_system_config& c) {
    register_cafka_types(c);
    c.add_message_types<caf::id_block::cafka_client>();
    c.set("scheduler.policy", caf::atom("testing"));
    return c;
  }

  simulated_time_fixture()
    : sys(prepare(cfg)), sched(dynamic_cast<caf::scheduler::test_coordinator&>(sys.scheduler())) {
    part = sys.spawn(fake_partition, script);
    node = sys.spawn(fake_node, part);
  }

  ~simulated_time_fixture() {
    caf::anon_send_exit(node, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(part, caf::exit_reason::user_shutdown);
    sched.run();
  }

  producer_actor spawn(producer_config pc) {
    pc.now_ms = [this] { return epoch_ms; };
    pc.enable_idempotence = false; // the scripted node hands out no producer ids
    return spawn_producer(sys, caf::actor_cast<node_actor>(node), std::move(pc));
  }

  /// Moves simulated time forward and handles what became due.
  void advance(std::chrono::milliseconds d) {
    sched.clock().advance_time(d);
    sched.run();
  }
};

// The error of `r`, for messages (Boost evaluates them even when the check passes).
std::string why(const caf::expected<record_metadata>& r) {
  return r ? std::string{"ok"} : describe(r.error());
}

producer_record record(const std::string& value) {
  return producer_record{"t", std::nullopt, value, {}, std::nullopt, std::nullopt};
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(producer_simulated_time, simulated_time_fixture)

BOOST_AUTO_TEST_CASE(linger_ends_when_simulated_time_has_passed_it) {
  producer_config pc;
  pc.linger = 1000ms;
  pc.batch_size = 1 << 20; // never full: only linger sends the batch
  auto prod = spawn(pc);
  std::optional<caf::expected<record_metadata>> result;
  caf::anon_send(prod, send_atom_v, record("a"), send_callback{[&](caf::expected<record_metadata> r) { result = r; }});
  sched.run(); // metadata arrives; the record lingers
  BOOST_TEST(script->produce_requests == 0);
  advance(999ms);
  BOOST_TEST(script->produce_requests == 0);
  BOOST_TEST(!result.has_value());
  advance(1ms);
  BOOST_TEST(script->produce_requests == 1);
  BOOST_REQUIRE(result.has_value());
  BOOST_REQUIRE_MESSAGE(*result, why(*result));
  BOOST_TEST((*result)->offset == 0);
  // No timestamp given: the producer's configured clock, not the system clock.
  BOOST_TEST((*result)->timestamp == epoch_ms);
  caf::anon_send_exit(prod, caf::exit_reason::user_shutdown);
  sched.run();
}

BOOST_AUTO_TEST_CASE(a_retry_waits_for_its_back_off_in_simulated_time) {
  script->failures = 1;
  producer_config pc;
  pc.linger = 0ms;
  pc.retry_backoff = backoff_policy{500ms, 1000ms};
  auto prod = spawn(pc);
  std::optional<caf::expected<record_metadata>> result;
  caf::anon_send(prod, send_atom_v, record("a"), send_callback{[&](caf::expected<record_metadata> r) { result = r; }});
  sched.run(); // sent at once, failed, metadata refreshed: the retry waits for its back-off
  BOOST_TEST(script->produce_requests == 1);
  BOOST_TEST(!result.has_value());
  advance(499ms);
  BOOST_TEST(script->produce_requests == 1);
  advance(1ms);
  BOOST_TEST(script->produce_requests == 2);
  BOOST_REQUIRE(result.has_value());
  BOOST_REQUIRE_MESSAGE(*result, why(*result));
  BOOST_TEST((*result)->offset == 1);
  caf::anon_send_exit(prod, caf::exit_reason::user_shutdown);
  sched.run();
}

BOOST_AUTO_TEST_CASE(a_given_timestamp_is_kept) {
  producer_config pc;
  pc.linger = 0ms;
  auto prod = spawn(pc);
  auto rec = record("a");
  rec.timestamp = 42;
  std::optional<caf::expected<record_metadata>> result;
  caf::anon_send(prod, send_atom_v, std::move(rec),
                 send_callback{[&](caf::expected<record_metadata> r) { result = r; }});
  sched.run();
  BOOST_REQUIRE(result.has_value());
  BOOST_REQUIRE_MESSAGE(*result, why(*result));
  BOOST_TEST((*result)->timestamp == 42);
  caf::anon_send_exit(prod, caf::exit_reason::user_shutdown);
  sched.run();
}

BOOST_AUTO_TEST_SUITE_END()
