// cafka-fuzz-client: drives mutated requests of every served API (seeded from the wire
// samples of the protocol tests, mutated as the in-process mutation test does) through a
// running broker's Kafka listener over many connections, while a librdkafka producer
// writes numbered records (acks=all) that a librdkafka consumer reads back and checks at
// the end. scripts/fuzz.sh runs it against a server built with ASan/UBSan;
// tests/integration/fuzz_test.cpp runs a short round.
//
//   cafka-fuzz-client --bootstrap-server 127.0.0.1:9092 [--requests 1000000] [--seed 1]
//                     [--connections 32]
//
// Exit 0 when the broker answered or closed every connection, stayed reachable, and the
// valid records were all delivered and read back in order; 1 otherwise, saying why.
#include <librdkafka/rdkafkacpp.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/byte_writer.hpp"
#include "protocol/wire/api_keys.hpp"
#include "wire_mutator.hpp"
#include "wire_samples.hpp"

using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;
namespace wt = cafka::wire::test;

namespace {

struct options {
  std::string host = "127.0.0.1";
  uint16_t port = 9092;
  long requests = 1'000'000;
  unsigned seed = 1;
  int connections = 32;
};

// A request not answered by then is given up on (acks=0 produces are never answered,
// fetches may wait): the connection is closed and a new one opened.
constexpr auto answer_timeout = 2s;

struct counts {
  long sent = 0, mutated = 0, answered = 0, closed = 0, unanswered = 0, connects = 0, wrong_correlation = 0;
};

struct slot {
  int fd = -1;
  bool waiting = false;
  int32_t correlation_id = 0;
  clock_type::time_point deadline;
  std::vector<char> in;
};

int connect_to(const options& o) {
  for (int attempt = 0; attempt < 50; ++attempt) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(o.port);
    inet_pton(AF_INET, o.host.c_str(), &addr.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      // RST on close: a million connections must not leave a million TIME_WAITs.
      linger l{1, 0};
      ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
      return fd;
    }
    ::close(fd);
    std::this_thread::sleep_for(100ms);
  }
  return -1;
}

void close_slot(slot& s) {
  ::close(s.fd);
  s = slot{};
}

bool send_all(int fd, const std::vector<char>& bytes) {
  size_t at = 0;
  auto until = clock_type::now() + answer_timeout;
  while (at < bytes.size()) {
    if (clock_type::now() > until)
      return false;
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, 100) <= 0)
      continue;
    auto n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
      continue;
    if (n <= 0)
      return false;
    at += static_cast<size_t>(n);
  }
  return true;
}

// `size:i32` (normally body.size()) + body.
std::vector<char> with_size_prefix(const std::vector<char>& body, uint32_t size) {
  std::vector<char> frame(4);
  uint32_t be = htonl(size);
  std::memcpy(frame.data(), &be, 4);
  frame.insert(frame.end(), body.begin(), body.end());
  return frame;
}

// The next request: a sample, mutated nine times out of ten, in a frame whose size prefix
// is right but for one in fifty.
std::vector<char> next_request(const std::vector<wt::wire_sample>& samples, std::mt19937& gen, int32_t correlation_id,
                               counts& c) {
  auto body = wt::frame_of(samples[gen() % samples.size()], correlation_id);
  if (gen() % 10 != 0) {
    ++c.mutated;
    for (int rounds = 1 + static_cast<int>(gen() % 3); rounds > 0; --rounds)
      wt::mutate(body, gen);
  }
  return with_size_prefix(body, gen() % 50 == 0 ? static_cast<uint32_t>(gen()) : static_cast<uint32_t>(body.size()));
}

// Reads what arrived; true once a whole response frame is in.
enum class read_state { partial, complete, closed };
read_state read_response(slot& s) {
  char buf[65536];
  for (;;) {
    auto n = ::recv(s.fd, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0)
      return read_state::closed;
    if (n < 0)
      return errno == EAGAIN || errno == EINTR ? read_state::partial : read_state::closed;
    s.in.insert(s.in.end(), buf, buf + n);
    if (s.in.size() >= 4) {
      uint32_t be;
      std::memcpy(&be, s.in.data(), 4);
      if (s.in.size() >= 4 + size_t{ntohl(be)})
        return read_state::complete;
    }
  }
}

