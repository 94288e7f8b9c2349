// Issue 15 point 5 with a real full disk: log.dirs = a 4 MiB tmpfs (mounted here, as root)
// and an ordinary folder. A librdkafka producer fills the tmpfs partition until the broker
// answers KAFKA_STORAGE_ERROR; the partition in the other log dir keeps taking records;
// every acknowledged record reads back (kcat), before and after a restart once the disk has
// room again, and the log says which dir went offline. Bounded loops; nothing asserts on timing.
#include <boost/test/unit_test.hpp>

#include <librdkafka/rdkafkacpp.h>

#include <sys/mount.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;

namespace {

std::string show(const cafka::test::run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout: " + r.out + "\nstderr: " + r.err;
}

// A small tmpfs, unmounted at the end.
struct small_disk {
  std::string path;
  bool mounted = false;
  explicit small_disk(const std::string& at) : path(at) {
    std::filesystem::create_directories(path);
    mounted = ::mount("tmpfs", path.c_str(), "tmpfs", 0, "size=4m") == 0;
  }
  ~small_disk() {
    if (mounted)
      ::umount2(path.c_str(), MNT_DETACH);
    std::filesystem::remove_all(path);
  }
};

struct delivery_log : RdKafka::DeliveryReportCb {
  std::vector<std::string> acknowledged;
  long failed = 0;
  std::string last_error;
  RdKafka::ErrorCode last_code = RdKafka::ERR_NO_ERROR;
  void dr_cb(RdKafka::Message& m) override {
    if (m.err() == RdKafka::ERR_NO_ERROR) {
      acknowledged.emplace_back(static_cast<const char*>(m.payload()), m.len());
    } else {
      ++failed;
      last_code = m.err();
      last_error = m.errstr();
    }
  }
};

std::unique_ptr<RdKafka::Producer> make_producer(const std::string& bootstrap, delivery_log& log) {
  std::string err;
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  conf->set("bootstrap.servers", bootstrap, err);
  conf->set("acks", "1", err);
  conf->set("retries", "0", err); // the broker's own error reaches the report
  conf->set("linger.ms", "0", err);
  conf->set("message.timeout.ms", "10000", err);
  conf->set("dr_cb", &log, err);
  std::unique_ptr<RdKafka::Producer> p{RdKafka::Producer::create(conf.get(), err)};
  BOOST_REQUIRE_MESSAGE(p, err);
  return p;
}

// Every value of topic `t` from the beginning (kcat, one per line).
std::vector<std::string> read_all(const cafka::test::server_process& server, const std::string& t) {
  auto r = cafka::test::run({"/usr/bin/kcat", "-b", server.bootstrap(), "-C", "-t", t, "-o", "beginning", "-e", "-q"},
                            "", 120s);
  BOOST_REQUIRE_MESSAGE(r.code == 0, show(r));
  return cafka::test::lines(r.out);
}

} // namespace

BOOST_AUTO_TEST_SUITE(storage_faults)

BOOST_AUTO_TEST_CASE(a_full_log_dir_goes_offline_and_loses_nothing_acknowledged) {
  if (::geteuid() != 0) {
    BOOST_FAIL("this test mounts a tmpfs and must run as root (CI does)");
  }
  cafka::test::scratch_dir dir;
  small_disk disk{dir.path + "-tmpfs"};
  BOOST_REQUIRE_MESSAGE(disk.mounted, "cannot mount a tmpfs at " << disk.path);
  auto other_dir = dir.path + "/other";
  std::vector<std::string> overrides{"log.dirs=" + disk.path + "," + other_dir, "auto.create.topics.enable=false"};
  auto server = std::make_unique<cafka::test::server_process>(dir.path + "/unused", overrides);
  // The first topic's partition goes to the first (small) dir, the next to the other.
  for (auto topic : {"full", "spare"}) {
    auto created = cafka::test::run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", server->bootstrap(), "--create",
                                     "--topic", topic, "--partitions", "1"},
                                    "", 60s);
    BOOST_REQUIRE_MESSAGE(created.code == 0, show(created));
  }
  BOOST_REQUIRE(std::filesystem::exists(disk.path + "/full-0"));
  BOOST_REQUIRE(std::filesystem::exists(other_dir + "/spare-0"));

  delivery_log reports;
  auto producer = make_producer(server->bootstrap(), reports);
  std::string value(4000, 'x');
  for (int i = 0; i < 2000 && reports.failed == 0; ++i) {
    auto v = std::to_string(i) + "-" + value;
    producer->produce("full", 0, RdKafka::Producer::RK_MSG_COPY, v.data(), v.size(), nullptr, 0, 0, nullptr);
    producer->flush(10000); // one at a time: the first failure ends the loop
  }
  BOOST_TEST_MESSAGE(reports.acknowledged.size() << " records acknowledged before: " << reports.last_error);
  BOOST_REQUIRE_MESSAGE(reports.failed > 0, "4 MiB took 2000 records of 4 KB?");
  BOOST_TEST(reports.last_code == RdKafka::ERR_KAFKA_STORAGE_ERROR, reports.last_error);
  BOOST_TEST(!reports.acknowledged.empty());
  BOOST_TEST(server->output().find("its log dir is offline") != std::string::npos);

  // The other log dir takes writes; the full one keeps refusing them.
  delivery_log spare_reports;
  auto spare = make_producer(server->bootstrap(), spare_reports);
  for (int i = 0; i < 20; ++i) {
    auto v = "spare-" + std::to_string(i);
    spare->produce("spare", 0, RdKafka::Producer::RK_MSG_COPY, v.data(), v.size(), nullptr, 0, 0, nullptr);
  }
  spare->flush(30000);
  BOOST_TEST(spare_reports.acknowledged.size() == 20u, spare_reports.last_error);
  auto again = std::string("after");
  producer->produce("full", 0, RdKafka::Producer::RK_MSG_COPY, again.data(), again.size(), nullptr, 0, 0, nullptr);
  producer->flush(10000);
  BOOST_TEST(reports.last_code == RdKafka::ERR_KAFKA_STORAGE_ERROR);

  // What was acknowledged reads back, now and after a restart.
  BOOST_TEST(read_all(*server, "full") == reports.acknowledged);
  producer.reset();
  spare.reset();
  server->stop(); // writing checkpoints may fail on the full disk: recovery covers that
  // The operator makes room (here: a larger tmpfs) and restarts; recovery scans the log.
  BOOST_REQUIRE(::mount("tmpfs", disk.path.c_str(), "tmpfs", MS_REMOUNT, "size=16m") == 0);
  server = std::make_unique<cafka::test::server_process>(dir.path + "/unused", overrides);
  BOOST_TEST(read_all(*server, "full") == reports.acknowledged);
  BOOST_TEST(read_all(*server, "spare").size() == 20u);
  BOOST_TEST(server->stop() == 0, server->output());
}

BOOST_AUTO_TEST_SUITE_END()
