// A native group member (client/group_consumer.hpp) and a librdkafka high-level consumer
// in ONE group on a real server: both speak the "consumer" protocol with the range
// assignor, so they split the topic's partitions, and each consumes only its own. Bounded
// waits only; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "actors/errors.hpp"
#include "client/group_consumer.hpp"
#include "client/producer.hpp"
#include "tests/integration/native_client.hpp"
#include "tests/integration/server_process.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

// What the native member's consumer saw.
struct member_view {
  std::mutex mutex;
  std::vector<int32_t> current; ///< partitions assigned now
  std::set<std::pair<int32_t, std::string>> records;
  std::vector<std::string> errors;
};

caf::behavior viewer(caf::event_based_actor*, std::shared_ptr<member_view> v) {
  return {
    [=](client::partitions_assigned& a) {
      std::lock_guard<std::mutex> g{v->mutex};
      v->current.clear();
      for (auto& tp : a.partitions)
        v->current.push_back(tp.partition);
    },
    [=](client::partitions_revoked&) {
      std::lock_guard<std::mutex> g{v->mutex};
      v->current.clear();
    },
    [=](client::consumer_records& recs) {
      auto decoded = client::records(recs);
      std::lock_guard<std::mutex> g{v->mutex};
      for (auto& r : decoded)
        v->records.emplace(recs.tp.partition, r.value.value_or(""));
    },
    [=](client::consumer_error& e) {
      std::lock_guard<std::mutex> g{v->mutex};
      v->errors.push_back(describe(e.error));
    },
  };
}

std::unique_ptr<RdKafka::KafkaConsumer> rdkafka_member(const std::string& bootstrap, const std::string& group) {
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  std::string err;
  for (auto [k, v] : std::vector<std::pair<std::string, std::string>>{{"bootstrap.servers", bootstrap},
                                                                      {"group.id", group},
                                                                      {"partition.assignment.strategy", "range"},
                                                                      {"session.timeout.ms", "10000"},
                                                                      {"heartbeat.interval.ms", "500"},
                                                                      {"auto.offset.reset", "earliest"}})
    if (conf->set(k, v, err) != RdKafka::Conf::CONF_OK)
      throw std::runtime_error("librdkafka config " + k + ": " + err);
  std::unique_ptr<RdKafka::KafkaConsumer> consumer{RdKafka::KafkaConsumer::create(conf.get(), err)};
  if (!consumer)
    throw std::runtime_error("KafkaConsumer::create: " + err);
  return consumer;
}

} // namespace

BOOST_AUTO_TEST_SUITE(native_group)

BOOST_AUTO_TEST_CASE(a_native_member_and_a_librdkafka_consumer_share_a_group) {
  test::scratch_dir dir;
  test::server_process server{dir.path + "/logs", {"group.initial.rebalance.delay.ms=0"}};
  test::client_system client;
  auto node = client.connect(server.caf_port());
  const std::string topic = "mixed-native";
  {
    caf::scoped_actor self{client.sys};
    self->request(node, 30s, create_topic_atom_v, topic_spec{topic, 4, 1, {}})
      .receive([](topic_description&) {}, [](caf::error& e) { BOOST_FAIL("create_topic: " << describe(e)); });
  }
  auto produce = [&](const std::string& prefix) {
    client::producer p{client.sys, node, client::producer_config{}};
    std::set<std::string> values;
    for (int i = 0; i < 40; ++i) {
      auto value = prefix + "-" + std::to_string(i);
      BOOST_REQUIRE(p.send_sync(topic, "k" + std::to_string(i), value));
      values.insert(value);
    }
    return values;
  };
  produce("old");

  auto view = std::make_shared<member_view>();
  auto consumer = client.sys.spawn(viewer, view);
  client::group_options opts;
  opts.group_id = "mixed-native";
  opts.topics = {topic};
  opts.heartbeat_interval = 500ms;
  opts.auto_offset_reset = client::offset_reset::earliest;
  opts.auto_commit_interval = 200ms;
  auto member = client::join_group(client.sys, node, consumer, opts);
  auto native_partitions = [&] {
    std::lock_guard<std::mutex> g{view->mutex};
    return view->current;
  };
  BOOST_REQUIRE(test::wait_until([&] { return native_partitions().size() == 4u; }, 60s));

  auto rd = rdkafka_member(server.bootstrap(), "mixed-native");
  BOOST_REQUIRE(rd->subscribe({topic}) == RdKafka::ERR_NO_ERROR);
  std::set<int32_t> rd_partitions;
  std::set<std::pair<int32_t, std::string>> rd_records;
  auto poll = [&] {
    std::unique_ptr<RdKafka::Message> m{rd->consume(200)};
    if (m->err() == RdKafka::ERR_NO_ERROR)
      rd_records.emplace(m->partition(), std::string(static_cast<const char*>(m->payload()), m->len()));
    std::vector<RdKafka::TopicPartition*> assignment;
    if (rd->assignment(assignment) == RdKafka::ERR_NO_ERROR) {
      rd_partitions.clear();
      for (auto* tp : assignment)
        rd_partitions.insert(tp->partition());
      RdKafka::TopicPartition::destroy(assignment);
    }
  };
  auto split = [&] { return rd_partitions.size() == 2u && native_partitions().size() == 2u; };
  for (int i = 0; i < 600 && !split(); ++i)
    poll();
  BOOST_REQUIRE_MESSAGE(split(), "no 2/2 split: librdkafka has " << rd_partitions.size() << ", native "
                                                                  << native_partitions().size());
  std::set<int32_t> all(rd_partitions.begin(), rd_partitions.end());
  for (auto p : native_partitions())
    all.insert(p);
  BOOST_TEST(all.size() == 4u); // disjoint, together everything

  // New records: each member gets those of its own partitions, together all of them.
  auto fresh = produce("new");
  auto seen_all = [&] {
    std::set<std::string> seen;
    for (auto& [_, v] : rd_records)
      seen.insert(v);
    std::lock_guard<std::mutex> g{view->mutex};
    for (auto& [_, v] : view->records)
      seen.insert(v);
    return std::includes(seen.begin(), seen.end(), fresh.begin(), fresh.end());
  };
  for (int i = 0; i < 600 && !seen_all(); ++i)
    poll();
  BOOST_TEST(seen_all());
  for (auto& [p, v] : rd_records)
    if (fresh.count(v))
      BOOST_TEST(rd_partitions.count(p) == 1u, "librdkafka got " << v << " of partition " << p);
  {
    auto mine = native_partitions();
    std::lock_guard<std::mutex> g{view->mutex};
    for (auto& [p, v] : view->records)
      if (fresh.count(v))
        BOOST_TEST((std::find(mine.begin(), mine.end(), p) != mine.end()), "native got " << v << " of " << p);
    BOOST_TEST(view->errors.empty());
  }
  rd->close();
  caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown); // the member leaves by itself
}

BOOST_AUTO_TEST_SUITE_END()