// A valid request on a connection of its own, and its answer (nullopt if none came).
std::optional<std::vector<char>> ask(const options& o, int16_t api_key, const std::vector<char>& body) {
  auto request = wt::frame_of(wt::wire_sample{api_key, 0, body}, 1); // v0, non-flexible
  auto frame = with_size_prefix(request, static_cast<uint32_t>(request.size()));
  slot s;
  s.fd = connect_to(o);
  if (s.fd < 0)
    return std::nullopt;
  std::optional<std::vector<char>> out;
  if (send_all(s.fd, frame)) {
    auto until = clock_type::now() + 30s;
    while (clock_type::now() < until) {
      pollfd p{s.fd, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0)
        continue;
      auto state = read_response(s);
      if (state == read_state::complete)
        out = s.in;
      if (state != read_state::partial)
        break;
    }
  }
  close_slot(s);
  return out;
}

std::vector<char> topic_names_body(const std::vector<std::string>& names) {
  std::vector<char> body;
  cafka::protocol::byte_writer w{body};
  w.write_i32(static_cast<int32_t>(names.size()));
  for (auto& n : names) {
    w.write_i16(static_cast<int16_t>(n.size()));
    w.write_raw({n.data(), n.size()});
  }
  return body;
}

// CreateTopics v0 of the checked topic (auto-creation is off on the fuzzed broker).
bool create_checked_topic(const options& o) {
  std::vector<char> body;
  cafka::protocol::byte_writer w{body};
  w.write_i32(1); // one topic
  w.write_i16(12);
  w.write_raw({"fuzz-checked", 12});
  w.write_i32(1);  // partitions
  w.write_i16(1);  // replication factor
  w.write_i32(0);  // assignments
  w.write_i32(0);  // configs
  w.write_i32(30000);
  return ask(o, 19, body).has_value();
}

