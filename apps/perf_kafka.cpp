#include "apps/perf_kafka.hpp"

#include <algorithm>
#include <cstdio>
#include <thread>

#include "apps/tool_args.hpp"

namespace cafka::perf {

using namespace std::chrono;

namespace {

template <class T, void (*Destroy)(T*)>
struct destroy_with {
  void operator()(T* x) const { Destroy(x); }
};
using new_topic = std::unique_ptr<rd_kafka_NewTopic_t, destroy_with<rd_kafka_NewTopic_t, rd_kafka_NewTopic_destroy>>;
using admin_options
  = std::unique_ptr<rd_kafka_AdminOptions_t, destroy_with<rd_kafka_AdminOptions_t, rd_kafka_AdminOptions_destroy>>;
using event = std::unique_ptr<rd_kafka_event_t, destroy_with<rd_kafka_event_t, rd_kafka_event_destroy>>;

int to_ms(milliseconds d) {
  return static_cast<int>(d.count());
}

void create_topic_with_admin_api(rd_kafka_t* admin, const std::string& topic, const topic_layout& layout,
                                 milliseconds timeout) {
  char errstr[512] = "";
  new_topic nt{rd_kafka_NewTopic_new(topic.c_str(), layout.partitions, layout.replication_factor, errstr, sizeof errstr)};
  if (!nt)
    throw std::runtime_error("create topic " + topic + ": " + errstr);
  for (auto& [key, value] : layout.configs)
    if (auto err = rd_kafka_NewTopic_set_config(nt.get(), key.c_str(), value.c_str()))
      throw std::runtime_error("create topic " + topic + ": config " + key + ": " + rd_kafka_err2str(err));
  admin_options opts{rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_CREATETOPICS)};
  rd_kafka_AdminOptions_set_request_timeout(opts.get(), to_ms(timeout), errstr, sizeof errstr);
  // Let the broker answer once the partitions have leaders, so producing can start.
  rd_kafka_AdminOptions_set_operation_timeout(opts.get(), to_ms(timeout), errstr, sizeof errstr);
  queue q{rd_kafka_queue_new(admin)};
  auto* raw = nt.get();
  rd_kafka_CreateTopics(admin, &raw, 1, opts.get(), q.get());
  // The request timeout bounds the wait; the margin covers connecting first.
  event ev{rd_kafka_queue_poll(q.get(), to_ms(timeout) + 5000)};
  if (!ev)
    throw std::runtime_error("create topic " + topic + ": no answer");
  if (rd_kafka_event_error(ev.get()))
    throw std::runtime_error("create topic " + topic + ": " + rd_kafka_event_error_string(ev.get()));
  size_t n = 0;
  auto** results = rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &n);
  for (size_t i = 0; i < n; ++i) {
    auto err = rd_kafka_topic_result_error(results[i]);
    if (err != RD_KAFKA_RESP_ERR_NO_ERROR && err != RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
      auto* what = rd_kafka_topic_result_error_string(results[i]);
      throw std::runtime_error("create topic " + topic + ": " + (what ? what : rd_kafka_err2str(err)));
    }
  }
}

} // namespace

rd_kafka_conf_t* make_conf(const properties& props) {
  auto* conf = rd_kafka_conf_new();
  char errstr[512];
  for (auto& [key, value] : props) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      throw tools::usage_error("librdkafka property " + key + "=" + value + ": " + errstr);
    }
  }
  return conf;
}

client make_client(rd_kafka_type_t type, rd_kafka_conf_t* conf) {
  char errstr[512];
  client rk{rd_kafka_new(type, conf, errstr, sizeof errstr)};
  if (!rk) {
    rd_kafka_conf_destroy(conf); // rd_kafka_new frees it only on success
    throw std::runtime_error(std::string{"cannot create a librdkafka client: "} + errstr);
  }
  return rk;
}

void delivery_counts::refused(rd_kafka_resp_err_t err) {
  if (failed++ == 0)
    first_error = rd_kafka_err2str(err);
  if (reports == --expected)
    last_report = steady_clock::now();
}

client make_producer(const properties& props, delivery_counts& counts) {
  auto* conf = make_conf(props);
  rd_kafka_conf_set_opaque(conf, &counts);
  rd_kafka_conf_set_dr_msg_cb(conf, [](rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
    auto& c = *static_cast<delivery_counts*>(opaque);
    if (m->err == RD_KAFKA_RESP_ERR_NO_ERROR)
      c.delivered_bytes += static_cast<int64_t>(m->len);
    else if (c.failed++ == 0)
      c.first_error = rd_kafka_err2str(m->err);
    // One clock read at the end instead of one per record.
    if (++c.reports == c.expected)
      c.last_report = steady_clock::now();
  });
  return make_client(RD_KAFKA_PRODUCER, conf);
}

mock_cluster::mock_cluster() {
  // log_level 4 mutes the notice that the mock replaces bootstrap.servers.
  owner_ = make_client(RD_KAFKA_PRODUCER, make_conf({{"test.mock.num.brokers", "1"}, {"log_level", "4"}}));
  cluster_ = rd_kafka_handle_mock_cluster(owner_.get());
  if (!cluster_)
    throw std::runtime_error("librdkafka did not start its mock cluster");
}

