#include "tests/integration/native_client.hpp"

#include <thread>

#include <boost/test/unit_test.hpp>

#include "actors/errors.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/consumer_records.hpp"

namespace cafka::test {

namespace {

caf::actor_system_config& prepare(caf::actor_system_config& cfg) {
  client::configure_client(cfg);
  return cfg;
}

} // namespace

client_system::client_system() : sys(prepare(cfg)) {}

node_actor client_system::connect(uint16_t port) {
  auto node = client::connect(sys, "127.0.0.1", port, std::chrono::seconds(20));
  if (!node) // Boost builds the message even when the check passes
    BOOST_FAIL("connect: " << describe(node.error()));
  return *node;
}

caf::actor collect_topic(caf::actor_system& sys, node_actor node, const std::string& topic,
                         int32_t partitions, std::shared_ptr<collected> into) {
  auto consumer = sys.spawn([into](caf::event_based_actor*) -> caf::behavior {
    return {
      [into](client::consumer_records& recs) {
        auto rs = client::records(recs);
        std::lock_guard<std::mutex> g{into->mutex};
        auto& list = into->by_partition[recs.tp.partition];
        for (auto& r : rs)
          list.push_back({r.offset, r.value.value_or("")});
        into->count += rs.size();
      },
      [into](client::consumer_error& e) {
        std::lock_guard<std::mutex> g{into->mutex};
        into->errors.push_back(describe(e.error));
      },
    };
  });
  for (int32_t p = 0; p < partitions; ++p)
    client::subscribe(sys, node, consumer, topic_partition{topic, p}, client::start_position::earliest());
  return consumer;
}

bool wait_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

} // namespace cafka::test
