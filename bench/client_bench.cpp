// Client benchmark against a running cafka-server: prints one name=value line per figure.
//
//   client_bench --bootstrap-server 127.0.0.1:9192 [--records N] [--partitions P]
//                [--batch-size BYTES] [--rate R] [--latency-seconds S]
//                [--api bulk|single] [--bulk-size K] [--phases produce,consume,group,latency,exactly-once]
//                [--transaction-records T] [--txn-producers K]
//
// 1. produce: N records of 100 bytes (acks=1, so not idempotent; linger 5 ms), each with its own key
//    (std::to_string(i)) and its own acknowledgement, to a new topic with P partitions;
//    records/s and MB/s from the first send to the last acknowledgement. --api bulk (the
//    default) hands the records over K at a time with producer::send(std::vector, ...),
//    one bulk_callback call per record; --api single calls send(record, callback) per
//    record. The line produce_api=... says which one ran.
// 2. consume: the same N records from offset 0 by consumer actors, one subscription per
//    partition, iterating the records as views (client::for_each_record, no copies);
//    records/s and MB/s until the last record arrived (needs the produce phase).
// 2b. group (only when asked for in --phases): the same N records read by one member of a
//    new consumer group (client::join_group, earliest, auto-commit): group_join_ms from the
//    join to the assignment (includes the server's group.initial.rebalance.delay.ms), then
//    records/s and MB/s from the assignment to the last record.
// 2c. exactly-once (only when asked for in --phases): N records of 100 bytes with acks=all
//    three ways in the same run, each to a fresh topic with P partitions: plain (idempotence
//    off), idempotent (cafka's default), and transactional, in transactions of T records
//    (--transaction-records, default 100) from K producers at once (--txn-producers,
//    default 4; each has its own transactional id and its share of the records); records/s
//    and the ratios to plain.
// 3. latency: records sent one by one (send(record, callback)) at R records/s for S
//    seconds (linger 0) to a fresh topic and consumed as they arrive; end-to-end latency
//    (send -> consumer actor) p50/p99/p99.9.

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "client/client_config.hpp"
#include "client/connect.hpp"
#include "client/consumer_records.hpp"
#include "client/group_consumer.hpp"
#include "client/group_messages.hpp"
#include "client/producer.hpp"
#include "client/subscription.hpp"

using namespace cafka;
using clock_type = std::chrono::steady_clock;

namespace {

struct options {
  std::string bootstrap = "127.0.0.1:9192";
  long records = 2'000'000;
  int partitions = 4;
  size_t batch_size = 256 * 1024;
  long rate = 10'000;
  long latency_seconds = 10;
  std::string api = "bulk";
  size_t bulk_size = 1000;
  std::string phases = "produce,consume,latency";
  long transaction_records = 100;
  int txn_producers = 4;
  bool has(const char* phase) const { return phases.find(phase) != std::string::npos; }
};

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "client_bench: %s\n", what.c_str());
  std::exit(1);
}

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--bootstrap-server")
      o.bootstrap = v;
    else if (k == "--records")
      o.records = std::stol(v);
    else if (k == "--partitions")
      o.partitions = std::stoi(v);
    else if (k == "--batch-size")
      o.batch_size = std::stoul(v);
    else if (k == "--rate")
      o.rate = std::stol(v);
    else if (k == "--latency-seconds")
      o.latency_seconds = std::stol(v);
    else if (k == "--api")
      o.api = v;
    else if (k == "--bulk-size")
      o.bulk_size = std::stoul(v);
    else if (k == "--phases")
      o.phases = v;
    else if (k == "--transaction-records")
      o.transaction_records = std::stol(v);
    else if (k == "--txn-producers")
      o.txn_producers = std::stoi(v);
    else
      fail("unknown option " + k);
  }
  if (o.api != "bulk" && o.api != "single")
    fail("--api must be bulk or single");
  if (o.bulk_size == 0)
    fail("--bulk-size must be at least 1");
  if (o.transaction_records < 1 || o.txn_producers < 1)
    fail("--transaction-records and --txn-producers must be at least 1");
  return o;
}

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(clock_type::now().time_since_epoch()).count();
}

void create_topic(caf::actor_system& sys, node_actor node, const std::string& name, int partitions) {
  caf::scoped_actor self{sys};
  self->request(node, std::chrono::seconds(30), create_topic_atom_v, topic_spec{name, partitions, 1, {}})
    .receive([](topic_description&) {}, [&](caf::error& e) { fail("create topic: " + describe(e)); });
}

