#pragma once
// One partition of a topic (Kafka's TopicPartition), ordered by topic, then partition.
// Defined here, in the lowest layer, so that storage/ (folder names), cluster/ (assignors,
// offsets) and actors/ (messages) share one type.

#include <cstdint>
#include <string>
#include <tuple>

namespace cafka::protocol {

struct topic_partition {
  std::string topic;
  int32_t partition = 0;

  friend bool operator<(const topic_partition& a, const topic_partition& b) {
    return std::tie(a.topic, a.partition) < std::tie(b.topic, b.partition);
  }
  friend bool operator==(const topic_partition& a, const topic_partition& b) {
    return a.topic == b.topic && a.partition == b.partition;
  }
  friend bool operator!=(const topic_partition& a, const topic_partition& b) { return !(a == b); }
};

} // namespace cafka::protocol
