// The randomized robustness test of the wire decoders (issue 4): at least 1,000,000
// mutated and truncated requests, seeded from a valid request body of every supported
// API and version, go through what the listener does with a frame: header decode, body
// decode, and for produce the batch checks. Nothing may crash (the sanitizer build
// runs this too), loop, or allocate more than a bound proportional to the input.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

#include "protocol/batch_header.hpp"
#include "protocol/legacy_message_set.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/wire/request.hpp"
#include "protocol/wire/request_header.hpp"
#include "test_support.hpp"
#include "wire_mutator.hpp"
#include "wire_test_support.hpp"

// Counting the largest single allocation while a decode runs: a hostile length must
// not turn into a huge allocation. Only this thread's allocations inside watch() count.
namespace {
thread_local bool watching = false;
thread_local size_t largest_allocation = 0;
} // namespace

void* operator new(size_t n) {
  if (watching && n > largest_allocation)
    largest_allocation = n;
  if (void* p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc{};
}
// The matching deletes (AddressSanitizer checks that new and delete pair up; GCC cannot
// see that these two do).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
#pragma GCC diagnostic pop

using namespace cafka::wire;
using cafka::wire::test::all_request_samples;
using cafka::wire::test::frame_of;
using cafka::wire::test::mutate;
using cafka::wire::test::wire_sample;

namespace {

constexpr size_t min_total_inputs = 1'000'000;

// What the listener does with the records of a decoded produce request.
void check_produce_records(const produce_request& req, int16_t version) {
  for (auto& t : req.topics)
    for (auto& p : t.partitions) {
      if (!p.records)
        continue;
      cafka::protocol::bytes_view bytes{p.records->data(), p.records->size()};
      if (version < 3 && cafka::protocol::magic_of(bytes) < 2) {
        cafka::protocol::legacy_conversion_options opts;
        opts.max_uncompressed = 1 << 20;
        (void) cafka::protocol::convert_legacy_message_set(bytes, opts);
      } else {
        (void) cafka::protocol::for_each_record(bytes, 1 << 20, [](const auto&) {});
      }
    }
}

// Feeds one frame to the decoders; returns whether the body decoded.
bool feed(const std::vector<char>& frame) {
  byte_reader r{{frame.data(), frame.size()}};
  auto header = decode_request_header(r);
  if (!header)
    return false;
  auto range = find_advertised(header->api_key);
  if (!range || header->api_version < range->min_version || header->api_version > range->max_version)
    return false; // the listener closes the connection here
  auto decoded = decode_request_body(*header, r.rest());
  if (!decoded)
    return false;
  if (auto* produce = std::get_if<produce_request>(&*decoded))
    check_produce_records(*produce, header->api_version);
  return true;
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_mutation)

BOOST_AUTO_TEST_CASE(every_sample_decodes) {
  for (auto& s : all_request_samples())
    BOOST_TEST(feed(frame_of(s)), "api " << s.api_key << " v" << s.version);
}

BOOST_AUTO_TEST_CASE(a_million_mutated_requests_are_refused_or_decoded_safely) {
  auto samples = all_request_samples();
  BOOST_REQUIRE(!samples.empty());
  auto per_sample = (min_total_inputs + samples.size() - 1) / samples.size();
  std::mt19937 gen{20261129};
  size_t total = 0, decoded = 0;
  size_t worst_ratio_input = 0, worst_allocation = 0;
  for (auto& s : samples) {
    auto original = frame_of(s);
    for (size_t i = 0; i < per_sample; ++i) {
      auto frame = original;
      for (int rounds = 1 + static_cast<int>(gen() % 3); rounds > 0; --rounds)
        mutate(frame, gen);
      largest_allocation = 0;
      watching = true;
      decoded += feed(frame) ? 1 : 0;
      watching = false;
      ++total;
      // Allocations stay proportional to the input: nothing sized by a length field
      // that the bytes do not back (the 1 MiB decompression budget aside).
      auto bound = 4 * frame.size() + (1u << 21);
      if (largest_allocation > bound) {
        worst_allocation = largest_allocation;
        worst_ratio_input = frame.size();
      }
    }
  }
  BOOST_TEST_MESSAGE("wire mutation test: " << total << " inputs from " << samples.size() << " samples, "
                                            << decoded << " still decoded");
  BOOST_TEST(total >= min_total_inputs);
  BOOST_TEST(worst_allocation == 0u, "allocated " << worst_allocation << " bytes for a " << worst_ratio_input
                                                  << "-byte input");
}

BOOST_AUTO_TEST_SUITE_END()