// Counts consumed records (and collects latencies when values carry a send time).
struct sink {
  std::atomic<long> records{0};
  std::atomic<long> bytes{0};
  bool measure_latency = false;
  std::mutex mutex;
  std::vector<int64_t> latencies_ns;
  std::atomic<bool> assigned{false}; ///< a group member got its partitions
};

caf::actor spawn_sink(caf::actor_system& sys, std::shared_ptr<sink> s) {
  return sys.spawn([s](caf::event_based_actor*) -> caf::behavior {
    return {
      [s](client::consumer_records& recs) {
        auto now = s->measure_latency ? now_ns() : 0;
        long n = 0, b = 0;
        std::vector<int64_t> lat;
        auto err = client::for_each_record(recs, [&](const protocol::record_view& r) {
          ++n;
          b += static_cast<long>(r.value ? r.value->size() : 0);
          if (s->measure_latency) {
            int64_t sent = 0;
            if (r.value && r.value->size() >= sizeof sent)
              std::memcpy(&sent, r.value->data(), sizeof sent);
            lat.push_back(now - sent);
          }
        });
        if (err)
          fail("consumer: " + describe(err));
        if (!lat.empty()) {
          std::lock_guard<std::mutex> g{s->mutex};
          s->latencies_ns.insert(s->latencies_ns.end(), lat.begin(), lat.end());
        }
        s->bytes += b;
        s->records += n;
      },
      [](client::consumer_error& e) { fail("consumer: " + describe(e.error)); },
      [s](client::partitions_assigned& a) {
        if (!a.partitions.empty())
          s->assigned = true;
      },
      [](client::partitions_revoked&) {},
    };
  });
}

