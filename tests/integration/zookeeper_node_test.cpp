// cafka-server with zookeeper.connect against a real ZooKeeper server (tests/support/): the node
// creates the chroot, registers its ephemeral /brokers/ids/<id> (read back through
// zookeeper_coordinator), serves kcat -L, and removes the registration when it stops. A
// zookeeper.connect that nothing answers stops the server with a message naming the key.
// Every wait is bounded; both processes are stopped by PID.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <future>
#include <memory>
#include <string>

#include "cluster/zookeeper_coordinator.hpp"
#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"
#include "tests/support/zookeeper_server.hpp"

using namespace std::chrono_literals;
using cafka::cluster::errc;
using cafka::cluster::node_data;
using cafka::cluster::zookeeper_coordinator;

namespace {

const std::string kcat_bin = "/usr/bin/kcat";

// get() through the coordinator, waited for (bounded).
cafka::result<node_data> get(zookeeper_coordinator& zk, const std::string& path) {
  auto answer = std::make_shared<std::promise<cafka::result<node_data>>>();
  auto done = answer->get_future();
  zk.get(path, {}, [answer](cafka::result<node_data> r) { answer->set_value(std::move(r)); });
  BOOST_REQUIRE_MESSAGE(done.wait_for(30s) == std::future_status::ready, "no answer for " << path);
  return done.get();
}

} // namespace

BOOST_AUTO_TEST_SUITE(zookeeper_node)

BOOST_AUTO_TEST_CASE(node_registers_in_zookeeper_under_its_chroot) {
  cafka::test::zookeeper_server zk;
  cafka::test::scratch_dir dir;
  auto connect = zk.hosts() + "/cafka";
  cafka::test::server_process server{dir.path, {"zookeeper.connect=" + connect, "broker.id=7",
                                                "zookeeper.session.timeout.ms=10000"}};
  auto session = zookeeper_coordinator::connect(connect, 10s, 30s);
  BOOST_REQUIRE_MESSAGE(session, "no session: " << session.error().message());
  auto& c = **session;
  auto registered = get(c, "/brokers/ids/7");
  BOOST_REQUIRE_MESSAGE(registered, "not registered: " << registered.error().message() << "\n"
                                                       << server.output());
  BOOST_TEST(registered->stat.ephemeral_owner != 0);
  BOOST_TEST(registered->data.find(std::to_string(server.kafka_port())) != std::string::npos,
             registered->data);
  BOOST_TEST(get(c, "/controller").has_value()); // it elected itself

  auto listed = cafka::test::run({kcat_bin, "-b", server.bootstrap(), "-L"}, "", 60s);
  BOOST_REQUIRE_MESSAGE(listed.code == 0, "kcat -L exited " << listed.code << ": " << listed.err);
  BOOST_TEST(listed.out.find("  broker 7 at " + server.bootstrap()) != std::string::npos,
             listed.out);

  BOOST_TEST(server.stop() == 0, server.output());
  BOOST_TEST(get(c, "/brokers/ids/7").error() == errc::no_node); // its session was closed
}

BOOST_AUTO_TEST_CASE(unreachable_zookeeper_is_a_clear_error) {
  cafka::test::scratch_dir dir;
  // Port 1 on loopback: nothing listens there.
  auto run = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-server",
                               CAFKA_SOURCE_DIR "/config/server.properties", "--override",
                               "log.dirs=" + dir.path, "--override",
                               "listeners=PLAINTEXT://127.0.0.1:0", "--override", "caf.port=0",
                               "--override", "metrics.listener=", "--override", "zookeeper.connect=127.0.0.1:1/cafka", "--override",
                               "zookeeper.session.timeout.ms=1000"},
                              "", 60s);
  BOOST_TEST(run.code != 0);
  auto text = run.out + run.err;
  BOOST_TEST(text.find("zookeeper.connect '127.0.0.1:1/cafka'") != std::string::npos, text);
}

BOOST_AUTO_TEST_SUITE_END()
