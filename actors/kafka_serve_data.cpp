// Produce and ListOffsets: fan out to the partition actors, one message per partition.
#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/routing_table.hpp"
#include "metrics/broker_metrics.hpp"
#include "protocol/legacy_message_set.hpp"

namespace cafka {

namespace {

// Partition actors live in this process and answer every request, or CAF answers for
// them with an error once they are gone. A finite timeout would cost two operations on
// CAF's clock thread per request (schedule, cancel): a context switch each.
constexpr auto partition_timeout = caf::infinite;

int16_t code_of(const caf::error& err) { return protocol::wire_code(to_kafka_error(err)); }

// The batch a partition stores for `records`: v2 batches as they came (Produce v3+), a
// legacy message set (Produce v0-v2) converted into one v2 batch.
result<std::vector<char>> batches_to_store(std::vector<char>&& records, int16_t version, int64_t now_ms) {
  auto magic = protocol::magic_of({records.data(), records.size()});
  if (version >= 3) {
    if (magic != 2) // Kafka: v3+ requests carry magic 2 only
      return protocol::errc::bad_record;
    return std::move(records);
  }
  if (magic == 2)
    return std::move(records);
  protocol::legacy_conversion_options opts;
  opts.now_ms = now_ms;
  return protocol::convert_legacy_message_set({records.data(), records.size()}, opts);
}

void count_failure(const std::shared_ptr<metrics::broker_metrics>& metrics, const std::string& topic, int16_t code) {
  if (metrics)
    metrics->produce_failed(topic, code);
}

} // namespace

void serve(const kafka_services& s, wire::produce_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  bool answer = req.acks != 0;
  wire::produce_response skeleton;
  skeleton.topics.resize(req.topics.size());
  auto done = kafka_countdown<wire::produce_response>::make(std::move(skeleton), [reply, version, answer](auto& resp) {
    if (!answer)
      return;
    resp.throttle_time_ms = reply.throttle_time_ms();
    reply.send([&](wire::byte_writer& w) { wire::encode_produce_response(resp, version, w); });
  });
  if (!answer)
    reply.send_nothing(); // acks=0: the client expects no response; later ones need not wait
  auto routes = s.routes->snapshot();
  for (size_t t = 0; t < req.topics.size(); ++t) {
    auto& topic = req.topics[t];
    auto& out_topic = done->response.topics[t];
    out_topic.name = topic.name;
    out_topic.partitions.resize(topic.partitions.size());
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& part = topic.partitions[p];
      auto& out = out_topic.partitions[p];
      out.index = part.index;
      auto route = routes->find(topic_partition{topic.name, part.index});
      if (route == routes->end()) {
        out.error_code = protocol::wire_code(s.routes->miss_error(topic_partition{topic.name, part.index}));
        count_failure(s.metrics, topic.name, out.error_code);
        continue;
      }
      if (!part.records || part.records->empty()) {
        out.error_code = protocol::wire_code(kafka_error::invalid_record);
        count_failure(s.metrics, topic.name, out.error_code);
        continue;
      }
      auto batches = batches_to_store(std::move(*part.records), version, s.now_ms());
      if (!batches) {
        out.error_code = protocol::wire_code(to_kafka_error(batches.error()));
        count_failure(s.metrics, topic.name, out.error_code);
        continue;
      }
      done->expect();
      auto bytes = static_cast<uint64_t>(batches->size());
      s.self->request(route->second, partition_timeout, produce_atom_v, produce_request{req.acks, std::move(*batches), req.timeout_ms})
        .then(
          [done, t, p, bytes, metrics = s.metrics](produce_result& r) {
            auto& out = done->response.topics[t].partitions[p];
            out.base_offset = r.base_offset;
            out.log_append_time_ms = r.log_append_time;
            out.log_start_offset = r.log_start_offset;
            if (metrics)
              metrics->produced(done->response.topics[t].name, static_cast<uint64_t>(r.records), bytes);
            done->arrive();
          },
          [done, t, p, metrics = s.metrics](caf::error& err) {
            auto& out = done->response.topics[t].partitions[p];
            out.error_code = code_of(err);
            count_failure(metrics, done->response.topics[t].name, out.error_code);
            done->arrive();
          });
    }
  }
  done->arrive();
}

void serve(const kafka_services& s, wire::list_offsets_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::list_offsets_response skeleton;
  skeleton.topics.resize(req.topics.size());
  auto done = kafka_countdown<wire::list_offsets_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_list_offsets_response(resp, version, w); });
  });
  auto routes = s.routes->snapshot();
  for (size_t t = 0; t < req.topics.size(); ++t) {
    auto& topic = req.topics[t];
    auto& out_topic = done->response.topics[t];
    out_topic.name = topic.name;
    out_topic.partitions.resize(topic.partitions.size());
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& part = topic.partitions[p];
      auto& out = out_topic.partitions[p];
      out.partition_index = part.partition_index;
      auto route = routes->find(topic_partition{topic.name, part.partition_index});
      if (route == routes->end()) {
        out.error_code = protocol::wire_code(s.routes->miss_error(topic_partition{topic.name, part.partition_index}));
        continue;
      }
      done->expect();
      // v4+ names the leader epoch the client knows (-1 before: not checked) and gets the
      // offset's epoch back.
      s.self->request(route->second, partition_timeout, list_offsets_atom_v, part.timestamp, part.current_leader_epoch,
                      req.isolation_level == 1)
        .then(
          [done, t, p](offset_answer& a) {
            auto& out = done->response.topics[t].partitions[p];
            out.offset = a.offset;
            out.timestamp = a.timestamp;
            out.leader_epoch = a.leader_epoch;
            done->arrive();
          },
          [done, t, p, version](caf::error& err) {
            done->response.topics[t].partitions[p].error_code = wire::list_offsets_error_code(code_of(err), version);
            done->arrive();
          });
    }
  }
  done->arrive();
}

} // namespace cafka
