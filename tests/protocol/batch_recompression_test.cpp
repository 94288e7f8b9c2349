// compression.type's batch rewrite (protocol/batch_recompression.hpp): every codec to every
// other, records and header fields kept, the CRC valid; control batches left alone.
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "protocol/batch_recompression.hpp"
#include "protocol/record_batch.hpp"

using namespace cafka::protocol;

namespace {

std::vector<char> idempotent_batch(compression_codec codec) {
  batch_options opts;
  opts.codec = codec;
  opts.base_offset = 100;
  opts.producer_id = 7;
  opts.producer_epoch = 2;
  opts.base_sequence = 42;
  batch_builder b{opts};
  for (int i = 0; i < 50; ++i) {
    record r;
    r.key = "k" + std::to_string(i % 5);
    r.value = std::string(200, static_cast<char>('a' + i % 26));
    r.timestamp = 1000 + i;
    r.headers.push_back({"h", std::string("v")});
    b.add(r);
  }
  return b.build();
}

bytes_view view(const std::vector<char>& v) { return {v.data(), v.size()}; }

} // namespace

BOOST_AUTO_TEST_SUITE(batch_recompression)

BOOST_AUTO_TEST_CASE(every_codec_to_every_other_keeps_records_and_header_fields) {
  const compression_codec codecs[] = {compression_codec::none, compression_codec::gzip, compression_codec::snappy,
                                      compression_codec::lz4, compression_codec::zstd};
  for (auto from : codecs)
    for (auto to : codecs) {
      BOOST_TEST_CONTEXT("from " << int(from) << " to " << int(to)) {
        auto in = idempotent_batch(from);
        auto before = read_records(view(in), 1 << 20);
        BOOST_REQUIRE(before);
        auto out = recompress_batch(view(in), to, 1 << 20);
        BOOST_REQUIRE(out);
        auto h = validate_batch(view(*out)); // length and CRC
        BOOST_REQUIRE(h);
        BOOST_TEST(int(h->codec()) == int(to));
        BOOST_TEST(h->base_offset == 100);
        BOOST_TEST(h->producer_id == 7);
        BOOST_TEST(h->producer_epoch == 2);
        BOOST_TEST(h->base_sequence == 42);
        BOOST_TEST(h->record_count == 50);
        BOOST_TEST(h->max_timestamp == 1049);
        auto after = read_records(view(*out), 1 << 20);
        BOOST_REQUIRE(after);
        BOOST_REQUIRE_EQUAL(after->size(), before->size());
        for (size_t i = 0; i < after->size(); ++i) {
          BOOST_TEST((*after)[i].offset == (*before)[i].offset);
          BOOST_TEST((*after)[i].timestamp == (*before)[i].timestamp);
          BOOST_TEST(((*after)[i].value == (*before)[i].value));
          BOOST_TEST(((*after)[i].key == (*before)[i].key));
          BOOST_TEST((*after)[i].headers.size() == 1u);
        }
      }
    }
}

BOOST_AUTO_TEST_CASE(which_batches_are_rewritten) {
  auto lz4 = idempotent_batch(compression_codec::lz4);
  auto h = validate_batch(view(lz4));
  BOOST_REQUIRE(h);
  BOOST_TEST(!needs_recompression(*h, -1)); // producer
  BOOST_TEST(!needs_recompression(*h, 3));
  BOOST_TEST(needs_recompression(*h, 0));
  BOOST_TEST(needs_recompression(*h, 4));
  auto control = *h;
  control.attributes |= batch_attributes::control;
  BOOST_TEST(!needs_recompression(control, 0)); // markers stay as written
}

BOOST_AUTO_TEST_CASE(a_decompression_bomb_is_refused) {
  batch_options opts;
  opts.codec = compression_codec::gzip;
  batch_builder b{opts};
  b.add(0, std::nullopt, bytes_view(std::string(1 << 20, 'x')));
  auto bomb = b.build();
  BOOST_TEST(!recompress_batch(view(bomb), compression_codec::lz4, 1000));
}

BOOST_AUTO_TEST_SUITE_END()
