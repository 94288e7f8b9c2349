// OffsetForLeaderEpoch: where a leader epoch ends, asked of the node actor per partition.
// The node actor answers NOT_LEADER_OR_FOLLOWER / UNKNOWN_TOPIC_OR_PARTITION for
// partitions it has no leader replica of, and the leader's partition actor checks
// current_leader_epoch (FENCED_LEADER_EPOCH, UNKNOWN_LEADER_EPOCH), so the listener only
// fans out and collects. replica_id is not looked at: followers ask over CAF, not here.
#include <chrono>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/kafka_countdown.hpp"
#include "actors/kafka_serve.hpp"

namespace cafka {

namespace {

// The node actor answers at once or delegates to a partition actor of this process; the
// timeout only covers a node that is going away (as for the other node requests).
constexpr auto node_timeout = std::chrono::seconds(60);

} // namespace

void serve(const kafka_services& s, wire::offset_for_leader_epoch_request&& req, const kafka_reply& reply) {
  auto version = reply.version();
  wire::offset_for_leader_epoch_response skeleton;
  skeleton.topics.resize(req.topics.size());
  using countdown = kafka_countdown<wire::offset_for_leader_epoch_response>;
  auto done = countdown::make(std::move(skeleton), [reply, version](auto& resp) {
    reply.send([&](wire::byte_writer& w) { wire::encode_offset_for_leader_epoch_response(resp, version, w); });
  });
  for (size_t t = 0; t < req.topics.size(); ++t) {
    auto& topic = req.topics[t];
    auto& out_topic = done->response.topics[t];
    out_topic.topic = topic.topic;
    out_topic.partitions.resize(topic.partitions.size());
    for (size_t p = 0; p < topic.partitions.size(); ++p) {
      auto& part = topic.partitions[p];
      auto& out = out_topic.partitions[p];
      out.partition = part.partition;
      if (!s.node) { // start-up: no partition is served yet
        out.error_code = protocol::wire_code(kafka_error::not_leader_or_follower);
        continue;
      }
      done->expect();
      s.self->request(*s.node, node_timeout, epoch_end_atom_v, topic_partition{topic.topic, part.partition},
                      part.current_leader_epoch, part.leader_epoch)
        .then(
          [done, t, p](epoch_end_answer& a) {
            auto& out = done->response.topics[t].partitions[p];
            out.error_code = a.error;
            out.leader_epoch = a.epoch;
            out.end_offset = a.end_offset;
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

} // namespace cafka