// The topics mutated CreateTopics requests made, deleted every so often so that the
// broker's topic count stays bounded (each new one costs a registry write and every
// later all-topics Metadata answer).
void prune_topics(const options& o) {
  std::string err;
  std::unique_ptr<RdKafka::Conf> conf{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
  conf->set("bootstrap.servers", o.host + ":" + std::to_string(o.port), err);
  std::unique_ptr<RdKafka::Producer> admin{RdKafka::Producer::create(conf.get(), err)};
  RdKafka::Metadata* md = nullptr;
  if (!admin || admin->metadata(true, nullptr, &md, 30000) != RdKafka::ERR_NO_ERROR)
    return;
  std::unique_ptr<RdKafka::Metadata> owned{md};
  std::vector<std::string> names;
  for (auto* t : *md->topics())
    if (t->topic() != "fuzz-checked" && t->topic().rfind("__", 0) != 0)
      names.push_back(t->topic());
  for (size_t at = 0; at < names.size(); at += 100) {
    std::vector<std::string> some(names.begin() + static_cast<std::ptrdiff_t>(at),
                                  names.begin() + static_cast<std::ptrdiff_t>(std::min(at + 100, names.size())));
    auto body = topic_names_body(some);
    cafka::protocol::byte_writer w{body};
    w.write_i32(30000);
    ask(o, 20, body);
  }
}

bool fuzz(const options& o, counts& c) {
  std::vector<wt::wire_sample> samples;
  for (auto* family : {&wt::data_request_samples, &wt::admin_request_samples, &wt::group_request_samples})
    for (auto& s : (*family)())
      // Not AlterClientQuotas: a mutated one may set a tiny quota for the default client,
      // which would rightly throttle the checked producer for hours. (Its decoder is
      // fuzzed in protocol_tests' mutation test.)
      if (s.api_key != static_cast<int16_t>(cafka::wire::api_key::alter_client_quotas))
        samples.push_back(std::move(s));
  std::mt19937 gen{o.seed};
  std::vector<slot> slots(static_cast<size_t>(o.connections));
  int32_t next_correlation = 1;
  auto last_report = clock_type::now();
  long next_prune = 5000;
  while (c.sent < o.requests || std::any_of(slots.begin(), slots.end(), [](auto& s) { return s.waiting; })) {
    for (auto& s : slots) {
      if (s.waiting || c.sent >= o.requests)
        continue;
      if (s.fd < 0) {
        s.fd = connect_to(o);
        if (s.fd < 0) {
          std::fprintf(stderr, "fuzz: the broker at %s:%u cannot be reached any more (after %ld requests)\n",
                       o.host.c_str(), o.port, c.sent);
          return false;
        }
        ++c.connects;
      }
      auto frame = next_request(samples, gen, next_correlation++, c);
      // The id the broker must echo is the one in the frame, which a mutation may have changed.
      if (frame.size() >= 12) {
        uint32_t be;
        std::memcpy(&be, frame.data() + 8, 4);
        s.correlation_id = static_cast<int32_t>(ntohl(be));
      }
      ++c.sent;
      if (!send_all(s.fd, frame)) {
        ++c.closed;
        close_slot(s);
        continue;
      }
      s.waiting = true;
      s.deadline = clock_type::now() + answer_timeout;
    }
    std::vector<pollfd> fds;
    std::vector<slot*> polled;
    for (auto& s : slots)
      if (s.waiting) {
        fds.push_back({s.fd, POLLIN, 0});
        polled.push_back(&s);
      }
    if (fds.empty())
      continue;
    ::poll(fds.data(), fds.size(), 50);
    auto now = clock_type::now();
    for (size_t i = 0; i < fds.size(); ++i) {
      auto& s = *polled[i];
      if (fds[i].revents != 0) {
        auto state = read_response(s);
        if (state == read_state::closed) {
          ++c.closed;
          close_slot(s);
          continue;
        }
        if (state == read_state::complete) {
          int32_t corr;
          std::memcpy(&corr, s.in.data() + 4, 4);
          if (static_cast<int32_t>(ntohl(static_cast<uint32_t>(corr))) != s.correlation_id)
            ++c.wrong_correlation;
          ++c.answered;
          // Any bytes beyond one response (there should be none) would be a protocol error
          // too; start the next request on a fresh state.
          s.in.clear();
          s.waiting = false;
          continue;
        }
      }
      if (now > s.deadline) {
        ++c.unanswered;
        close_slot(s);
      }
    }
    if (c.sent >= next_prune) {
      next_prune += 5000;
      prune_topics(o);
    }
    if (now - last_report > 10s) {
      last_report = now;
      std::fprintf(stderr, "fuzz: %ld of %ld requests sent\n", c.sent, o.requests);
    }
  }
  for (auto& s : slots)
    if (s.fd >= 0)
      ::close(s.fd);
  return true;
}

// Valid traffic beside the fuzzing: numbered records, acks=all, then all read back.
struct checked_traffic {
  struct reports : RdKafka::DeliveryReportCb {
    std::atomic<long> ok{0}, failed{0};
    std::string first_error;
    void dr_cb(RdKafka::Message& m) override {
      if (m.err() == RdKafka::ERR_NO_ERROR)
        ++ok;
      else if (failed++ == 0)
        first_error = m.errstr();
    }
  } delivered;
  long produced = 0;
  std::string error;

  std::unique_ptr<RdKafka::Conf> conf(const options& o) {
    std::unique_ptr<RdKafka::Conf> c{RdKafka::Conf::create(RdKafka::Conf::CONF_GLOBAL)};
    std::string err;
    c->set("bootstrap.servers", o.host + ":" + std::to_string(o.port), err);
    return c;
  }

  void produce_until(const options& o, const std::atomic<bool>& stop) {
    auto c = conf(o);
    std::string err;
    c->set("acks", "all", err);
    c->set("linger.ms", "5", err);
    c->set("message.timeout.ms", "120000", err);
    c->set("dr_cb", &delivered, err);
    std::unique_ptr<RdKafka::Producer> producer{RdKafka::Producer::create(c.get(), err)};
    if (!producer) {
      error = "producer: " + err;
      return;
    }
    while (!stop) {
      auto value = "v-" + std::to_string(produced);
      if (producer->produce("fuzz-checked", 0, RdKafka::Producer::RK_MSG_COPY, value.data(), value.size(), nullptr, 0,
                            0, nullptr)
          == RdKafka::ERR_NO_ERROR)
        ++produced;
      producer->poll(2);
    }
    producer->flush(120000);
    if (producer->outq_len() != 0)
      error = std::to_string(producer->outq_len()) + " record(s) never delivered";
  }

  // Every record produced is read back, in order (a retried batch may repeat records).
  bool read_back(const options& o) {
    if (!error.empty())
      return false;
    if (delivered.failed > 0 || delivered.ok != produced) {
      error = std::to_string(delivered.failed) + " of " + std::to_string(produced)
              + " deliveries failed: " + delivered.first_error;
      return false;
    }
    auto c = conf(o);
    std::string err;
    std::unique_ptr<RdKafka::Consumer> consumer{RdKafka::Consumer::create(c.get(), err)};
    std::unique_ptr<RdKafka::Topic> topic{RdKafka::Topic::create(consumer.get(), "fuzz-checked", nullptr, err)};
    consumer->start(topic.get(), 0, RdKafka::Topic::OFFSET_BEGINNING);
    long expect = 0;
    auto until = clock_type::now() + 120s;
    while (expect < produced && clock_type::now() < until) {
      std::unique_ptr<RdKafka::Message> m{consumer->consume(topic.get(), 0, 1000)};
      if (m->err() != RdKafka::ERR_NO_ERROR)
        continue;
      std::string value(static_cast<const char*>(m->payload()), m->len());
      auto n = std::atol(value.c_str() + 2);
      if (n > expect) {
        error = "read " + value + " where v-" + std::to_string(expect) + " was due";
        break;
      }
      if (n == expect)
        ++expect;
    }
    consumer->stop(topic.get(), 0);
    if (error.empty() && expect < produced)
      error = "read back only " + std::to_string(expect) + " of " + std::to_string(produced) + " records";
    return error.empty();
  }
};

bool parse(int argc, char** argv, options& o) {
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--bootstrap-server") {
      auto colon = v.rfind(':');
      if (colon == std::string::npos)
        return false;
      o.host = v.substr(0, colon);
      o.port = static_cast<uint16_t>(std::atoi(v.c_str() + colon + 1));
    } else if (k == "--requests") {
      o.requests = std::atol(v.c_str());
    } else if (k == "--seed") {
      o.seed = static_cast<unsigned>(std::atol(v.c_str()));
    } else if (k == "--connections") {
      o.connections = std::max(1, std::atoi(v.c_str()));
    } else {
      return false;
    }
  }
  return argc % 2 == 1;
}

} // namespace

