// filter_batch / append_empty_batch: what the log cleaner writes for a batch it keeps
// part of, for every codec.
#include <boost/test/unit_test.hpp>

#include "protocol/batch_filter.hpp"
#include "protocol/record_batch.hpp"
#include "test_support.hpp"

using namespace cafka::protocol;
using namespace cafka::protocol::test;

namespace {

constexpr size_t limit = 64 << 20;

// Five records at offsets 100..104, keys k0..k4, k3 a tombstone, of an idempotent producer.
std::vector<char> sample_batch(compression_codec codec) {
  batch_options o;
  o.codec = codec;
  o.base_offset = 100;
  o.leader_epoch = 7;
  o.producer_id = 42;
  o.producer_epoch = 3;
  o.base_sequence = 10;
  batch_builder b(o);
  for (int i = 0; i < 5; ++i) {
    record r{"k" + std::to_string(i), i == 3 ? std::nullopt : std::optional<std::string>{"v" + std::to_string(i)},
             {{"h", str("x")}}, 1000 + i * 10};
    b.add(r);
  }
  return b.build();
}

bool keep_odd(const record_view& r) { return r.offset % 2 == 1; }

} // namespace

BOOST_AUTO_TEST_SUITE(batch_filter)

BOOST_AUTO_TEST_CASE(keeping_every_record_copies_the_batch) {
  auto batch = sample_batch(compression_codec::none);
  std::vector<char> out{'x'};
  auto r = filter_batch(view(batch), limit, [](const record_view&) { return true; }, std::nullopt, out);
  BOOST_REQUIRE(r);
  BOOST_TEST(static_cast<int>(r->outcome) == static_cast<int>(filter_outcome::unchanged));
  BOOST_TEST(r->kept == 5);
  BOOST_TEST((std::vector<char>(out.begin() + 1, out.end()) == batch));
}

BOOST_AUTO_TEST_CASE(a_rewritten_batch_keeps_its_offsets_producer_and_codec) {
  for (auto codec : {compression_codec::none, compression_codec::gzip, compression_codec::snappy,
                     compression_codec::lz4, compression_codec::zstd}) {
    auto batch = sample_batch(codec);
    std::vector<char> out;
    auto r = filter_batch(view(batch), limit, keep_odd, std::nullopt, out);
    BOOST_REQUIRE(r);
    BOOST_TEST(static_cast<int>(r->outcome) == static_cast<int>(filter_outcome::rewritten));
    BOOST_TEST(r->kept == 2);
    auto h = validate_batch(view(out)); // CRC and length are right
    BOOST_REQUIRE(h);
    BOOST_TEST(h->total_size() == out.size());
    BOOST_TEST(h->base_offset == 100);
    BOOST_TEST(h->last_offset_delta == 4); // still ends at 104
    BOOST_TEST(h->record_count == 2);
    BOOST_TEST(h->leader_epoch == 7);
    BOOST_TEST(h->producer_id == 42);
    BOOST_TEST(h->producer_epoch == 3);
    BOOST_TEST(h->base_sequence == 10);
    BOOST_TEST(static_cast<int>(h->codec()) == static_cast<int>(codec));
    BOOST_TEST(h->max_timestamp == 1030); // the largest kept
    BOOST_TEST(!delete_horizon_of(*h));
    auto records = read_records(view(out), limit);
    BOOST_REQUIRE(records);
    BOOST_REQUIRE(records->size() == 2u);
    BOOST_TEST((*records)[0].offset == 101);
    BOOST_TEST(*(*records)[0].key == "k1");
    BOOST_TEST(*(*records)[0].value == "v1");
    BOOST_TEST((*records)[0].timestamp == 1010);
    BOOST_TEST((*records)[0].headers.size() == 1u);
    BOOST_TEST((*records)[1].offset == 103);
    BOOST_TEST(!(*records)[1].value); // the tombstone
  }
}

BOOST_AUTO_TEST_CASE(a_delete_horizon_is_stamped_only_over_a_kept_tombstone) {
  auto batch = sample_batch(compression_codec::lz4);
  std::vector<char> out;
  // k0..k2 kept: no tombstone among them, no horizon (and every record kept would be a copy).
  auto r = filter_batch(view(batch), limit, [](const record_view& v) { return v.offset < 103; }, 99999, out);
  BOOST_REQUIRE(r);
  BOOST_TEST(!delete_horizon_of(*validate_batch(view(out))));
  out.clear();
  r = filter_batch(view(batch), limit, keep_odd, 99999, out);
  BOOST_REQUIRE(r);
  auto h = validate_batch(view(out));
  BOOST_REQUIRE(h);
  BOOST_TEST(delete_horizon_of(*h).value_or(-1) == 99999);
  BOOST_TEST(h->base_timestamp == 99999);
  auto records = read_records(view(out), limit);
  BOOST_REQUIRE(records);
  BOOST_TEST((*records)[0].timestamp == 1010); // absolute timestamps stay
  BOOST_TEST((*records)[1].timestamp == 1030);
  // A later clean keeps the first horizon.
  std::vector<char> again;
  r = filter_batch(view(out), limit, [](const record_view&) { return true; }, 123456, again);
  BOOST_REQUIRE(r);
  BOOST_TEST(static_cast<int>(r->outcome) == static_cast<int>(filter_outcome::unchanged));
}

BOOST_AUTO_TEST_CASE(an_emptied_batch_writes_nothing_and_its_empty_header_keeps_the_range) {
  auto batch = sample_batch(compression_codec::gzip);
  std::vector<char> out;
  auto r = filter_batch(view(batch), limit, [](const record_view&) { return false; }, std::nullopt, out);
  BOOST_REQUIRE(r);
  BOOST_TEST(static_cast<int>(r->outcome) == static_cast<int>(filter_outcome::emptied));
  BOOST_TEST(out.empty());
  append_empty_batch(r->header, out);
  BOOST_TEST(out.size() == 61u);
  auto h = validate_batch(view(out));
  BOOST_REQUIRE(h);
  BOOST_TEST(h->base_offset == 100);
  BOOST_TEST(h->last_offset_delta == 4);
  BOOST_TEST(h->record_count == 0);
  BOOST_TEST(h->producer_id == 42);
  BOOST_TEST(h->base_sequence == 10);
  BOOST_TEST(h->base_timestamp == -1);
  BOOST_TEST(h->max_timestamp == 1040);
  BOOST_TEST(static_cast<int>(h->codec()) == static_cast<int>(compression_codec::none));
  auto records = read_records(view(out), limit);
  BOOST_REQUIRE(records);
  BOOST_TEST(records->empty());
}

BOOST_AUTO_TEST_CASE(a_corrupt_batch_is_refused_and_nothing_written) {
  auto batch = sample_batch(compression_codec::none);
  batch[70] ^= 0x5a; // inside the records: the CRC no longer matches
  std::vector<char> out;
  BOOST_TEST(!filter_batch(view(batch), limit, keep_odd, std::nullopt, out));
  BOOST_TEST(out.empty());
}

BOOST_AUTO_TEST_SUITE_END()
