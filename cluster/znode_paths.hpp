#pragma once
// The znode paths of docs/architecture.md ("Cluster (ZooKeeper)") — the only place that spells
// them — and the split of `zookeeper.connect` into hosts and chroot.
//
//   /brokers/ids/<id>                               ephemeral: broker registration
//   /brokers/topics/<topic>                         partition -> replica list
//   /brokers/topics/<topic>/partitions/<p>/state    leader, leader epoch, ISR
//   /controller                                     ephemeral: controller id and epoch
//   /controller_epoch                               the last controller epoch
//   /consumers/<group>/ids/<member>                 ephemeral: group membership
//   /config/topics/<topic>                          per-topic config overrides
//   /config/brokers/<id> | <default>                dynamic broker configs
//
// Names that come from outside (topic, group, member) go through escape_name, so that any
// string, even "a/b", "..", "" or non-ASCII text, becomes exactly one valid znode name. Valid
// Kafka topic names ([a-zA-Z0-9._-], not "." or "..") are left unchanged.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.hpp"

namespace cafka::cluster {

/// One znode name for any string: bytes outside [A-Za-z0-9._-] become %XX (upper-case hex);
/// "." and ".." become "%2E" and "%2E%2E"; "" becomes "%".
std::string escape_name(std::string_view name);

/// The inverse of escape_name; accepts exactly its outputs, anything else is malformed_data.
result<std::string> unescape_name(std::string_view escaped);

/// A child name of /brokers/ids or .../partitions: a decimal int32 >= 0 as broker_path and
/// partition_path write it (no sign, no leading zeros), else malformed_data.
result<int32_t> parse_id_name(std::string_view name);

std::string broker_ids_path();                            ///< /brokers/ids
std::string broker_path(int32_t broker_id);               ///< /brokers/ids/<id>
std::string topics_path();                                ///< /brokers/topics
std::string topic_path(std::string_view topic);           ///< /brokers/topics/<topic>
std::string partitions_path(std::string_view topic);      ///< .../<topic>/partitions
std::string partition_path(std::string_view topic, int32_t partition); ///< .../partitions/<p>
std::string partition_state_path(std::string_view topic, int32_t partition); ///< .../<p>/state
std::string controller_path();                            ///< /controller
std::string controller_epoch_path();                      ///< /controller_epoch
std::string consumers_path();                             ///< /consumers
std::string consumer_group_path(std::string_view group);  ///< /consumers/<group>
std::string consumer_ids_path(std::string_view group);    ///< /consumers/<group>/ids
std::string consumer_member_path(std::string_view group, std::string_view member);
std::string topic_configs_path();                         ///< /config/topics
std::string topic_config_path(std::string_view topic);    ///< /config/topics/<topic>
/// The entity of the dynamic configs every broker shares (Kafka's name).
inline constexpr const char* default_broker_entity = "<default>";
/// /config/brokers/<entity>: a broker id, or default_broker_entity.
std::string broker_config_path(std::string_view entity);

/// The persistent containers a broker ensures (ensure_path) before it registers:
/// /brokers/ids, /brokers/topics, /consumers, /config/topics.
std::vector<std::string> persistent_roots();

/// zookeeper.connect split at the first '/': "127.0.0.1:2181,h2:2181/cafka" ->
/// hosts "127.0.0.1:2181,h2:2181", chroot "/cafka". No '/' or a chroot of "/" -> chroot "".
/// The hosts go to zookeeper_init unchanged (validated by config/); the chroot must exist
/// before a chrooted session can use it (ensure it through an unchrooted session first).
struct zookeeper_connect {
  std::string hosts;
  std::string chroot; ///< "" or a valid path without trailing '/'
};

/// invalid_path if the hosts part is empty or the chroot breaks ZooKeeper's path rules.
result<zookeeper_connect> split_zookeeper_connect(std::string_view connect);

} // namespace cafka::cluster
