// DeleteRecords and DescribeProducers: each partition goes to its actor here (one that does
// not lead answers NOT_LEADER_OR_FOLLOWER: clients send each partition to its leader).
// DeleteRecords is answered once the leader and live followers moved their log starts.
#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"
#include "actors/routing_table.hpp"

namespace cafka {

void serve(const kafka_services& s, wire::delete_records_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::delete_records_response skeleton;
  skeleton.topics.resize(req.topics.size());
  auto done = kafka_countdown<wire::delete_records_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    resp.throttle_time_ms = reply.throttle_time_ms();
    reply.send([&](wire::byte_writer& w) { wire::encode_delete_records_response(resp, version, w); });
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
      topic_partition tp{topic.name, part.partition_index};
      auto route = routes->find(tp);
      if (route == routes->end()) {
        out.error_code = protocol::wire_code(s.routes->miss_error(tp));
        continue;
      }
      done->expect();
      // The actor bounds the wait by timeout_ms itself; it always answers.
      s.self->request(route->second, caf::infinite, delete_records_atom_v, part.offset, req.timeout_ms)
        .then(
          [done, t, p](int64_t low_watermark) {
            done->response.topics[t].partitions[p].low_watermark = low_watermark;
            done->arrive();
          },
          [done, t, p](caf::error& err) {
            done->response.topics[t].partitions[p].error_code = protocol::wire_code(to_kafka_error(err));
            done->arrive();
          });
    }
  }
  done->arrive();
}

void serve(const kafka_services& s, wire::describe_producers_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::describe_producers_response skeleton;
  skeleton.topics.resize(req.topics.size());
  auto done = kafka_countdown<wire::describe_producers_response>::make(std::move(skeleton), [reply, version](auto& resp) {
    resp.throttle_time_ms = reply.throttle_time_ms();
    reply.send([&](wire::byte_writer& w) { wire::encode_describe_producers_response(resp, version, w); });
  });
  auto routes = s.routes->snapshot();
  for (size_t t = 0; t < req.topics.size(); ++t) {
    auto& topic = req.topics[t];
    auto& out_topic = done->response.topics[t];
    out_topic.name = topic.name;
    out_topic.partitions.resize(topic.partition_indexes.size());
    for (size_t p = 0; p < topic.partition_indexes.size(); ++p) {
      auto& out = out_topic.partitions[p];
      out.partition_index = topic.partition_indexes[p];
      topic_partition tp{topic.name, out.partition_index};
      auto route = routes->find(tp);
      if (route == routes->end()) {
        out.error_code = protocol::wire_code(s.routes->miss_error(tp));
        continue;
      }
      done->expect();
      s.self->request(route->second, caf::infinite, describe_producers_atom_v)
        .then(
          [done, t, p](std::vector<producer_description>& producers) {
            auto& active = done->response.topics[t].partitions[p].active_producers;
            for (auto& d : producers)
              active.push_back({d.producer_id, d.producer_epoch, d.last_sequence, d.last_timestamp,
                                d.coordinator_epoch, d.current_txn_start_offset});
            done->arrive();
          },
          [done, t, p](caf::error& err) {
            auto& out = done->response.topics[t].partitions[p];
            out.error_code = protocol::wire_code(to_kafka_error(err));
            out.error_message = describe(err);
            done->arrive();
          });
    }
  }
  done->arrive();
}

} // namespace cafka
