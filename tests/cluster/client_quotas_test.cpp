// Client quotas as pure logic (cluster/client_quotas.hpp): Kafka's precedence of entities,
// whose budget a quota charges, the windowed rate and the throttle time.
#include <boost/test/unit_test.hpp>

#include "cluster/client_quotas.hpp"

using namespace cafka::cluster;

namespace {

using part = entity_part;
constexpr auto produce = quota_kind::producer_byte_rate;
constexpr auto fetch = quota_kind::consumer_byte_rate;
constexpr auto request = quota_kind::request_percentage;

quota_entity user_client(part u, part c) { return {std::move(u), std::move(c)}; }

} // namespace

BOOST_AUTO_TEST_SUITE(client_quotas)

BOOST_AUTO_TEST_CASE(keys_are_kafkas) {
  BOOST_TEST((quota_kind_of("producer_byte_rate") == produce));
  BOOST_TEST((quota_kind_of("consumer_byte_rate") == fetch));
  BOOST_TEST((quota_kind_of("request_percentage") == request));
  BOOST_TEST(!quota_kind_of("controller_mutation_rate").has_value());
  BOOST_TEST(key_of(fetch) == std::string("consumer_byte_rate"));
}

BOOST_AUTO_TEST_CASE(the_most_specific_of_the_eight_levels_wins_per_key) {
  quota_table t;
  BOOST_TEST(!t.match(produce, "ANONYMOUS", "app").has_value()); // nothing configured: unlimited
  t.set(user_client(part::absent(), part::any_default()), produce, 8);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 8);
  t.set(user_client(part::absent(), part::named_as("app")), produce, 7);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 7);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "other")->limit == 8);
  t.set(user_client(part::any_default(), part::absent()), produce, 6);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 6);
  t.set(user_client(part::any_default(), part::any_default()), produce, 5);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 5);
  t.set(user_client(part::any_default(), part::named_as("app")), produce, 4);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 4);
  t.set(user_client(part::named_as("ANONYMOUS"), part::absent()), produce, 3);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 3);
  BOOST_TEST(t.match(produce, "alice", "app")->limit == 4);
  t.set(user_client(part::named_as("ANONYMOUS"), part::any_default()), produce, 2);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 2);
  t.set(user_client(part::named_as("ANONYMOUS"), part::named_as("app")), produce, 1);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 1);
  // Each key on its own: a fetch quota set nowhere stays unlimited; removing falls back.
  BOOST_TEST(!t.match(fetch, "ANONYMOUS", "app").has_value());
  t.remove(user_client(part::named_as("ANONYMOUS"), part::named_as("app")), produce);
  BOOST_TEST(t.match(produce, "ANONYMOUS", "app")->limit == 2);
}

BOOST_AUTO_TEST_CASE(no_merging_across_levels) {
  quota_table t;
  t.set(user_client(part::absent(), part::named_as("app")), fetch, 100);
  t.set(user_client(part::absent(), part::named_as("app")), produce, 50);
  t.set(user_client(part::named_as("bob"), part::absent()), produce, 10);
  BOOST_TEST(t.match(produce, "bob", "app")->limit == 10);
  BOOST_TEST(t.match(fetch, "bob", "app")->limit == 100); // bob's entity has no fetch key
}

BOOST_AUTO_TEST_CASE(the_matched_level_decides_whose_budget_is_charged) {
  quota_table t;
  t.set(user_client(part::absent(), part::any_default()), produce, 1);
  auto by_client = t.match(produce, "ANONYMOUS", "app");
  BOOST_TEST(by_client->user_tag == "");
  BOOST_TEST(by_client->client_tag == "app"); // each client-id its own budget
  t.set(user_client(part::any_default(), part::absent()), produce, 1);
  auto by_user = t.match(produce, "bob", "app");
  BOOST_TEST(by_user->user_tag == "bob");
  BOOST_TEST(by_user->client_tag == "");
  t.set(user_client(part::named_as("bob"), part::any_default()), produce, 1);
  auto both = t.match(produce, "bob", "app");
  BOOST_TEST(both->user_tag == "bob");
  BOOST_TEST(both->client_tag == "app");
  quota_table clients_only;
  clients_only.set(user_client(part::absent(), part::any_default()), produce, 1);
  BOOST_TEST(!clients_only.match(produce, "ANONYMOUS", "").has_value()); // no client-id: no budget
}

BOOST_AUTO_TEST_CASE(a_fresh_budget_is_judged_over_samples_minus_one_windows) {
  windowed_rate r{11, 1000};
  r.record(20'000'000, 0);
  BOOST_TEST(r.window_size(0) == 10'000);
  BOOST_TEST(r.rate(0) == 2'000'000.0);
  // Kafka's example: a 1 MB/s quota, 20 MB at once: wait 10 s.
  BOOST_TEST(throttle_time_ms(r.rate(0), 1'000'000, r.window_size(0)) == 10'000);
  BOOST_TEST(throttle_time_ms(999, 1000, 10'000) == 0);
  BOOST_TEST(throttle_time_ms(1500, 1000, 10'000) == 5'000);
}

BOOST_AUTO_TEST_CASE(old_samples_leave_the_window) {
  windowed_rate r{11, 1000};
  for (int64_t t = 0; t < 30'000; t += 100)
    r.record(100, t); // 1000 per second, steadily
  BOOST_TEST(r.rate(30'000) > 950.0);
  BOOST_TEST(r.rate(30'000) < 1050.0);
  BOOST_TEST(r.window_size(30'000) <= 11'000);
  BOOST_TEST(r.rate(60'000) == 0.0); // silent for more than all the windows
}

BOOST_AUTO_TEST_CASE(a_client_over_its_quota_is_throttled_and_one_under_it_is_not) {
  quota_table t;
  t.set(user_client(part::absent(), part::named_as("slow")), produce, 1'000'000);
  quota_usage usage;
  int64_t slow_throttle = 0, fast_throttle = 0;
  for (int64_t now = 0; now < 20'000; now += 100) { // 2 MB/s each
    slow_throttle = usage.record(t, produce, "ANONYMOUS", "slow", 200'000, now);
    fast_throttle = usage.record(t, produce, "ANONYMOUS", "fast", 200'000, now);
  }
  BOOST_TEST(slow_throttle > 5'000); // twice its quota: about as long again as the window
  BOOST_TEST(fast_throttle == 0);    // no quota applies
}

BOOST_AUTO_TEST_CASE(request_time_throttles_are_capped_at_one_window) {
  quota_table t;
  t.set(user_client(part::absent(), part::any_default()), request, 10); // 10 % of a thread
  quota_usage usage{11, 1};
  auto throttle = usage.record(t, request, "ANONYMOUS", "busy", 5'000, 0); // 50 s of thread time
  BOOST_TEST(throttle == 1'000);
}

BOOST_AUTO_TEST_SUITE_END()
