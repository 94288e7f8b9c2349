#include "cluster/metadata.hpp"

#include <tuple>

namespace cafka::cluster {

bool operator==(const broker_registration& a, const broker_registration& b) {
  return std::tie(a.id, a.host, a.kafka_port, a.caf_port, a.rack)
         == std::tie(b.id, b.host, b.kafka_port, b.caf_port, b.rack);
}

bool operator==(const controller_info& a, const controller_info& b) {
  return a.broker_id == b.broker_id && a.epoch == b.epoch;
}

bool operator==(const topic_assignment& a, const topic_assignment& b) {
  return a.partitions == b.partitions && a.adding == b.adding && a.removing == b.removing;
}

bool operator==(const partition_state& a, const partition_state& b) {
  return std::tie(a.leader, a.leader_epoch, a.controller_epoch, a.isr)
         == std::tie(b.leader, b.leader_epoch, b.controller_epoch, b.isr);
}

bool operator==(const topic_config& a, const topic_config& b) {
  return a.entries == b.entries;
}

} // namespace cafka::cluster