std::string mock_cluster::bootstrap() const {
  return rd_kafka_mock_cluster_bootstraps(cluster_);
}

void mock_cluster::create_topic(const std::string& topic, int partitions) {
  if (auto err = rd_kafka_mock_topic_create(cluster_, topic.c_str(), partitions, 1))
    throw std::runtime_error("mock cluster: create topic " + topic + ": " + rd_kafka_err2str(err));
}

size_t create_topic(const target& t, const std::string& topic, const topic_layout& layout, milliseconds timeout) {
  auto rk = make_client(RD_KAFKA_PRODUCER, make_conf({{"bootstrap.servers", t.bootstrap}}));
  if (t.mock) {
    t.mock->create_topic(topic, layout.partitions);
    return partitions_of(rk.get(), topic, timeout).size();
  }
  try {
    create_topic_with_admin_api(rk.get(), topic, layout, timeout);
  } catch (const std::runtime_error& e) {
    // A broker without CreateTopics may still have the topic (made by hand, or made
    // when first asked for): measure that one rather than give up.
    std::vector<int32_t> existing;
    try {
      existing = partitions_of(rk.get(), topic, std::min(timeout, milliseconds{5000}));
    } catch (const std::runtime_error&) {
      throw e;
    }
    std::fprintf(stderr, "cafka-perf: %s; using the existing topic (%zu partitions)\n", e.what(), existing.size());
    return existing.size();
  }
  return partitions_of(rk.get(), topic, timeout).size();
}

std::vector<int32_t> partitions_of(rd_kafka_t* rk, const std::string& topic, milliseconds timeout) {
  topic_handle th{rd_kafka_topic_new(rk, topic.c_str(), nullptr)};
  auto deadline = steady_clock::now() + timeout;
  std::string last_error = "no answer";
  for (;;) {
    const rd_kafka_metadata_t* md = nullptr;
    auto left = std::max(milliseconds{100}, duration_cast<milliseconds>(deadline - steady_clock::now()));
    auto err = rd_kafka_metadata(rk, 0, th.get(), &md, to_ms(left));
    if (err == RD_KAFKA_RESP_ERR_NO_ERROR) {
      std::vector<int32_t> ids;
      for (int i = 0; i < md->topic_cnt; ++i) {
        auto& tm = md->topics[i];
        if (topic != tm.topic)
          continue;
        if (tm.err)
          last_error = rd_kafka_err2str(tm.err);
        else
          for (int p = 0; p < tm.partition_cnt; ++p)
            ids.push_back(tm.partitions[p].id);
      }
      rd_kafka_metadata_destroy(md);
      if (!ids.empty())
        return ids;
    } else {
      last_error = rd_kafka_err2str(err);
    }
    if (steady_clock::now() >= deadline)
      throw std::runtime_error("topic " + topic + " has no partitions in the metadata: " + last_error);
    std::this_thread::sleep_for(milliseconds{100});
  }
}

std::vector<watermarks> query_watermarks(rd_kafka_t* rk, const std::string& topic,
                                         const std::vector<int32_t>& partitions, milliseconds timeout) {
  std::vector<watermarks> out;
  for (auto p : partitions) {
    watermarks w{p, 0, 0};
    if (auto err = rd_kafka_query_watermark_offsets(rk, topic.c_str(), p, &w.low, &w.high, to_ms(timeout)))
      throw std::runtime_error("offsets of " + topic + "-" + std::to_string(p) + ": " + rd_kafka_err2str(err));
    out.push_back(w);
  }
  return out;
}

partition_reader::partition_reader(rd_kafka_t* rk, const std::string& topic, const std::vector<watermarks>& marks,
                                   bool from_end)
  : topic_{rd_kafka_topic_new(rk, topic.c_str(), nullptr)}, queue_{rd_kafka_queue_new(rk)} {
  for (auto& w : marks) {
    if (rd_kafka_consume_start_queue(topic_.get(), w.partition, from_end ? w.high : w.low, queue_.get()) != 0)
      throw std::runtime_error("consume " + topic + "-" + std::to_string(w.partition) + ": "
                               + rd_kafka_err2str(rd_kafka_last_error()));
    started_.push_back(w.partition);
  }
}

partition_reader::~partition_reader() {
  for (auto p : started_)
    rd_kafka_consume_stop(topic_.get(), p);
}

message partition_reader::poll(int timeout_ms) {
  return message{rd_kafka_consume_queue(queue_.get(), timeout_ms)};
}

void partition_reader::poll_batch(int timeout_ms, size_t max, std::vector<message>& out) {
  // The batch call waits until it has `max` records or the timeout passed, so take what
  // is there without waiting, and wait for one record only when there is none.
  std::vector<rd_kafka_message_t*> got(max);
  auto n = rd_kafka_consume_batch_queue(queue_.get(), 0, got.data(), max);
  for (ssize_t i = 0; i < n; ++i)
    out.emplace_back(got[static_cast<size_t>(i)]);
  if (n <= 0)
    if (auto m = poll(timeout_ms))
      out.push_back(std::move(m));
}

} // namespace cafka::perf
