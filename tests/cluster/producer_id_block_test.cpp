// Producer id blocks (cluster/producer_id_block.hpp), their claim through the coordinator
// (producer_id_claim.hpp) on the embedded store and on a real ZooKeeper server, and the pool
// that hands out the ids (producer_id_pool.hpp).
#include "cluster/producer_id_block.hpp"
#include "cluster/producer_id_claim.hpp"
#include "cluster/producer_id_pool.hpp"

#include <algorithm>
#include <condition_variable>
#include <limits>
#include <mutex>
#include <set>
#include <thread>

#include "tests/cluster/async_fixtures.hpp"

using namespace cafka::cluster;
using cafka::result;
using cafka::status;
using cafka::test::store_fixture;
namespace async = cafka::test::async;
namespace tt = boost::test_tools;

namespace cafka::cluster {
inline std::ostream& operator<<(std::ostream& os, const producer_id_block& b) {
  return os << "block(broker " << b.broker << ", " << b.start << ".." << b.end << ')';
}
} // namespace cafka::cluster

namespace {

constexpr int64_t int64_max = std::numeric_limits<int64_t>::max();
const std::string path = producer_id_block_path;

producer_id_block block(int32_t broker, int64_t start, int64_t end) {
  return {broker, start, end};
}

std::error_code code(std::errc e) {
  return std::make_error_code(e);
}

// Forwards to `inner`, counting reads and recording failed writes; with `refuse_sets`, every
// set fails with bad_version without reaching the store (a claim that always loses).
struct spy final : coordinator {
  explicit spy(coordinator& c) : inner(c) {}
  coordinator& inner;
  int gets = 0;
  bool refuse_sets = false;
  std::vector<std::error_code> write_errors;