int main(int argc, char** argv) {
  options o;
  if (!parse(argc, argv, o)) {
    std::fprintf(stderr, "usage: cafka-fuzz-client --bootstrap-server HOST:PORT [--requests N] [--seed S] "
                         "[--connections C]\n");
    return 2;
  }
  if (!create_checked_topic(o)) {
    std::fprintf(stderr, "fuzz: cannot create topic fuzz-checked at %s:%u\n", o.host.c_str(), o.port);
    return 1;
  }
  checked_traffic valid;
  std::atomic<bool> stop{false};
  std::thread producer{[&] { valid.produce_until(o, stop); }};
  counts c;
  auto started = clock_type::now();
  bool reachable = fuzz(o, c);
  auto seconds = std::chrono::duration<double>(clock_type::now() - started).count();
  stop = true;
  producer.join();
  bool checked = reachable && valid.read_back(o);
  std::printf("fuzz: seed %u: %ld requests (%ld mutated) over %ld connections in %.1f s (%.0f requests/s): "
              "%ld answered, %ld closed by the broker, %ld unanswered within 2 s, %ld with a wrong correlation id\n",
              o.seed, c.sent, c.mutated, c.connects, seconds, c.sent / std::max(seconds, 0.001), c.answered, c.closed,
              c.unanswered, c.wrong_correlation);
  std::printf("fuzz: valid traffic: %ld records produced (acks=all), %s\n", valid.produced,
              checked ? "all read back in order" : ("FAILED: " + valid.error).c_str());
  return reachable && checked && c.wrong_correlation == 0 ? 0 : 1;
}
