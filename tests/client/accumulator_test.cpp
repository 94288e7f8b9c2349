#include "client/accumulator.hpp"

#include <string>

#include <boost/test/unit_test.hpp>

#include "protocol/record_batch.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace std::chrono_literals;

namespace {

protocol::record rec(const std::string& key, const std::string& value, int64_t ts = 1000) {
  return protocol::record{key, value, {}, ts};
}

std::vector<protocol::decoded_record> decode(const sealed_batch& b) {
  auto r = protocol::read_records(protocol::bytes_view{b.bytes.data(), b.bytes.size()}, 1 << 20);
  BOOST_REQUIRE(r);
  return *r;
}

const steady_time t0{std::chrono::seconds(1000)};

} // namespace

BOOST_AUTO_TEST_SUITE(accumulator)

BOOST_AUTO_TEST_CASE(a_batch_lingers_until_linger_has_passed) {
  record_accumulator acc{{16384, 5ms, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  auto r = acc.append(tp, rec("k", "v"), 1, t0);
  BOOST_TEST(r.new_batch);
  BOOST_TEST(!r.batch_closed);
  acc.append(tp, rec("k", "w"), 2, t0 + 3ms);
  BOOST_TEST(acc.drain_ready(t0 + 4ms).empty());
  BOOST_TEST((acc.next_deadline() == t0 + 5ms));
  auto ready = acc.drain_ready(t0 + 5ms);
  BOOST_REQUIRE(ready.size() == 1u);
  BOOST_TEST((ready[0].tokens == std::vector<uint64_t>{1, 2}));
  auto recs = decode(ready[0]);
  BOOST_REQUIRE(recs.size() == 2u);
  BOOST_TEST(*recs[0].value == "v");
  BOOST_TEST(*recs[1].value == "w");
  BOOST_TEST(acc.empty());
  BOOST_TEST(!acc.next_deadline());
}

BOOST_AUTO_TEST_CASE(a_batch_is_ready_when_it_reaches_batch_size) {
  std::string value(50, 'x');
  // Three records fill the batch exactly.
  auto one = record_accumulator::record_size(rec("key", value), 0, 1000);
  record_accumulator acc{{protocol::batch_layout::header_size + 3 * one, 1h, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 1};
  BOOST_TEST(!acc.append(tp, rec("key", value), 1, t0).batch_closed);
  BOOST_TEST(!acc.append(tp, rec("key", value), 2, t0).batch_closed);
  BOOST_TEST(acc.drain_ready(t0).empty());
  BOOST_TEST(acc.append(tp, rec("key", value), 3, t0).batch_closed);
  // The batch that just became full is ready without any time passing.
  auto ready = acc.drain_ready(t0);
  BOOST_REQUIRE(ready.size() == 1u);
  BOOST_TEST(ready[0].bytes.size() == protocol::batch_layout::header_size + 3 * one);
  BOOST_TEST((ready[0].tokens == std::vector<uint64_t>{1, 2, 3}));
  BOOST_TEST(acc.empty());
}

BOOST_AUTO_TEST_CASE(a_record_that_does_not_fit_starts_the_next_batch) {
  record_accumulator acc{{200, 1h, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  acc.append(tp, rec("k", std::string(60, 'a')), 1, t0);
  acc.append(tp, rec("k", std::string(60, 'b')), 2, t0);
  auto r = acc.append(tp, rec("k", std::string(60, 'c')), 3, t0 + 1ms);
  BOOST_TEST(r.new_batch);
  BOOST_TEST(r.batch_closed); // the first batch was closed
  BOOST_TEST(acc.batch_count() == 2u);
  auto ready = acc.drain_ready(t0 + 1ms);
  BOOST_REQUIRE(ready.size() == 1u); // the second one still lingers
  BOOST_TEST(ready[0].bytes.size() <= 200u);
  BOOST_TEST((ready[0].tokens == std::vector<uint64_t>{1, 2}));
  auto rest = acc.drain_all();
  BOOST_REQUIRE(rest.size() == 1u);
  BOOST_TEST((rest[0].tokens == std::vector<uint64_t>{3}));
  BOOST_TEST(rest[0].sequence > ready[0].sequence);
  BOOST_TEST((rest[0].created == t0 + 1ms));
}

BOOST_AUTO_TEST_CASE(a_record_larger_than_batch_size_gets_its_own_batch) {
  record_accumulator acc{{100, 1h, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  auto r = acc.append(tp, rec("k", std::string(500, 'z')), 1, t0);
  BOOST_TEST(r.batch_closed);
  auto ready = acc.drain_ready(t0);
  BOOST_REQUIRE(ready.size() == 1u);
  BOOST_TEST(decode(ready[0]).size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_size_estimate_is_exact_without_compression) {
  record_accumulator acc{{1 << 20, 1h, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  size_t expected = protocol::batch_layout::header_size;
  for (int i = 0; i < 300; ++i) {
    protocol::record r{std::nullopt, std::string(static_cast<size_t>(i), 'v'), {{"h", std::string("x")}}, 1000 + i * 7};
    expected += record_accumulator::record_size(r, i, 1000);
    acc.append(tp, r, static_cast<uint64_t>(i), t0);
  }
  auto all = acc.drain_all();
  BOOST_REQUIRE(all.size() == 1u);
  BOOST_TEST(all[0].bytes.size() == expected);
}

BOOST_AUTO_TEST_CASE(partitions_are_batched_separately) {
  record_accumulator acc{{16384, 10ms, protocol::compression_codec::none}};
  acc.append({"t", 0}, rec("a", "1"), 1, t0);
  acc.append({"t", 1}, rec("b", "2"), 2, t0 + 2ms);
  acc.append({"u", 0}, rec("c", "3"), 3, t0 + 4ms);
  BOOST_TEST(acc.batch_count() == 3u);
  auto first = acc.drain_ready(t0 + 11ms);
  BOOST_REQUIRE(first.size() == 1u);
  BOOST_TEST(first[0].tp.topic == "t");
  BOOST_TEST(first[0].tp.partition == 0);
  BOOST_TEST((acc.next_deadline() == t0 + 12ms));
  BOOST_TEST(acc.drain_ready(t0 + 14ms).size() == 2u);
}

BOOST_AUTO_TEST_CASE(flushing_makes_everything_ready) {
  record_accumulator acc{{16384, 1h, protocol::compression_codec::none}};
  acc.append({"t", 0}, rec("a", "1"), 1, t0);
  acc.append({"t", 1}, rec("b", "2"), 2, t0);
  BOOST_TEST(acc.drain_ready(t0).empty());
  acc.set_flushing(true);
  BOOST_TEST(acc.drain_ready(t0).size() == 2u);
}

BOOST_AUTO_TEST_CASE(lz4_batches_decode_to_the_same_records) {
  record_accumulator acc{{1 << 20, 1h, protocol::compression_codec::lz4}};
  for (int i = 0; i < 100; ++i)
    acc.append({"t", 0}, rec("key-" + std::to_string(i), std::string(100, 'q'), 5000 + i), static_cast<uint64_t>(i), t0);
  auto all = acc.drain_all();
  BOOST_REQUIRE(all.size() == 1u);
  auto hdr = protocol::read_batch_header(protocol::bytes_view{all[0].bytes.data(), all[0].bytes.size()});
  BOOST_REQUIRE(hdr);
  BOOST_TEST((hdr->codec() == protocol::compression_codec::lz4));
  auto recs = decode(all[0]);
  BOOST_REQUIRE(recs.size() == 100u);
  BOOST_TEST(*recs[42].key == "key-42");
  BOOST_TEST(recs[42].timestamp == 5042);
  BOOST_TEST(all[0].timestamps[42] == 5042);
}

BOOST_AUTO_TEST_CASE(a_muted_partition_keeps_collecting_into_its_open_batch) {
  // linger 0: a batch is ready as soon as it has a record, unless its partition is muted.
  record_accumulator acc{{16384, 0ms, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  acc.append(tp, rec("k", "a"), 1, t0);
  auto first = acc.drain_ready(t0);
  BOOST_REQUIRE(first.size() == 1u);
  BOOST_TEST((first[0].tokens == std::vector<uint64_t>{1}));
  acc.set_muted(tp, true); // its request is out
  BOOST_TEST(acc.muted(tp));
  auto r = acc.append(tp, rec("k", "b"), 2, t0 + 1ms);
  BOOST_TEST(r.new_batch);
  BOOST_TEST(r.muted);
  r = acc.append(tp, rec("k", "c"), 3, t0 + 2ms);
  BOOST_TEST(!r.new_batch); // joins the open batch
  BOOST_TEST(acc.drain_ready(t0 + 10ms).empty());
  BOOST_TEST(!acc.next_deadline()); // no wakeup for a muted partition
  BOOST_TEST(acc.batch_count() == 1u);
  acc.set_muted(tp, false); // the answer arrived
  BOOST_TEST(!acc.muted(tp));
  auto second = acc.drain_ready(t0 + 10ms);
  BOOST_REQUIRE(second.size() == 1u);
  BOOST_TEST((second[0].tokens == std::vector<uint64_t>{2, 3}));
  auto recs = decode(second[0]);
  BOOST_REQUIRE(recs.size() == 2u);
  BOOST_TEST(*recs[0].value == "b");
  BOOST_TEST(*recs[1].value == "c");
  BOOST_TEST(second[0].sequence > first[0].sequence);
  BOOST_TEST(acc.empty());
}

BOOST_AUTO_TEST_CASE(a_muted_partition_fills_batches_up_to_batch_size_in_order) {
  std::string value(50, 'x');
  auto one = record_accumulator::record_size(rec("key", value), 0, 1000);
  record_accumulator acc{{protocol::batch_layout::header_size + 2 * one, 0ms, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  acc.set_muted(tp, true);
  for (uint64_t token = 1; token <= 5; ++token)
    acc.append(tp, rec("key", value), token, t0);
  BOOST_TEST(acc.batch_count() == 3u); // two full ones and an open one
  BOOST_TEST(acc.drain_ready(t0).empty());
  acc.set_muted(tp, false);
  // One batch per partition and call, oldest first.
  auto a = acc.drain_ready(t0, 1);
  auto b = acc.drain_ready(t0, 1);
  auto c = acc.drain_ready(t0, 1);
  BOOST_REQUIRE((a.size() == 1u && b.size() == 1u && c.size() == 1u));
  BOOST_TEST((a[0].tokens == std::vector<uint64_t>{1, 2}));
  BOOST_TEST((b[0].tokens == std::vector<uint64_t>{3, 4}));
  BOOST_TEST((c[0].tokens == std::vector<uint64_t>{5}));
  BOOST_TEST(a[0].sequence < b[0].sequence);
  BOOST_TEST(b[0].sequence < c[0].sequence);
  BOOST_TEST(acc.drain_ready(t0, 1).empty());
}

BOOST_AUTO_TEST_CASE(muting_is_per_partition) {
  record_accumulator acc{{16384, 5ms, protocol::compression_codec::none}};
  storage::topic_partition muted{"t", 0}, free{"t", 1}, other{"u", 0};
  acc.set_muted(muted, true);
  acc.append(muted, rec("a", "1"), 1, t0);
  acc.append(free, rec("b", "2"), 2, t0 + 1ms);
  acc.append(other, rec("c", "3"), 3, t0 + 2ms);
  BOOST_TEST(!acc.muted(free));
  BOOST_TEST(!acc.muted(storage::topic_partition{"never-seen", 7}));
  BOOST_TEST((acc.next_deadline() == t0 + 6ms)); // the muted partition's t0 + 5ms does not count
  auto ready = acc.drain_ready(t0 + 10ms);
  BOOST_REQUIRE(ready.size() == 2u);
  BOOST_TEST((ready[0].tp == free));
  BOOST_TEST((ready[1].tp == other));
  acc.set_flushing(true); // flushing does not override muting either
  BOOST_TEST(acc.drain_ready(t0 + 10ms).empty());
  acc.set_muted(muted, false);
  BOOST_TEST(acc.drain_ready(t0 + 10ms).size() == 1u);
}

BOOST_AUTO_TEST_CASE(expire_reaches_muted_partitions_without_building_bytes) {
  // Room for one record per batch: each append closes its batch.
  auto one = record_accumulator::record_size(rec("k", "v"), 0, 1000);
  record_accumulator acc{{protocol::batch_layout::header_size + one, 0ms, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  acc.set_muted(tp, true);
  acc.append(tp, rec("k", "v"), 1, t0);
  acc.append(tp, rec("k", "v"), 2, t0 + 1s);
  BOOST_TEST(acc.batch_count() == 2u);
  BOOST_TEST((acc.oldest() == t0));
  BOOST_TEST(acc.expire(t0).empty()); // created at t0 is not before t0
  auto old = acc.expire(t0 + 1ms);
  BOOST_REQUIRE(old.size() == 1u);
  BOOST_TEST((old[0].tokens == std::vector<uint64_t>{1}));
  BOOST_TEST(old[0].bytes.empty()); // never sent: not built
  BOOST_TEST(acc.batch_count() == 1u);
  BOOST_TEST((acc.oldest() == t0 + 1s));
  BOOST_TEST(acc.expire(t0 + 2s).size() == 1u);
  BOOST_TEST(acc.empty());
  BOOST_TEST(!acc.oldest());
}

BOOST_AUTO_TEST_CASE(batches_are_byte_for_byte_what_the_batch_builder_makes) {
  for (auto codec : {protocol::compression_codec::none, protocol::compression_codec::lz4}) {
    record_accumulator acc{{1 << 20, 1h, codec}};
    std::vector<protocol::record> recs;
    for (int i = 0; i < 50; ++i) {
      protocol::record r;
      if (i % 3 != 0)
        r.key = "key-" + std::to_string(i);
      if (i % 7 != 0)
        r.value = std::string(static_cast<size_t>(i * 5), static_cast<char>('a' + i % 26));
      if (i % 4 == 0)
        r.headers = {{"h", std::string("v")}, {"nil", std::nullopt}};
      r.timestamp = 1700000000000 + (i % 5 == 0 ? -i : i * 3); // not monotonic
      recs.push_back(r);
      acc.append({"t", 0}, r, static_cast<uint64_t>(i), t0);
    }
    auto all = acc.drain_all();
    BOOST_REQUIRE(all.size() == 1u);
    BOOST_TEST((all[0].bytes == protocol::build_batch(recs, codec)));
  }
}

BOOST_AUTO_TEST_CASE(recycled_buffers_are_reused_for_correct_batches) {
  record_accumulator acc{{4096, 0ms, protocol::compression_codec::none}};
  storage::topic_partition tp{"t", 0};
  for (int round = 0; round < 5; ++round) {
    std::vector<protocol::record> recs;
    for (int i = 0; i < 10; ++i) {
      recs.push_back(rec("k" + std::to_string(round), std::string(static_cast<size_t>(10 + round), 'r'), 1000 + i));
      acc.append(tp, recs.back(), static_cast<uint64_t>(i), t0);
    }
    auto ready = acc.drain_ready(t0);
    BOOST_REQUIRE(ready.size() == 1u);
    BOOST_TEST((ready[0].bytes == protocol::build_batch(recs)));
    acc.recycle(std::move(ready[0].bytes)); // the next round writes into this buffer
  }
  acc.recycle(std::vector<char>(3)); // too small to keep: ignored
  acc.append(tp, rec("k", "v"), 1, t0);
  BOOST_TEST(acc.drain_ready(t0).size() == 1u);
}

BOOST_AUTO_TEST_CASE(undefined_codecs_are_rejected) {
  BOOST_CHECK_THROW((record_accumulator{{100, 1ms, static_cast<protocol::compression_codec>(5)}}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(every_kafka_codec_builds_batches_that_read_back) {
  for (auto codec : {protocol::compression_codec::gzip, protocol::compression_codec::snappy,
                     protocol::compression_codec::lz4, protocol::compression_codec::zstd}) {
    record_accumulator acc{{100000, 1ms, codec}};
    storage::topic_partition tp{"t", 0};
    acc.append(tp, rec("k", "v"), 1, t0);
    acc.append(tp, rec("k2", "v2"), 2, t0);
    auto ready = acc.drain_ready(t0 + 1s);
    BOOST_REQUIRE_EQUAL(ready.size(), 1u);
    auto records = decode(ready[0]);
    BOOST_TEST(records.size() == 2u);
    BOOST_TEST((records[1].value == std::optional<std::string>{"v2"}));
  }
}

BOOST_AUTO_TEST_SUITE_END()