void wait_for(const std::function<bool()>& done, std::chrono::seconds limit, const char* what) {
  auto deadline = clock_type::now() + limit;
  while (!done()) {
    if (clock_type::now() > deadline)
      fail(std::string("timed out waiting for ") + what);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

double percentile(std::vector<int64_t>& v, double p) {
  if (v.empty())
    return 0;
  auto k = static_cast<size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<long>(k), v.end());
  return static_cast<double>(v[k]);
}

// Sends `count` records from `first` to `topic` in bulk calls; with `flush`, waits until all
// are answered and says whether every one was acknowledged. (In a transaction the commit
// waits for them and fails if one failed: no flush of its own there.)
bool produce_all(client::producer& p, const std::string& topic, const std::string& value, long first, long count,
                 size_t bulk, bool flush = true) {
  auto failed = std::make_shared<std::atomic<long>>(0);
  auto on_done = [failed](size_t, const caf::expected<client::record_metadata>& md) {
    if (!md)
      failed->fetch_add(1, std::memory_order_relaxed);
  };
  for (long i = first; i < first + count;) {
    std::vector<client::producer_record> recs;
    auto n = std::min(static_cast<long>(bulk), first + count - i);
    recs.reserve(static_cast<size_t>(n));
    for (long j = 0; j < n; ++j, ++i)
      recs.push_back(client::producer_record{topic, std::to_string(i), value, {}, std::nullopt, std::nullopt});
    p.send(std::move(recs), on_done);
  }
  return !flush || (!p.flush() && *failed == 0);
}

// Phase 2c (see the top): records/s of plain, idempotent and transactional acks=all produce.
void exactly_once_phase(caf::actor_system& sys, const node_actor& node, const options& opt, const std::string& topic,
                        const std::string& value) {
  auto timed = [&](const char* name, const std::function<void(const std::string&)>& run) {
    auto t = topic + "-" + name;
    create_topic(sys, node, t, opt.partitions);
    auto t0 = clock_type::now();
    run(t);
    auto rate = static_cast<double>(opt.records) / std::chrono::duration<double>(clock_type::now() - t0).count();
    std::printf("produce_%s_acks_all_records_per_s=%.0f\n", name, rate);
    std::fflush(stdout);
    return rate;
  };
  auto base = [&] {
    client::producer_config pc;
    pc.batch_size = opt.batch_size;
    pc.linger = std::chrono::milliseconds(5);
    pc.acks = -1;
    return pc;
  };
  auto plain = timed("plain", [&](const std::string& t) {
    auto pc = base();
    pc.enable_idempotence = false;
    client::producer p{sys, node, pc};
    if (!produce_all(p, t, value, 0, opt.records, opt.bulk_size))
      fail("plain produce: not every record acknowledged");
  });
  auto idempotent = timed("idempotent", [&](const std::string& t) {
    client::producer p{sys, node, base()}; // idempotent by default
    if (!produce_all(p, t, value, 0, opt.records, opt.bulk_size))
      fail("idempotent produce: not every record acknowledged");
  });
  auto transactional = timed("transactional", [&](const std::string& t) {
    std::vector<std::thread> threads;
    std::atomic<long> failures{0};
    auto share = opt.records / opt.txn_producers;
    for (int k = 0; k < opt.txn_producers; ++k)
      threads.emplace_back([&, k] {
        auto pc = base();
        pc.transactional_id = "bench-" + std::to_string(::getpid()) + "-" + std::to_string(k);
        client::producer p{sys, node, pc};
        if (p.init_transactions()) {
          ++failures;
          return;
        }
        auto first = k * share;
        auto count = k + 1 == opt.txn_producers ? opt.records - first : share;
        for (long done = 0; done < count; done += opt.transaction_records) {
          auto n = std::min(opt.transaction_records, count - done);
          if (p.begin_transaction() || !produce_all(p, t, value, first + done, n, opt.bulk_size, false)
              || p.commit_transaction()) {
            ++failures;
            return;
          }
        }
      });
    for (auto& th : threads)
      th.join();
    if (failures > 0)
      fail("transactional produce: " + std::to_string(failures.load()) + " producers failed");
  });
  std::printf("produce_transaction_records=%ld\nproduce_txn_producers=%d\n", opt.transaction_records,
              opt.txn_producers);
  std::printf("idempotent_vs_plain=%.3f\ntransactional_vs_plain=%.3f\n", idempotent / plain, transactional / plain);
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  auto opt = parse(argc, argv);
  caf::actor_system_config cfg;
  client::configure_client(cfg);
  caf::actor_system sys{cfg};
  auto node = client::connect(sys, opt.bootstrap, std::chrono::seconds(10));
  if (!node)
    fail("cannot reach " + opt.bootstrap + ": " + describe(node.error()));
  auto topic = "bench-" + std::to_string(::getpid()) + "-" + std::to_string(now_ns() % 100000);
  create_topic(sys, *node, topic, opt.partitions);
  const std::string value(100, 'v');

  // 1. produce
  if (opt.has("produce")) {
    client::producer_config pc;
    pc.batch_size = opt.batch_size;
    pc.linger = std::chrono::milliseconds(5);
    pc.acks = 1; // (idempotence is then off)
    client::producer p{sys, *node, pc};
    // Every record's acknowledgement is counted (and checked for its offset).
    std::atomic<long> acked{0}, failed{0};
    auto record = [&](long i) {
      return client::producer_record{topic, std::to_string(i), value, {}, std::nullopt, std::nullopt};
    };
    auto t0 = clock_type::now();
    if (opt.api == "bulk") {
      std::printf("produce_api=bulk send(std::vector<producer_record>, bulk_callback), %zu records per call\n",
                  opt.bulk_size);
      auto on_done = [&](size_t, const caf::expected<client::record_metadata>& md) {
        if (md && md->offset >= 0)
          acked.fetch_add(1, std::memory_order_relaxed);
        else
          failed.fetch_add(1, std::memory_order_relaxed);
      };
      for (long i = 0; i < opt.records;) {
        std::vector<client::producer_record> recs;
        auto n = std::min(static_cast<long>(opt.bulk_size), opt.records - i);
        recs.reserve(static_cast<size_t>(n));
        for (long j = 0; j < n; ++j, ++i)
          recs.push_back(record(i));
        p.send(std::move(recs), on_done);
      }
    } else {
      std::printf("produce_api=single send(producer_record, send_callback) per record\n");
      for (long i = 0; i < opt.records; ++i)
        p.send(record(i), [&](caf::expected<client::record_metadata> md) {
          if (md && md->offset >= 0)
            acked.fetch_add(1, std::memory_order_relaxed);
          else
            failed.fetch_add(1, std::memory_order_relaxed);
        });
    }
    if (auto err = p.flush())
      fail("flush: " + describe(err));
    double s = std::chrono::duration<double>(clock_type::now() - t0).count();
    if (failed > 0)
      fail(std::to_string(failed.load()) + " sends failed");
    if (acked != opt.records)
      fail(std::to_string(acked.load()) + " of " + std::to_string(opt.records) + " records acknowledged");
    std::printf("produce_records_per_s=%.0f\nproduce_mb_per_s=%.1f\n", static_cast<double>(opt.records) / s,
                static_cast<double>(opt.records) * 100 / 1e6 / s);
    std::fflush(stdout);
    p.close();
  }

  // 2. consume
  if (opt.has("produce") && opt.has("consume")) {
    auto s = std::make_shared<sink>();
    auto consumer = spawn_sink(sys, s);
    auto t0 = clock_type::now();
    for (int part = 0; part < opt.partitions; ++part)
      client::subscribe(sys, *node, consumer, topic_partition{topic, part}, client::start_position::earliest());
    wait_for([&] { return s->records >= opt.records; }, std::chrono::seconds(300), "the consumers");
    double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
    std::printf("consume_records_per_s=%.0f\nconsume_mb_per_s=%.1f\n", static_cast<double>(s->records) / secs,
                static_cast<double>(s->bytes) / 1e6 / secs);
    std::fflush(stdout);
    caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  }

  // 2b. the same through a consumer group
  if (opt.has("produce") && opt.has("group")) {
    auto s = std::make_shared<sink>();
    auto consumer = spawn_sink(sys, s);
    client::group_options g;
    g.group_id = topic + "-bench-group";
    g.topics = {topic};
    g.auto_offset_reset = client::offset_reset::earliest;
    auto t0 = clock_type::now();
    auto member = client::join_group(sys, *node, consumer, g);
    wait_for([&] { return s->assigned.load(); }, std::chrono::seconds(60), "the group assignment");
    auto t1 = clock_type::now();
    wait_for([&] { return s->records >= opt.records; }, std::chrono::seconds(300), "the group member");
    double secs = std::chrono::duration<double>(clock_type::now() - t1).count();
    std::printf("group_join_ms=%.0f\ngroup_consume_records_per_s=%.0f\ngroup_consume_mb_per_s=%.1f\n",
                std::chrono::duration<double, std::milli>(t1 - t0).count(), static_cast<double>(s->records) / secs,
                static_cast<double>(s->bytes) / 1e6 / secs);
    std::fflush(stdout);
    caf::anon_send_exit(member, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
  }

  // 2c. plain, idempotent and transactional produce with acks=all
  if (opt.has("exactly-once"))
    exactly_once_phase(sys, *node, opt, topic, value);

  // 3. end-to-end latency at a fixed rate
  if (opt.has("latency")) {
    auto latency_topic = topic + "-latency";
    create_topic(sys, *node, latency_topic, 1);
    auto s = std::make_shared<sink>();
    s->measure_latency = true;
    auto consumer = spawn_sink(sys, s);
    auto sub = client::subscribe(sys, *node, consumer, topic_partition{latency_topic, 0},
                                 client::start_position::earliest());
    client::producer_config pc;
    pc.linger = std::chrono::milliseconds(0);
    client::producer p{sys, *node, pc};
    long total = opt.rate * opt.latency_seconds;
    auto interval = std::chrono::nanoseconds(1'000'000'000 / opt.rate);
    auto next = clock_type::now();
    std::string payload(100, 'l');
    for (long i = 0; i < total; ++i) {
      std::this_thread::sleep_until(next);
      next += interval;
      auto t = now_ns();
      std::memcpy(payload.data(), &t, sizeof t);
      p.send(client::producer_record{latency_topic, std::nullopt, payload, {}, std::nullopt, std::nullopt},
             [](caf::expected<client::record_metadata>) {});
    }
    p.flush();
    wait_for([&] { return s->records >= total; }, std::chrono::seconds(60), "the latency consumer");
    std::lock_guard<std::mutex> g{s->mutex};
    auto& v = s->latencies_ns;
    std::printf("latency_rate_records_per_s=%ld\nlatency_p50_us=%.0f\nlatency_p99_us=%.0f\nlatency_p999_us=%.0f\n",
                opt.rate, percentile(v, 0.5) / 1e3, percentile(v, 0.99) / 1e3, percentile(v, 0.999) / 1e3);
    caf::anon_send_exit(consumer, caf::exit_reason::user_shutdown);
    p.close();
  }
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  std::printf("client_peak_rss_kib=%ld\n", ru.ru_maxrss);
  return 0;
}
