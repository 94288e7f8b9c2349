// A randomized test of the partition log against a plain in-memory model: appends,
// reads, rolls, truncation, retention, flushes, clean and unclean reopens.
// The seed is printed; set CAFKA_SEED to replay one.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <deque>
#include <iostream>
#include <random>

#include "protocol/batch_header.hpp"
#include "storage/partition_log.hpp"
#include "tests/storage/fixtures.hpp"

using namespace cafka;
using namespace cafka::storage;

namespace {

struct model_batch {
  int64_t base = 0;
  int records = 0;
  uint32_t tag = 0;
  int64_t last() const { return base + records - 1; }
};

struct model {
  std::deque<model_batch> batches;
  int64_t next = 0;
  int64_t start() const { return batches.empty() ? next : batches.front().base; }
};

uint64_t pick_seed() {
  if (auto env = std::getenv("CAFKA_SEED"))
    return std::strtoull(env, nullptr, 10);
  return std::random_device{}();
}

} // namespace

BOOST_AUTO_TEST_CASE(partition_log_matches_a_model_under_random_operations) {
  auto seed = pick_seed();
  std::cout << "partition_log model test: CAFKA_SEED=" << seed << std::endl;
  std::mt19937_64 rng(seed);
  auto roll = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };

  test::temp_dir dir;
  auto cfg = test::small_log_config();
  cfg.segment_bytes = 4096;
  model m;
  int64_t now = 1'000'000;
  uint32_t next_tag = 1;
  auto open = [&](int64_t recovery_point, bool clean) {
    auto log = partition_log::open(dir.path(), cfg, recovery_point, clean, now);
    BOOST_REQUIRE_MESSAGE(log, "seed " << seed << ": " << log.error().message());
    return std::move(*log);
  };
  auto log = open(0, false);

  for (int step = 0; step < 3000; ++step) {
    now += roll(50);
    int op = roll(100);
    if (op < 55) { // append 1..3 batches
      std::vector<char> buf;
      std::vector<model_batch> added;
      int64_t base = m.next;
      for (int k = 0, n = 1 + roll(3); k < n; ++k) {
        model_batch b{base, 1 + roll(5), next_tag++};
        auto bytes = test::make_batch(b.records, static_cast<size_t>(4 + roll(600)), now, b.tag);
        buf.insert(buf.end(), bytes.begin(), bytes.end());
        added.push_back(b);
        base += b.records;
      }
      auto info = log->append(buf, now);
      BOOST_REQUIRE_MESSAGE(info, "seed " << seed << " step " << step);
      BOOST_REQUIRE_EQUAL(info->first_offset, m.next);
      for (auto& b : added)
        m.batches.push_back(b);
      m.next = base;
    } else if (op < 80) { // read from a random offset
      int64_t span = m.next - m.start() + 1;
      int64_t offset = m.start() + static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
      auto read = log->read(offset, static_cast<size_t>(1 + roll(5000)));
      BOOST_REQUIRE_MESSAGE(read, "seed " << seed << " step " << step);
      if (offset == m.next) {
        BOOST_REQUIRE(read->empty());
        continue;
      }
      auto it = std::find_if(m.batches.begin(), m.batches.end(),
                             [&](const model_batch& b) { return b.last() >= offset; });
      size_t at = 0;
      for (; at < read->size(); ++it) {
        BOOST_REQUIRE(it != m.batches.end());
        auto h = protocol::validate_batch(protocol::bytes_view(read->data() + at, read->size() - at));
        BOOST_REQUIRE_MESSAGE(h, "seed " << seed << " step " << step);
        BOOST_REQUIRE_EQUAL(h->base_offset, it->base);
        BOOST_REQUIRE_EQUAL(test::batch_tag(read->data() + at, h->total_size()), it->tag);
        at += h->total_size();
      }
      BOOST_REQUIRE(at > 0);
    } else if (op < 85) { // truncate
      int64_t span = m.next - m.start() + 1;
      int64_t offset = m.start() + static_cast<int64_t>(rng() % static_cast<uint64_t>(span));
      BOOST_REQUIRE(log->truncate_to(offset));
      if (offset < m.next) {
        // The batch holding `offset` goes whole; below the start, the log restarts there.
        bool below_start = offset <= m.start();
        while (!m.batches.empty() && m.batches.back().last() >= offset) {
          m.next = m.batches.back().base;
          m.batches.pop_back();
        }
        if (below_start)
          m.next = offset;
      }
    } else if (op < 89) { // size retention
      auto limit = static_cast<int64_t>(roll(20000));
      auto c = cfg;
      c.retention_bytes = limit;
      log->set_config(c);
      auto deleted = log->apply_retention(now);
      BOOST_REQUIRE(deleted);
      log->set_config(cfg);
      while (!m.batches.empty() && m.batches.front().base < log->log_start_offset())
        m.batches.pop_front();
      if (!deleted->empty())
        BOOST_REQUIRE(m.batches.empty() || m.batches.front().base == log->log_start_offset());
    } else if (op < 94) {
      BOOST_REQUIRE(log->flush());
    } else if (op < 97) { // clean restart
      BOOST_REQUIRE(log->close());
      auto point = log->recovery_point();
      log.reset();
      log = open(point, true);
    } else { // crash: drop the object; the recovery point is what was last flushed
      auto point = log->recovery_point();
      log.reset();
      log = open(point, false);
    }
    BOOST_REQUIRE_MESSAGE(log->log_end_offset() == m.next,
                          "seed " << seed << " step " << step << " op " << op << ": end "
                                  << log->log_end_offset() << " != " << m.next);
    BOOST_REQUIRE_MESSAGE(log->log_start_offset() <= m.start(), "seed " << seed << " step " << step);
  }
}
