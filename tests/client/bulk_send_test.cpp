// The producer's hand-over paths end to end: bulk sends (facade and actor message),
// single sends from several threads at once, linger 0 (batches grow while a partition
// is muted), a buffer_memory so small that the drain pauses after every record, closing
// with records still handed over, and records that wait in the send buffer past their
// delivery timeout. Every record must be answered exactly once; nothing asserts on
// timing.

#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include <atomic>
#include <map>
#include <mutex>
#include <thread>

#include <boost/test/unit_test.hpp>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/connect.hpp"
#include "client/partitioner.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"
#include "fixtures.hpp"

using namespace cafka;
using namespace cafka::client;
using namespace client_test;
using namespace std::chrono_literals;

namespace {

// Every answer, by record name; counts calls so that double answers show.
struct answers {
  std::mutex mtx;
  std::map<std::string, std::vector<caf::expected<record_metadata>>> by_name;
  size_t total = 0;

  void note(const std::string& name, const caf::expected<record_metadata>& res) {
    std::lock_guard<std::mutex> guard{mtx};
    by_name[name].push_back(res);
    ++total;
  }
  size_t count() {
    std::lock_guard<std::mutex> guard{mtx};
    return total;
  }
  // Waits (bounded) until `n` answers arrived.
  bool wait_for(size_t n, std::chrono::seconds limit = 60s) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (count() < n) {
      if (std::chrono::steady_clock::now() > deadline)
        return false;
      std::this_thread::sleep_for(5ms);
    }
    return true;
  }
};

producer_record keyed(const std::string& topic, const std::string& name) {
  return producer_record{topic, "key-" + name, name, {}, std::nullopt, std::nullopt};
}

// Bulk callback noting record i as names[i].
bulk_callback note_bulk(answers& a, std::vector<std::string> names) {
  return [&a, names = std::move(names)](size_t i, const caf::expected<record_metadata>& res) {
    a.note(names.at(i), res);
  };
}

uint16_t unused_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

