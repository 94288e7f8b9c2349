#include "fixtures.hpp"

#include <atomic>
#include <deque>
#include <filesystem>

#include <boost/test/unit_test.hpp>
#include <unistd.h>

#include <caf/all.hpp>
#include <caf/io/all.hpp>

#include "actors/errors.hpp"
#include "actors/system_config.hpp"
#include "protocol/caf_port_handshake.hpp"
#include "client/client_config.hpp"

namespace client_test {

namespace {

std::atomic<int> dir_counter{0};

void small_scheduler(caf::actor_system_config& cfg) {
  cfg.set("scheduler.max-threads", 2);
}

} // namespace

temp_dir::temp_dir() {
  path = "/tmp/cafka-client-test-" + std::to_string(::getpid()) + "-" + std::to_string(dir_counter++);
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

server::server(const std::string& log_dir, uint16_t port,
               std::function<void(cafka::config::server_config&)> tweak) {
  cfg_ = std::make_unique<caf::actor_system_config>();
  cafka::configure_actor_system(*cfg_);
  small_scheduler(*cfg_);
  sys_ = std::make_unique<caf::actor_system>(*cfg_);
  cafka::config::server_config cfg;
  cfg.log_dirs = {log_dir};
  cfg.listeners = {{"PLAINTEXT", "127.0.0.1", 0}}; // a free port: tests may run side by side
  if (tweak)
    tweak(cfg);
  std::string error_text;
  auto n = cafka::start_node(*sys_, cfg, error_text);
  BOOST_REQUIRE_MESSAGE(n, "start_node: " << error_text);
  node_ = std::move(*n);
  published_ = cafka::publish_on_caf_port(*sys_, node_.actor, "127.0.0.1", port,
                                          std::string{cafka::protocol::caf_handshake::default_secret}, error_text);
  BOOST_REQUIRE_MESSAGE(published_, "publish: " << error_text);
  port_ = published_->port();
}

server::~server() {
  stop();
}

void server::stop() {
  if (!sys_)
    return;
  published_.reset();
  auto st = cafka::stop_node(*sys_, node_);
  BOOST_CHECK_MESSAGE(st, "stop_node: " << (st ? std::string{"ok"} : st.error().message()));
  node_ = cafka::node{};
  sys_.reset();
  cfg_.reset();
}

client_system::client_system() {
  cfg_ = std::make_unique<caf::actor_system_config>();
  cafka::client::configure_client(*cfg_);
  small_scheduler(*cfg_);
  sys_ = std::make_unique<caf::actor_system>(*cfg_);
}

client_system::~client_system() {
  sys_.reset();
}

std::string why(const caf::error& err) {
  return err ? cafka::describe(err) : std::string{"ok"};
}

bool sink_log::wait_until(const std::function<bool(sink_log&)>& pred, std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> guard{mtx};
  return cv.wait_for(guard, timeout, [&] { return pred(*this); });
}

namespace {

// Arguments go through spawn() rather than lambda captures: CAF 0.17.6 dereferences an
// empty argument tuple for argument-less function actors (UBSan: reference binding to
// null pointer in init_fun_factory.hpp).
caf::behavior sink_behavior(caf::event_based_actor* self, std::shared_ptr<sink_log> log,
                            std::chrono::milliseconds ack_delay) {
  auto acks = std::make_shared<std::deque<caf::response_promise>>();
  return {
    [=](cafka::client::consumer_records& recs) {
      auto decoded = cafka::client::records(recs);
      std::set<cafka::protocol::compression_codec> codecs;
      for (size_t pos = 0; pos < recs.batches.size();) {
        auto hdr = cafka::protocol::read_batch_header(
          cafka::protocol::bytes_view{recs.batches.data() + pos, recs.batches.size() - pos});
        if (!hdr)
          break;
        codecs.insert(hdr->codec());
        pos += hdr->total_size();
      }
      {
        std::lock_guard<std::mutex> guard{log->mtx};
        ++log->outstanding;
        log->max_outstanding = std::max(log->max_outstanding, log->outstanding);
        ++log->deliveries;
        log->codecs.insert(codecs.begin(), codecs.end());
        auto& part = log->by_partition[recs.tp.partition];
        for (auto& r : decoded)
          part.push_back(std::move(r));
        log->records += decoded.size();
      }
      log->cv.notify_all();
      acks->push_back(self->make_response_promise());
      self->delayed_send(self, ack_delay, caf::ok_atom_v);
      return acks->back();
    },
    [=](caf::ok_atom) {
      {
        std::lock_guard<std::mutex> guard{log->mtx};
        --log->outstanding;
      }
      auto rp = acks->front();
      acks->pop_front();
      rp.deliver(caf::message{});
    },
    [=](cafka::client::consumer_error& err) {
      {
        std::lock_guard<std::mutex> guard{log->mtx};
        log->errors.push_back(std::move(err));
      }
      log->cv.notify_all();
    },
  };
}

} // namespace

caf::actor spawn_sink(caf::actor_system& sys, std::shared_ptr<sink_log> log, std::chrono::milliseconds ack_delay) {
  return sys.spawn(sink_behavior, std::move(log), ack_delay);
}

void create_topic(caf::actor_system& sys, const cafka::node_actor& node, const std::string& topic,
                  int32_t partitions) {
  caf::scoped_actor self{sys};
  bool ok = false;
  std::string why;
  self->request(node, std::chrono::seconds(10), cafka::create_topic_atom_v,
                cafka::topic_spec{topic, partitions, -1, {}})
    .receive([&](cafka::topic_description&) { ok = true; },
             [&](caf::error& err) { why = cafka::describe(err); });
  BOOST_REQUIRE_MESSAGE(ok, "create_topic " << topic << ": " << why);
}

void stop_actor(caf::actor_system& sys, const caf::actor& a) {
  caf::scoped_actor self{sys};
  self->monitor(a);
  caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
  bool down = false;
  self->receive_while([&] { return !down; })([&](caf::down_msg&) { down = true; },
                                             caf::after(std::chrono::seconds(10)) >> [&] {
                                               BOOST_ERROR("actor did not stop within 10 s");
                                               down = true;
                                             });
}

} // namespace client_test
