// The Kafka listener of a real cafka-server process, byte for byte: response order on a
// pipelined connection, the ApiVersions fallback, and hostile frames that must close
// their own connection only while every other client keeps being served. (Real Kafka
// clients are exercised in kafka_clients_test.cpp.)
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/endian.hpp"
#include "protocol/record_batch.hpp"
#include "tests/integration/kafka_socket.hpp"
#include "tests/protocol/test_support.hpp"
#include "tests/integration/server_process.hpp"

using namespace cafka;
using protocol::byte_reader;
using protocol::byte_writer;

namespace {

int32_t correlation_of(const std::vector<char>& response) {
  byte_reader r{{response.data(), response.size()}};
  return r.read_i32();
}

// ApiVersions v0 response: correlation, error, [key min max]; returns error and the
// range of `key` (or -1s).
struct versions_answer {
  int16_t error = -1;
  int16_t min = -1, max = -1;
};

versions_answer read_api_versions_v0(const std::vector<char>& response, int16_t key) {
  byte_reader r{{response.data(), response.size()}};
  r.read_i32();
  versions_answer out;
  out.error = r.read_i16();
  auto n = r.read_i32();
  for (int32_t i = 0; i < n && r.ok(); ++i) {
    auto k = r.read_i16(), lo = r.read_i16(), hi = r.read_i16();
    if (k == key) {
      out.min = lo;
      out.max = hi;
    }
  }
  BOOST_TEST(r.ok());
  return out;
}

// Metadata v1 request naming `topic` (v1-v3 create unknown topics when allowed).
std::vector<char> metadata_v1(const std::string& topic) {
  std::vector<char> body;
  byte_writer w{body};
  w.write_i32(1);
  w.write_string(topic);
  return body;
}

// Produce (v3 layout, or v0-v2 without transactional_id) of one batch or legacy message
// set to partition 0 of `topic`, acks=1.
std::vector<char> produce_v3(const std::string& topic, const std::vector<char>& batch, int16_t version = 3) {
  std::vector<char> body;
  byte_writer w{body};
  if (version >= 3)
    w.write_i16(-1); // transactional_id null
  w.write_i16(1);
  w.write_i32(10'000);
  w.write_i32(1);
  w.write_string(topic);
  w.write_i32(1);
  w.write_i32(0);
  w.write_bytes({batch.data(), batch.size()});
  return body;
}

// Fetch v4 from offset 0 of partition 0 of `topic`, without waiting.
std::vector<char> fetch_v4(const std::string& topic) {
  std::vector<char> body;
  byte_writer w{body};
  w.write_i32(-1);
  w.write_i32(0);
  w.write_i32(0);
  w.write_i32(1 << 20);
  w.write_i8(0);
  w.write_i32(1);
  w.write_string(topic);
  w.write_i32(1);
  w.write_i32(0);
  w.write_i64(0);
  w.write_i32(1 << 20);
  return body;
}

// The error of a Fetch v4 response with one topic and one partition.
int16_t error_of_fetch_v4(const std::vector<char>& response) {
  byte_reader r{{response.data(), response.size()}};
  r.read_i32(); // correlation
  r.read_i32(); // throttle
  r.read_i32();
  r.read_string();
  r.read_i32();
  r.read_i32(); // partition
  auto error = r.read_i16();
  return r.ok() ? error : int16_t{-1};
}

// Auto-creates `topic` with Metadata v1 and waits (bounded) until it is served, as a client
// does: a new topic answers LEADER_NOT_AVAILABLE until the broker has it on disk.
void create_by_metadata(test::kafka_socket& s, const std::string& topic, int32_t& corr) {
  for (int attempt = 0; attempt < 500; ++attempt) {
    s.send_frame(test::request_frame(3, 1, ++corr, metadata_v1(topic)));
    BOOST_REQUIRE(s.receive_frame());
    s.send_frame(test::request_frame(1, 4, ++corr, fetch_v4(topic)));
    auto fetched = s.receive_frame();
    BOOST_REQUIRE(fetched);
    if (error_of_fetch_v4(*fetched) == 0)
      return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  BOOST_FAIL("topic " << topic << " not served after its auto-creation");
}

// The records of a Fetch v4 response with one topic and one partition (error must be 0).
std::vector<char> records_of_fetch_v4(const std::vector<char>& response) {
  byte_reader r{{response.data(), response.size()}};
  r.read_i32(); // correlation
  r.read_i32(); // throttle
  BOOST_TEST(r.read_i32() == 1);
  r.read_string();
  BOOST_TEST(r.read_i32() == 1);
  BOOST_TEST(r.read_i32() == 0);   // partition
  BOOST_TEST(r.read_i16() == 0);   // error
  r.read_i64();                    // high watermark
  r.read_i64();                    // last stable offset
  BOOST_TEST(r.read_i32() == 0);   // aborted transactions
  auto records = r.read_bytes();
  BOOST_TEST(r.ok());
  return {records.begin(), records.end()};
}

// The error code of a Produce v2/v3 response with one topic and one partition.
int16_t error_of_produce(const std::vector<char>& response) {
  byte_reader r{{response.data(), response.size()}};
  r.read_i32(); // correlation
  r.read_i32(); // topics
  r.read_string();
  r.read_i32(); // partitions
  r.read_i32(); // index
  auto error = r.read_i16();
  BOOST_TEST(r.ok());
  return error;
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(kafka_listener_process)

BOOST_AUTO_TEST_CASE(pipelined_requests_are_answered_in_request_order) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs"};
  test::kafka_socket s{server.kafka_port()};
  std::vector<char> stream;
  for (int32_t corr = 1; corr <= 30; ++corr) {
    // Mix cheap answers with ones that travel through other actors.
    auto frame = corr % 3 == 0 ? test::request_frame(3, 1, corr, metadata_v1("ordered"))
                               : test::request_frame(18, static_cast<int16_t>(corr % 3), corr);
    std::vector<char> sized(4);
    protocol::store_be<int32_t>(sized.data(), static_cast<int32_t>(frame.size()));
    sized.insert(sized.end(), frame.begin(), frame.end());
    stream.insert(stream.end(), sized.begin(), sized.end());
  }
  s.send_raw(stream); // one write: the broker sees them pipelined
  for (int32_t corr = 1; corr <= 30; ++corr) {
    auto response = s.receive_frame();
    BOOST_REQUIRE(response);
    BOOST_TEST(correlation_of(*response) == corr);
  }
}

BOOST_AUTO_TEST_CASE(an_unknown_api_versions_version_gets_error_35_in_v0_layout) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs"};
  test::kafka_socket s{server.kafka_port()};
  // Header v2 as for every ApiVersions v3+ (an empty tag buffer), then a body the broker
  // cannot know.
  s.send_frame(test::request_frame(18, 42, 5, {'\0', 'x', 'y'}));
  auto response = s.receive_frame();
  BOOST_REQUIRE(response);
  BOOST_TEST(correlation_of(*response) == 5);
  auto v = read_api_versions_v0(*response, 18);
  BOOST_TEST(v.error == 35);
  BOOST_TEST(v.min == 0);
  BOOST_TEST(v.max == 3);
  // The connection stays usable: the client retries with v0.
  s.send_frame(test::request_frame(18, 0, 6));
  response = s.receive_frame();
  BOOST_REQUIRE(response);
  auto ok = read_api_versions_v0(*response, 0);
  BOOST_TEST(ok.error == 0);
  BOOST_TEST(ok.min == 0); // librdkafka needs Produce v0 in range to keep LZ4 on
  BOOST_TEST(ok.max == 7);
}

BOOST_AUTO_TEST_CASE(hostile_frames_close_their_connection_and_lose_nothing) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs", {"socket.request.max.bytes=65536"}};
  test::kafka_socket good{server.kafka_port()};
  int32_t corr = 100;
  create_by_metadata(good, "kept", corr);
  auto batch = protocol::build_batch({protocol::record{std::string{"k"}, std::string{"acknowledged"}, {}, 1}});
  good.send_frame(test::request_frame(0, 3, ++corr, produce_v3("kept", batch)));
  BOOST_REQUIRE(good.receive_frame());

  auto truncated_produce = test::request_frame(0, 7, 1, produce_v3("kept", batch));
  truncated_produce.resize(truncated_produce.size() - 10);
  auto hostile_count = test::request_frame(3, 1, 1);
  for (char c : {'\x7f', '\xff', '\xff', '\xff'})
    hostile_count.push_back(c); // Metadata topics array of 2^31-1 names
  std::vector<std::vector<char>> hostile_frames = {
    {'\x7f', '\xff', '\xff', '\xff', 'a'},              // size 2 GiB
    {'\xff', '\xff', '\xff', '\xfb'},                   // size -5
    {'\x00', '\x01', '\x00', '\x01', 'z', 'z', 'z'},    // over socket.request.max.bytes
    {'\x00', '\x00', '\x00', '\x02', '\x00', '\x12'},   // a header cut short
  };
  for (auto& body : {test::request_frame(999, 0, 1), test::request_frame(0, 99, 1), truncated_produce,
                     hostile_count}) {
    std::vector<char> sized(4);
    protocol::store_be<int32_t>(sized.data(), static_cast<int32_t>(body.size()));
    sized.insert(sized.end(), body.begin(), body.end());
    hostile_frames.push_back(sized);
  }
  for (auto& frame : hostile_frames) {
    test::kafka_socket bad{server.kafka_port()};
    bad.send_raw(frame);
    BOOST_TEST(bad.closed_by_peer());
    // Every other client is still served.
    good.send_frame(test::request_frame(18, 0, ++corr));
    auto answer = good.receive_frame();
    BOOST_REQUIRE(answer);
    BOOST_TEST(correlation_of(*answer) == corr);
  }
  // What was acknowledged before is still there, byte for byte.
  good.send_frame(test::request_frame(1, 4, ++corr, fetch_v4("kept")));
  auto fetched = good.receive_frame();
  BOOST_REQUIRE(fetched);
  BOOST_TEST((records_of_fetch_v4(*fetched) == batch));
  // One log line per closed connection.
  BOOST_TEST(count_of(server.output(), "kafka listener PLAINTEXT: closing") == hostile_frames.size());
}

BOOST_AUTO_TEST_CASE(batches_of_every_codec_are_stored_and_served_as_sent) {
  // With compression.type=producer (the default) the broker opens no compressed batch: a
  // gzip, snappy, lz4 or zstd batch is checked (length, magic, CRC), given its offset, and
  // served byte for byte. The records section here is not really compressed; only a
  // consumer would notice.
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs"};
  test::kafka_socket s{server.kafka_port()};
  int32_t corr = 0;
  for (auto codec : {protocol::compression_codec::gzip, protocol::compression_codec::snappy,
                     protocol::compression_codec::lz4, protocol::compression_codec::zstd}) {
    auto topic = "codec-" + std::to_string(static_cast<int>(codec));
    create_by_metadata(s, topic, corr);
    auto batch = protocol::build_batch({protocol::record{std::string{"k"}, std::string{"opaque"}, {}, 5}});
    batch[protocol::batch_layout::attributes + 1] |= static_cast<char>(codec);
    protocol::update_crc(batch.data(), batch.size());
    s.send_frame(test::request_frame(0, 7, ++corr, produce_v3(topic, batch)));
    auto produced = s.receive_frame();
    BOOST_REQUIRE(produced);
    BOOST_TEST(error_of_produce(*produced) == 0);
    s.send_frame(test::request_frame(1, 4, ++corr, fetch_v4(topic)));
    auto fetched = s.receive_frame();
    BOOST_REQUIRE(fetched);
    BOOST_TEST((records_of_fetch_v4(*fetched) == batch), "codec " << static_cast<int>(codec));
  }
}

BOOST_AUTO_TEST_CASE(legacy_message_sets_are_converted_to_v2_on_append) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs"};
  test::kafka_socket s{server.kafka_port()};
  int32_t corr = 0;
  create_by_metadata(s, "old", corr);
  // Two magic 1 messages as kafka-python writes them for Produce v2: {"k","v",t=1000}
  // and {null,"hello",t=1007}.
  auto legacy = protocol::test::from_hex(
    "0000000000000000 00000018 e4e321bc 01 00 00000000000003e8 00000001 6b 00000001 76"
    "0000000000000001 0000001b f1e00981 01 00 00000000000003ef ffffffff 00000005 68656c6c6f");
  s.send_frame(test::request_frame(0, 2, 2, produce_v3("old", legacy, 2)));
  auto produced = s.receive_frame();
  BOOST_REQUIRE(produced);
  BOOST_TEST(error_of_produce(*produced) == 0);
  s.send_frame(test::request_frame(1, 4, 3, fetch_v4("old")));
  auto fetched = s.receive_frame();
  BOOST_REQUIRE(fetched);
  auto batch = records_of_fetch_v4(*fetched);
  BOOST_REQUIRE(batch.size() > 61u);
  BOOST_TEST(static_cast<int>(batch[16]) == 2); // magic 2 on disk and on the wire
  auto records = protocol::read_records({batch.data(), batch.size()}, 1 << 20);
  BOOST_REQUIRE(records);
  BOOST_REQUIRE_EQUAL(records->size(), 2u);
  BOOST_TEST((*records)[0].offset == 0);
  BOOST_TEST(*(*records)[0].key == "k");
  BOOST_TEST(*(*records)[0].value == "v");
  BOOST_TEST((*records)[0].timestamp == 1000);
  BOOST_TEST(!(*records)[1].key.has_value());
  BOOST_TEST(*(*records)[1].value == "hello");
  BOOST_TEST((*records)[1].timestamp == 1007);
}

BOOST_AUTO_TEST_SUITE_END()