  session_id session() const override { return inner.session(); }
  session_state state() const override { return inner.state(); }
  void create(const std::string& p, std::string_view data, create_mode mode,
              create_callback done) override {
    inner.create(p, data, mode, [this, done](result<std::string> r) {
      if (!r)
        write_errors.push_back(r.error());
      done(std::move(r));
    });
  }
  void remove(const std::string& p, int32_t version, status_callback done) override {
    inner.remove(p, version, std::move(done));
  }
  void exists(const std::string& p, watcher w, exists_callback done) override {
    inner.exists(p, std::move(w), std::move(done));
  }
  void get(const std::string& p, watcher w, get_callback done) override {
    ++gets;
    inner.get(p, std::move(w), std::move(done));
  }
  void set(const std::string& p, std::string_view data, int32_t version,
           set_callback done) override {
    if (refuse_sets) {
      write_errors.push_back(errc::bad_version);
      done(errc::bad_version);
      return;
    }
    inner.set(p, data, version, [this, done](result<node_stat> r) {
      if (!r)
        write_errors.push_back(r.error());
      done(std::move(r));
    });
  }
  void children(const std::string& p, watcher w, children_callback done) override {
    inner.children(p, std::move(w), std::move(done));
  }
  void close() override { inner.close(); }
};

// With the embedded store a claim made outside a callback completes before it returns.
result<producer_id_block> claim_now(coordinator& c, int32_t broker, int64_t size = producer_id_block_size,
                                    int attempts = producer_id_claim_attempts) {
  return cafka::test::call<producer_id_block>(
    [&](auto cb) { claim_producer_id_block(c, broker, cb, size, attempts); });
}

// Claims on `a` and `b` issued from inside a callback: the embedded store then queues their
// completions, so both read the same znode version before either writes — a real race.
std::pair<result<producer_id_block>, result<producer_id_block>> race(coordinator& a, coordinator& b) {
  std::optional<result<producer_id_block>> ra, rb;
  a.exists("/", {}, [&](result<std::optional<node_stat>>) {
    claim_producer_id_block(a, 1, [&](result<producer_id_block> r) { ra.emplace(std::move(r)); });
    claim_producer_id_block(b, 2, [&](result<producer_id_block> r) { rb.emplace(std::move(r)); });
  });
  BOOST_REQUIRE(ra.has_value());
  BOOST_REQUIRE(rb.has_value());
  return {std::move(*ra), std::move(*rb)};
}

bool disjoint(const std::vector<producer_id_block>& blocks) {
  auto sorted = blocks;
  std::sort(sorted.begin(), sorted.end(), [](auto& x, auto& y) { return x.start < y.start; });
  for (size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i].start <= sorted[i - 1].end)
      return false;
  return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(producer_id_block_text)

BOOST_AUTO_TEST_CASE(encodes_exactly_what_kafka_writes) {
  BOOST_TEST(encode_producer_id_block(block(2, 3000, 3999))
             == R"({"version":1,"broker":2,"block_start":"3000","block_end":"3999"})");
}

BOOST_AUTO_TEST_CASE(round_trips) {
  for (auto b : {block(0, 0, 999), block(2, 3000, 3999), block(1001, 5, 5),
                 block(std::numeric_limits<int32_t>::max(), int64_max - 999, int64_max)})
    BOOST_TEST(*decode_producer_id_block(encode_producer_id_block(b)) == b);
}

BOOST_AUTO_TEST_CASE(reads_spacing_any_key_order_and_unknown_scalar_keys) {
  auto b = decode_producer_id_block(
    " {\n  \"block_end\" : \"1999\", \"note\":\"x\\\"y\", \"flag\":true, \"n\":null, \"k\":-3,\n"
    "  \"block_start\":\"1000\", \"broker\":7, \"version\":1 }\n");
  BOOST_REQUIRE(b.has_value());
  BOOST_TEST(*b == block(7, 1000, 1999));
}

BOOST_AUTO_TEST_CASE(rejects_anything_else) {
  for (std::string_view text : {
         "",
         "{}",
         "[]",
         "null",
         R"({"version":1,"broker":2,"block_start":"3000"})",                         // no end
         R"({"version":1,"broker":2,"block_start":3000,"block_end":3999})",          // numbers
         R"({"version":"1","broker":2,"block_start":"3000","block_end":"3999"})",    // quoted version
         R"({"version":2,"broker":2,"block_start":"3000","block_end":"3999"})",      // version 2
         R"({"version":1,"broker":-1,"block_start":"3000","block_end":"3999"})",     // broker < 0
         R"({"version":1,"broker":2147483648,"block_start":"0","block_end":"9"})",   // broker > int32
         R"({"version":1,"broker":2,"block_start":"4000","block_end":"3999"})",      // start > end
         R"({"version":1,"broker":2,"block_start":"-1","block_end":"3999"})",        // negative
         R"({"version":1,"broker":2,"block_start":"+1","block_end":"3999"})",        // sign
         R"({"version":1,"broker":2,"block_start":" 1","block_end":"3999"})",        // space
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9223372036854775808"})",
         R"({"version":1,"broker":2,"block_start":"\u0030","block_end":"3999"})",    // escape
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9","version":1})", // repeated
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9","x":{}})",     // nested
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9","x":1.5})",    // fraction
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9"} x)",          // trailing
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9",})",           // comma
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9)",              // unterminated
         R"({"version":1,"broker":2,"block_start":"0","block_end":"9\)",
         "version=1\nbroker=2\n",
       })
    BOOST_TEST(decode_producer_id_block(text).error() == errc::malformed_data, text);
}