struct node_fixture {
  node_fixture() : srv(dir.path) {
    auto n = connect(cs.sys(), "127.0.0.1", srv.port(), 10s);
    BOOST_REQUIRE_MESSAGE(n, "connect: " << why(n));
    node = *n;
  }
  temp_dir dir;
  server srv;
  client_system cs;
  node_actor node;
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(bulk_send, node_fixture)

BOOST_AUTO_TEST_CASE(bulk_and_single_sends_from_several_threads_keep_partition_order) {
  auto& sys = cs.sys();
  create_topic(sys, node, "mix", 3);
  producer_config pc;
  pc.linger = 0ms; // every partition sends at once unless it is muted
  producer p{sys, node, pc};
  answers a;
  constexpr int bulks = 20, per_bulk = 250, singles = 3000;
  // Thread "b" sends bulks, thread "s" single records, concurrently.
  std::thread bulk_sender([&] {
    for (int b = 0; b < bulks; ++b) {
      std::vector<producer_record> recs;
      std::vector<std::string> names;
      for (int i = 0; i < per_bulk; ++i) {
        names.push_back("b" + std::to_string(b * per_bulk + i));
        recs.push_back(keyed("mix", names.back()));
      }
      p.send(std::move(recs), note_bulk(a, names));
    }
  });
  std::thread single_sender([&] {
    for (int i = 0; i < singles; ++i) {
      auto name = "s" + std::to_string(i);
      p.send(keyed("mix", name), [&a, name](caf::expected<record_metadata> res) { a.note(name, res); });
    }
  });
  bulk_sender.join();
  single_sender.join();
  BOOST_TEST(!p.flush());
  // flush() returns once every record handed in before it is answered.
  size_t total = bulks * per_bulk + singles;
  BOOST_TEST(a.count() == total);
  BOOST_REQUIRE(a.wait_for(total));
  std::lock_guard<std::mutex> guard{a.mtx};
  BOOST_TEST(a.by_name.size() == total);
  // Per sender and partition, offsets grow in send order.
  std::map<std::pair<char, int32_t>, int64_t> last;
  auto check = [&](const std::string& name) {
    auto& res = a.by_name[name];
    BOOST_REQUIRE_MESSAGE(res.size() == 1u, name << " answered " << res.size() << " times");
    BOOST_REQUIRE_MESSAGE(res[0], name << ": " << why(res[0]));
    BOOST_TEST(res[0]->topic == "mix");
    BOOST_TEST(res[0]->partition == partition_for_key("key-" + name, 3));
    auto& prev = last.try_emplace({name[0], res[0]->partition}, -1).first->second;
    BOOST_REQUIRE_MESSAGE(res[0]->offset > prev, name << " at offset " << res[0]->offset << " after " << prev);
    prev = res[0]->offset;
  };
  for (int i = 0; i < bulks * per_bulk; ++i)
    check("b" + std::to_string(i));
  for (int i = 0; i < singles; ++i)
    check("s" + std::to_string(i));
}

BOOST_AUTO_TEST_CASE(records_arrive_with_their_keys_and_values) {
  auto& sys = cs.sys();
  create_topic(sys, node, "round", 2);
  producer_config pc;
  pc.linger = 0ms;
  producer p{sys, node, pc};
  answers a;
  std::vector<producer_record> recs;
  std::vector<std::string> names;
  for (int i = 0; i < 1000; ++i) {
    names.push_back("r" + std::to_string(i));
    recs.push_back(keyed("round", names.back()));
  }
  p.send(std::move(recs), note_bulk(a, names));
  BOOST_TEST(!p.flush());
  auto log = std::make_shared<sink_log>();
  auto sink = spawn_sink(sys, log);
  std::vector<subscription> subs;
  for (int32_t part = 0; part < 2; ++part)
    subs.push_back(subscribe(sys, node, sink, topic_partition{"round", part}, start_position::earliest()));
  BOOST_REQUIRE(log->wait_until([](sink_log& l) { return l.records >= 1000u; }));
  {
    std::lock_guard<std::mutex> guard{log->mtx};
    for (auto& [part, rs] : log->by_partition) {
      int last = -1;
      for (auto& r : rs) {
        BOOST_REQUIRE(r.key && r.value);
        BOOST_TEST(*r.key == "key-" + *r.value);
        BOOST_TEST(partition_for_key(*r.key, 2) == part);
        auto idx = std::stoi(r.value->substr(1));
        BOOST_TEST(idx > last); // the bulk's order, per partition
        last = idx;
      }
    }
  }
  for (auto& s : subs)
    stop(s);
  stop_actor(sys, sink);
}

BOOST_AUTO_TEST_CASE(a_tiny_buffer_memory_pauses_the_drain_and_flush_still_covers_everything) {
  auto& sys = cs.sys();
  create_topic(sys, node, "tiny", 2);
  producer_config pc;
  pc.buffer_memory = 1; // one record at a time in the actor; the rest waits in the buffer
  pc.linger = 0ms;
  producer p{sys, node, pc};
  answers a;
  for (int b = 0; b < 4; ++b) {
    std::vector<producer_record> recs;
    std::vector<std::string> names;
    for (int i = 0; i < 100; ++i) {
      names.push_back("t" + std::to_string(b * 100 + i));
      recs.push_back(keyed("tiny", names.back()));
    }
    p.send(std::move(recs), note_bulk(a, names));
    for (int i = 0; i < 25; ++i) {
      auto name = "u" + std::to_string(b * 25 + i);
      p.send(keyed("tiny", name), [&a, name](caf::expected<record_metadata> res) { a.note(name, res); });
    }
  }
  BOOST_TEST(!p.flush());
  BOOST_TEST(a.count() == 500u); // all of them before flush() returned
  {
    std::lock_guard<std::mutex> guard{a.mtx};
    for (auto& [name, res] : a.by_name) {
      BOOST_REQUIRE(res.size() == 1u);
      BOOST_REQUIRE_MESSAGE(res[0], name << ": " << why(res[0]));
    }
  }
  // The actor's own bulk message works the same way.
  answers direct;
  std::vector<producer_record> recs;
  std::vector<std::string> names;
  for (int i = 0; i < 50; ++i) {
    names.push_back("d" + std::to_string(i));
    recs.push_back(keyed("tiny", names.back()));
  }
  caf::anon_send(p.actor(), send_atom_v, std::move(recs), note_bulk(direct, names));
  BOOST_REQUIRE(direct.wait_for(50));
  BOOST_TEST(!p.flush());
  std::lock_guard<std::mutex> guard{direct.mtx};
  for (auto& [name, res] : direct.by_name) {
    BOOST_REQUIRE(res.size() == 1u);
    BOOST_TEST(static_cast<bool>(res[0]));
  }
}

BOOST_AUTO_TEST_CASE(closing_answers_every_handed_over_record_exactly_once) {
  auto& sys = cs.sys();
  create_topic(sys, node, "bye", 1);
  answers a;
  constexpr int n = 20000;
  {
    producer_config pc;
    pc.buffer_memory = 4096; // most records are still in the send buffer at close()
    producer p{sys, node, pc};
    for (int i = 0; i < n; ++i) {
      auto name = std::to_string(i);
      p.send(keyed("bye", name), [&a, name](caf::expected<record_metadata> res) { a.note(name, res); });
    }
    p.close(1ms); // no time to send them all
    // After close, a send fails at once, on this thread.
    bool failed = false;
    p.send(keyed("bye", "late"), [&](caf::expected<record_metadata> res) { failed = !res; });
    BOOST_TEST(failed);
    std::vector<producer_record> late{keyed("bye", "late-bulk")};
    p.send(std::move(late), [&](size_t, const caf::expected<record_metadata>& res) { failed = !res; });
    BOOST_TEST(failed);
  }
  BOOST_REQUIRE(a.wait_for(n));
  std::this_thread::sleep_for(50ms); // a double answer would show up now
  std::lock_guard<std::mutex> guard{a.mtx};
  BOOST_TEST(a.total == static_cast<size_t>(n));
  size_t acked = 0;
  for (auto& [name, res] : a.by_name) {
    BOOST_REQUIRE_MESSAGE(res.size() == 1u, name << " answered " << res.size() << " times");
    if (res[0])
      ++acked;
    else
      BOOST_TEST((res[0].error() == caf::sec::request_receiver_down));
  }
  BOOST_TEST_MESSAGE("acknowledged before close: " << acked << " of " << n);
}

BOOST_AUTO_TEST_CASE(records_waiting_in_the_send_buffer_time_out_too) {
  auto& sys = cs.sys();
  producer_config pc;
  pc.bootstrap_servers = "127.0.0.1:" + std::to_string(unused_port()); // nobody there
  pc.delivery_timeout = 500ms;
  pc.request_timeout = 200ms;
  pc.connect_timeout = 200ms;
  pc.buffer_memory = 1; // the first record takes it all; the rest waits in the buffer
  producer p{sys, pc};
  answers a;
  std::vector<producer_record> recs;
  std::vector<std::string> names;
  for (int i = 0; i < 100; ++i) {
    names.push_back("w" + std::to_string(i));
    recs.push_back(keyed("nowhere", names.back()));
  }
  p.send(std::move(recs), note_bulk(a, names));
  for (int i = 0; i < 10; ++i) {
    auto name = "x" + std::to_string(i);
    p.send(keyed("nowhere", name), [&a, name](caf::expected<record_metadata> res) { a.note(name, res); });
  }
  BOOST_REQUIRE(a.wait_for(110));
  std::lock_guard<std::mutex> guard{a.mtx};
  for (auto& [name, res] : a.by_name) {
    BOOST_REQUIRE(res.size() == 1u);
    BOOST_REQUIRE(!res[0]);
    BOOST_TEST((to_kafka_error(res[0].error()) == kafka_error::request_timed_out));
  }
}

BOOST_AUTO_TEST_SUITE_END()
