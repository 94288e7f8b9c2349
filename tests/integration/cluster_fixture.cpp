#include "tests/integration/cluster_fixture.hpp"

#include <librdkafka/rdkafka.h>

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

namespace cafka::test {

namespace {

// librdkafka logs every refused connection (a killed broker); the tests read errors from
// the API instead.
void quiet_log(const rd_kafka_t*, int, const char*, const char*) {}

} // namespace

std::map<int32_t, int> cluster_metadata_view::leader_counts(const std::string& topic) const {
  std::map<int32_t, int> out;
  auto t = topics.find(topic);
  if (t != topics.end())
    for (auto& [p, info] : t->second)
      ++out[info.leader];
  return out;
}

std::vector<int32_t> cluster_metadata_view::led_by(const std::string& topic, int32_t broker) const {
  std::vector<int32_t> out;
  auto t = topics.find(topic);
  if (t != topics.end())
    for (auto& [p, info] : t->second)
      if (info.leader == broker)
        out.push_back(p);
  return out;
}

bool cluster_metadata_view::all_led(const std::string& topic, size_t partitions) const {
  auto t = topics.find(topic);
  if (t == topics.end() || t->second.size() < partitions)
    return false;
  for (auto& [p, info] : t->second)
    if (info.leader < 0 || info.error != 0)
      return false;
  return true;
}

cluster_metadata_view read_metadata(const std::string& bootstrap, std::chrono::milliseconds limit) {
  cluster_metadata_view view;
  char err[512];
  auto* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), err, sizeof err);
  rd_kafka_conf_set(conf, "allow.auto.create.topics", "false", err, sizeof err);
  rd_kafka_conf_set_log_cb(conf, quiet_log);
  auto* rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (rk == nullptr) {
    rd_kafka_conf_destroy(conf);
    view.error = std::string{"rd_kafka_new: "} + err;
    return view;
  }
  const rd_kafka_metadata_t* md = nullptr;
  auto rc = rd_kafka_metadata(rk, 1, nullptr, &md, static_cast<int>(limit.count()));
  if (rc != RD_KAFKA_RESP_ERR_NO_ERROR) {
    view.error = rd_kafka_err2str(rc);
  } else {
    for (int i = 0; i < md->broker_cnt; ++i)
      view.brokers.insert(md->brokers[i].id);
    for (int i = 0; i < md->topic_cnt; ++i) {
      auto& t = md->topics[i];
      auto& parts = view.topics[t.topic];
      for (int j = 0; j < t.partition_cnt; ++j) {
        auto& p = t.partitions[j];
        auto& out = parts[p.id];
        out.leader = p.leader;
        out.error = p.err;
        out.replicas.assign(p.replicas, p.replicas + p.replica_cnt);
        out.isr.assign(p.isrs, p.isrs + p.isr_cnt);
      }
    }
    rd_kafka_metadata_destroy(md);
    // From the Metadata response just received (librdkafka keeps it in its cache).
    view.controller = rd_kafka_controllerid(rk, 0);
  }
  rd_kafka_destroy(rk);
  return view;
}

bool poll_until(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    ::usleep(200'000);
  }
  return true;
}

cluster_fixture::cluster_fixture(int brokers, int session_timeout_ms, std::vector<std::string> extra)
  : session_timeout_ms_(session_timeout_ms), extra_(std::move(extra)) {
  for (int32_t id = 1; id <= brokers; ++id)
    start(id);
}

cluster_fixture::~cluster_fixture() {
  brokers_.clear(); // before ZooKeeper: each is killed by its PID
}

std::string cluster_fixture::log_dir(int32_t id) const {
  return dir_.path + "/broker-" + std::to_string(id);
}

server_process& cluster_fixture::start(int32_t id, bool same_ports) {
  auto log_dir = this->log_dir(id);
  std::filesystem::create_directories(log_dir);
  if (auto& old = brokers_[id]) {
    earlier_[id] += old->output() + "--- (broker " + std::to_string(id) + " restarted)\n";
    old.reset(); // a killed one's handle: its output file goes with it
  }
  std::vector<std::string> overrides{"broker.id=" + std::to_string(id), "zookeeper.connect=" + connect(),
                                     "zookeeper.session.timeout.ms=" + std::to_string(session_timeout_ms_)};
  overrides.insert(overrides.end(), extra_.begin(), extra_.end());
  if (auto known = ports_.find(id); same_ports && known != ports_.end()) {
    overrides.push_back("listeners=PLAINTEXT://127.0.0.1:" + std::to_string(known->second.first));
    overrides.push_back("caf.port=" + std::to_string(known->second.second));
  }
  brokers_[id] = std::make_unique<server_process>(log_dir, std::move(overrides));
  ports_[id] = {brokers_[id]->kafka_port(), brokers_[id]->caf_port()};
  return *brokers_[id];
}

void cluster_fixture::kill(int32_t id) {
  broker(id).kill_hard();
}

int cluster_fixture::stop(int32_t id) {
  return broker(id).stop();
}

void cluster_fixture::wipe(int32_t id) {
  if (running(id))
    throw std::logic_error("broker " + std::to_string(id) + " still runs");
  std::filesystem::remove_all(log_dir(id));
}

bool cluster_fixture::running(int32_t id) const {
  auto i = brokers_.find(id);
  return i != brokers_.end() && i->second && i->second->running();
}

server_process& cluster_fixture::broker(int32_t id) {
  auto i = brokers_.find(id);
  if (i == brokers_.end() || !i->second)
    throw std::logic_error("no broker " + std::to_string(id));
  return *i->second;
}

std::vector<int32_t> cluster_fixture::running_ids() const {
  std::vector<int32_t> out;
  for (auto& [id, b] : brokers_)
    if (b && b->running())
      out.push_back(id);
  return out;
}

bool cluster_fixture::wait_for_brokers(int32_t via, const std::set<int32_t>& ids, std::chrono::milliseconds limit) {
  auto address = bootstrap(via);
  return poll_until(
    [&] {
      auto md = read_metadata(address);
      return md.ok() && md.brokers == ids;
    },
    limit);
}

run_result cluster_fixture::create_topic(int32_t via, const std::string& topic, int partitions) {
  return run({CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", bootstrap(via), "--create", "--topic",
              topic, "--partitions", std::to_string(partitions), "--replication-factor", "1"},
             "", std::chrono::seconds(60));
}

run_result cluster_fixture::create_topic(int32_t via, const std::string& topic, int partitions,
                                         int replication_factor, const std::vector<std::string>& configs) {
  std::vector<std::string> args{CAFKA_BINARY_DIR "/bin/cafka-topics", "--bootstrap-server", bootstrap(via),
                                "--create", "--topic", topic, "--partitions", std::to_string(partitions),
                                "--replication-factor", std::to_string(replication_factor)};
  for (auto& c : configs)
    args.insert(args.end(), {"--config", c});
  return run(args, "", std::chrono::seconds(60));
}

std::string cluster_fixture::history(int32_t id) {
  auto i = brokers_.find(id);
  return earlier_[id] + (i != brokers_.end() && i->second ? i->second->output() : std::string{});
}

std::string cluster_fixture::outputs() {
  std::string out;
  for (auto& [id, b] : brokers_)
    if (b)
      out += "--- broker " + std::to_string(id) + (b->running() ? "" : " (not running)") + ":\n" + b->output();
  return out;
}

} // namespace cafka::test