BOOST_AUTO_TEST_CASE(next_block_follows_the_previous_one) {
  BOOST_TEST(*next_block(std::nullopt, 3) == block(3, 0, 999));
  BOOST_TEST(*next_block(block(1, 0, 999), 2) == block(2, 1000, 1999));
  BOOST_TEST(*next_block(block(1, 3000, 3999), 2, 10) == block(2, 4000, 4009));
  BOOST_TEST(*next_block(std::nullopt, 1, 1) == block(1, 0, 0));
  // The last block ends at INT64_MAX; one more is refused (Kafka: "exhausted all producerIds").
  BOOST_TEST(*next_block(block(1, 0, int64_max - 1000), 2) == block(2, int64_max - 999, int64_max));
  BOOST_TEST(next_block(block(1, 0, int64_max - 999), 2).error() == code(std::errc::value_too_large));
  BOOST_TEST(next_block(block(1, 0, int64_max), 2, 1).error() == code(std::errc::value_too_large));
  BOOST_TEST(next_block(std::nullopt, 1, 0).error() == code(std::errc::invalid_argument));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_SUITE(producer_id_claim_embedded, store_fixture)

BOOST_AUTO_TEST_CASE(a_missing_znode_is_created_with_the_first_block) {
  auto c = open();
  BOOST_TEST(*claim_now(*c, 1) == block(1, 0, 999));
  auto node = cafka::test::get(*c, path);
  BOOST_REQUIRE(node.has_value());
  BOOST_TEST(node->data == R"({"version":1,"broker":1,"block_start":"0","block_end":"999"})");
  BOOST_TEST(node->stat.version == 0);
  auto other = open();
  BOOST_TEST(*claim_now(*other, 2) == block(2, 1000, 1999));
  BOOST_TEST(*claim_now(*c, 1) == block(1, 2000, 2999));
  BOOST_TEST(cafka::test::get(*c, path)->stat.version == 2);
}

BOOST_AUTO_TEST_CASE(an_empty_znode_gets_the_first_block) {
  // Kafka 2.x brokers create /latest_producer_id_block empty at startup.
  auto c = open();
  BOOST_REQUIRE(cafka::test::create(*c, path));
  BOOST_TEST(*claim_now(*c, 4) == block(4, 0, 999));
  BOOST_TEST(cafka::test::get(*c, path)->stat.version == 1);
}

BOOST_AUTO_TEST_CASE(racing_creates_end_in_disjoint_blocks) {
  auto a = open(), b = open();
  spy sa{*a}, sb{*b};
  auto [ra, rb] = race(sa, sb);
  BOOST_TEST(*ra == block(1, 0, 999));
  BOOST_TEST(*rb == block(2, 1000, 1999)); // lost the create, read again, took the next block
  BOOST_TEST(sa.write_errors.empty());
  BOOST_TEST(sb.write_errors == std::vector<std::error_code>{make_error_code(errc::node_exists)},
             tt::per_element());
  BOOST_TEST(sb.gets == 2);
}

BOOST_AUTO_TEST_CASE(a_version_conflict_is_retried) {
  auto a = open(), b = open();
  BOOST_REQUIRE(claim_now(*a, 1)); // 0..999
  spy sa{*a}, sb{*b};
  auto [ra, rb] = race(sa, sb);
  BOOST_TEST(*ra == block(1, 1000, 1999));
  BOOST_TEST(*rb == block(2, 2000, 2999));
  BOOST_TEST(sb.write_errors == std::vector<std::error_code>{make_error_code(errc::bad_version)},
             tt::per_element());
  BOOST_TEST(sb.gets == 2);
  auto node = cafka::test::get(*a, path);
  BOOST_TEST(node->stat.version == 2);
  BOOST_TEST(*decode_producer_id_block(node->data) == block(2, 2000, 2999));
}

BOOST_AUTO_TEST_CASE(gives_up_after_the_attempts) {
  auto c = open();
  BOOST_REQUIRE(claim_now(*c, 1));
  spy s{*c};
  s.refuse_sets = true;
  BOOST_TEST(claim_now(s, 1).error() == errc::bad_version);
  BOOST_TEST(s.gets == producer_id_claim_attempts);
  s.gets = 0;
  BOOST_TEST(claim_now(s, 1, producer_id_block_size, 3).error() == errc::bad_version);
  BOOST_TEST(s.gets == 3);
  BOOST_TEST(cafka::test::get(*c, path)->stat.version == 0); // nothing was written
}

BOOST_AUTO_TEST_CASE(a_corrupt_znode_is_an_error_and_stays) {
  auto c = open();
  BOOST_REQUIRE(cafka::test::create(*c, path, "version=1\nblock_end=999\n"));
  BOOST_TEST(claim_now(*c, 1).error() == errc::malformed_data);
  BOOST_TEST(cafka::test::get(*c, path)->data == "version=1\nblock_end=999\n");
  BOOST_TEST(cafka::test::get(*c, path)->stat.version == 0);
}

BOOST_AUTO_TEST_CASE(exhausted_ids_are_an_error) {
  auto c = open();
  BOOST_REQUIRE(cafka::test::create(*c, path, encode_producer_id_block(block(1, 0, int64_max - 999))));
  BOOST_TEST(claim_now(*c, 1).error() == code(std::errc::value_too_large));
  BOOST_REQUIRE(cafka::test::set(*c, path, encode_producer_id_block(block(1, 0, int64_max - 1000))));
  BOOST_TEST(*claim_now(*c, 1) == block(1, int64_max - 999, int64_max));
}

BOOST_AUTO_TEST_CASE(session_errors_are_passed_on) {
  auto c = open();
  store->disconnect_session(c->session());
  BOOST_TEST(claim_now(*c, 1).error() == errc::connection_loss);
  store->reconnect_session(c->session());
  BOOST_TEST(*claim_now(*c, 1) == block(1, 0, 999));
  std::shared_ptr<coordinator> gone = open();
  auto claimer = producer_id_claimer(gone, 1);
  gone.reset();
  BOOST_TEST(cafka::test::call<producer_id_block>(claimer).error() == errc::closed);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(producer_id_claim_zookeeper)

BOOST_AUTO_TEST_CASE(two_sessions_claiming_at_once_get_disjoint_blocks) {
  auto connect = async::fresh_chroot(); // the znode lives under the chroot
  auto a = async::open_zookeeper(connect), b = async::open_zookeeper(connect);
  std::mutex m;
  std::condition_variable cv;
  std::vector<result<producer_id_block>> results;
  auto collect = [&](result<producer_id_block> r) {
    std::lock_guard<std::mutex> guard{m};
    results.push_back(std::move(r));
    cv.notify_all();
  };
  constexpr int per_session = 4; // 8 claimers racing: each needs at most 8 attempts
  for (int i = 0; i < per_session; ++i) {
    claim_producer_id_block(*a, 1, collect);
    claim_producer_id_block(*b, 2, collect);
  }
  {
    std::unique_lock<std::mutex> lock{m};
    BOOST_REQUIRE(cv.wait_for(lock, async::wait_limit, [&] { return results.size() == 2 * per_session; }));
  }
  std::vector<producer_id_block> blocks;
  for (auto& r : results) {
    BOOST_REQUIRE_MESSAGE(r.has_value(), r.error().message());
    blocks.push_back(*r);
  }
  BOOST_TEST(disjoint(blocks));
  auto of_broker_1 = std::count_if(blocks.begin(), blocks.end(), [](auto& x) { return x.broker == 1; });
  BOOST_TEST(of_broker_1 == per_session);
  auto highest =
    std::max_element(blocks.begin(), blocks.end(), [](auto& x, auto& y) { return x.end < y.end; });
  BOOST_TEST(highest->end == 2 * per_session * producer_id_block_size - 1); // no block skipped

  auto root = async::open_zookeeper(async::shared_zookeeper().hosts());
  auto node = async::get(*root, connect.substr(connect.find('/')) + path);
  BOOST_REQUIRE(node.has_value());
  BOOST_TEST(*decode_producer_id_block(node->data) == *highest);
  BOOST_TEST(node->stat.version == 2 * per_session - 1);
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

// Claims that complete when the test says so, in blocks of `size`.
struct manual_claims {
  int64_t size = 5;
  std::optional<producer_id_block> last;
  std::vector<producer_id_block_callback> pending;

  producer_id_pool::claim_function function() {
    return [this](producer_id_block_callback cb) { pending.push_back(std::move(cb)); };
  }
  void complete() {
    BOOST_REQUIRE(!pending.empty());
    auto cb = std::move(pending.front());
    pending.erase(pending.begin());
    last = *next_block(last, 1, size);
    cb(*last);
  }
  void fail(std::error_code ec) {
    BOOST_REQUIRE(!pending.empty());
    auto cb = std::move(pending.front());
    pending.erase(pending.begin());
    cb(ec);
  }
};

// Records what next() delivers.
struct ids {
  std::vector<result<int64_t>> got;
  producer_id_pool::id_callback into() {
    return [this](result<int64_t> r) { got.push_back(std::move(r)); };
  }
  std::vector<int64_t> values() const {
    std::vector<int64_t> out;
    for (auto& r : got)
      if (r)
        out.push_back(*r);
    return out;
  }
};

bool strictly_increasing(const std::vector<int64_t>& v) {
  return std::adjacent_find(v.begin(), v.end(), [](auto x, auto y) { return x >= y; }) == v.end();
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(producer_id_pool_suite, store_fixture)

BOOST_AUTO_TEST_CASE(ids_increase_across_blocks_of_two_brokers) {
  std::shared_ptr<coordinator> a = open(), b = open();
  producer_id_pool pa{producer_id_claimer(a, 1, 10)}, pb{producer_id_claimer(b, 2, 10)};
  ids from_a, from_b;
  for (int i = 0; i < 35; ++i) {
    pa.next(from_a.into());
    pb.next(from_b.into());
  }
  auto va = from_a.values(), vb = from_b.values();
  BOOST_TEST(va.size() == 35u);
  BOOST_TEST(vb.size() == 35u);
  BOOST_TEST(strictly_increasing(va));
  BOOST_TEST(strictly_increasing(vb));
  std::set<int64_t> all(va.begin(), va.end());
  all.insert(vb.begin(), vb.end());
  BOOST_TEST(all.size() == 70u); // unique across both brokers
}

BOOST_AUTO_TEST_CASE(callers_wait_for_the_first_block_and_the_next_is_claimed_ahead) {
  manual_claims claims; // blocks of 5
  producer_id_pool pool{claims.function(), 3};
  ids got;
  pool.next(got.into());
  pool.next(got.into());
  BOOST_TEST(got.got.empty());
  BOOST_TEST(claims.pending.size() == 1u); // one claim for both
  claims.complete();                        // 0..4
  BOOST_TEST(got.values() == (std::vector<int64_t>{0, 1}), tt::per_element());
  BOOST_TEST(claims.pending.empty());
  pool.next(got.into()); // 2: two left, below 3: the next block is claimed ahead
  BOOST_TEST(claims.pending.size() == 1u);
  pool.next(got.into()); // 3 and 4 still come from the current block
  pool.next(got.into());
  BOOST_TEST(got.values() == (std::vector<int64_t>{0, 1, 2, 3, 4}), tt::per_element());
  pool.next(got.into()); // waits for the block claimed ahead
  BOOST_TEST(got.got.size() == 5u);
  BOOST_TEST(claims.pending.size() == 1u); // no second claim meanwhile
  claims.complete();                        // 5..9
  BOOST_TEST(got.values() == (std::vector<int64_t>{0, 1, 2, 3, 4, 5}), tt::per_element());
  BOOST_TEST(claims.pending.empty()); // four left: no claim yet
}

BOOST_AUTO_TEST_CASE(more_waiters_than_a_block_holds_get_further_blocks) {
  manual_claims claims;
  producer_id_pool pool{claims.function(), 0};
  ids got;
  for (int i = 0; i < 12; ++i)
    pool.next(got.into());
  claims.complete();
  BOOST_TEST(got.got.size() == 5u);
  claims.complete();
  claims.complete();
  BOOST_TEST(got.values() == (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}), tt::per_element());
  BOOST_TEST(claims.pending.empty());
}

BOOST_AUTO_TEST_CASE(a_failed_claim_fails_the_waiters_and_the_next_call_claims_again) {
  manual_claims claims;
  producer_id_pool pool{claims.function(), 0};
  ids got;
  pool.next(got.into());
  pool.next(got.into());
  claims.fail(make_error_code(errc::connection_loss));
  BOOST_REQUIRE(got.got.size() == 2u);
  BOOST_TEST(got.got[0].error() == errc::connection_loss);
  BOOST_TEST(got.got[1].error() == errc::connection_loss);
  BOOST_TEST(claims.pending.empty()); // not retried in a loop
  pool.next(got.into());
  claims.complete();
  BOOST_TEST(got.values() == std::vector<int64_t>{0}, tt::per_element());
}

BOOST_AUTO_TEST_CASE(destroying_the_pool_with_a_claim_in_flight_is_safe) {
  manual_claims claims;
  ids got;
  {
    producer_id_pool pool{claims.function()};
    pool.next(got.into());
  }
  claims.complete();
  BOOST_TEST(got.got.empty());
}

BOOST_AUTO_TEST_CASE(threads_get_unique_ids) {
  std::shared_ptr<coordinator> c = open();
  producer_id_pool pool{producer_id_claimer(c, 1, 50)};
  std::mutex m;
  std::vector<int64_t> all;
  int errors = 0; // Boost.Test's checks are for the main thread only
  auto worker = [&] {
    for (int i = 0; i < 500; ++i)
      pool.next([&](result<int64_t> r) {
        std::lock_guard<std::mutex> guard{m};
        if (r)
          all.push_back(*r);
        else
          ++errors;
      });
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back(worker);
  for (auto& t : threads)
    t.join();
  BOOST_TEST(errors == 0);
  BOOST_TEST(all.size() == 2000u);
  BOOST_TEST(std::set<int64_t>(all.begin(), all.end()).size() == 2000u);
}

BOOST_AUTO_TEST_SUITE_END()
