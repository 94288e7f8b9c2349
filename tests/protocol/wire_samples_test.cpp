// The checks every request decoder owes, run over the sample of every advertised API and
// version (wire_samples_*.cpp): there is exactly one sample per advertised version, each
// decodes, trailing bytes after it are ignored, and every truncation of it fails, through
// decode_request_body as in the listener. What a sample decodes to is checked by its
// API's own test file.
#include <boost/test/unit_test.hpp>

#include <map>
#include <system_error>
#include <utility>

#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/request.hpp"
#include "protocol/wire/request_header.hpp"
#include "wire_test_support.hpp"

using namespace cafka::wire;
using namespace cafka::wire::test;

namespace {

// The error of decoding `body` as a request of the sample's API and version; empty if it
// decodes.
std::error_code handling_error(const wire_sample& s, bytes_view body) {
  BOOST_TEST(is_decodable(s.api_key), api_name(s.api_key));
  request_header header;
  header.api_key = s.api_key;
  header.api_version = s.version;
  return decode_request_body(header, body).error();
}

} // namespace

BOOST_AUTO_TEST_SUITE(wire_samples)

BOOST_AUTO_TEST_CASE(every_advertised_version_has_exactly_one_sample) {
  std::map<std::pair<int16_t, int16_t>, int> samples; // (api key, version) -> how many
  for (auto& s : all_request_samples())
    ++samples[{s.api_key, s.version}];
  for (auto& range : advertised_versions()) {
    for (int16_t v = range.min_version; v <= range.max_version; ++v) {
      auto key_version = std::make_pair(range.api_key, v);
      int count = samples[key_version];
      BOOST_TEST(count == 1, api_name(range.api_key) << " v" << v << " has " << count
                                                     << " samples");
      samples.erase(key_version);
    }
  }
  for (auto& [key_version, count] : samples) // left over: outside the advertised ranges
    BOOST_ERROR(count << " sample(s) of " << api_name(key_version.first) << " v"
                      << key_version.second << ", which is not advertised");
}

BOOST_AUTO_TEST_CASE(every_sample_decodes) {
  for (auto& s : all_request_samples()) {
    auto error = handling_error(s, {s.body.data(), s.body.size()});
    BOOST_TEST(!error, api_name(s.api_key) << " v" << s.version << ": " << error.message());
  }
}

BOOST_AUTO_TEST_CASE(trailing_bytes_are_ignored) {
  for (auto& s : all_request_samples()) {
    auto body = s.body;
    body.push_back('\x7f');
    auto error = handling_error(s, {body.data(), body.size()});
    BOOST_TEST(!error, api_name(s.api_key) << " v" << s.version << ": " << error.message());
  }
}

BOOST_AUTO_TEST_CASE(every_truncation_fails) {
  for (auto& s : all_request_samples())
    for (size_t n = 0; n < s.body.size(); ++n)
      BOOST_TEST(bool(handling_error(s, {s.body.data(), n})),
                 api_name(s.api_key) << " v" << s.version << " cut at " << n);
}

BOOST_AUTO_TEST_SUITE_END()
