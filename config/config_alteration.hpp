#pragma once
// AlterConfigs and IncrementalAlterConfigs applied to a resource's stored overrides (a
// topic's /config/topics/<t>, a broker's /config/brokers/<id>), without I/O, as Kafka does:
//
//   AlterConfigs             replaces the whole set: keys left out go back to their defaults,
//                            a null value is left out too;
//   IncrementalAlterConfigs  per key: SET, DELETE, APPEND / SUBTRACT (list keys only:
//                            cleanup.policy and the throttled replica lists), the other
//                            keys unchanged.
//
// A key named twice is INVALID_REQUEST; APPEND / SUBTRACT of a non-list key INVALID_CONFIG.
// The values are validated by the caller (config/topic_config.hpp, dynamic_broker_config.hpp).

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "protocol/wire/configs.hpp"

namespace cafka::config {

struct altered_overrides {
  std::map<std::string, std::string> overrides; ///< valid when error_code == 0
  int16_t error_code = 0;
  std::string error_message;
};

altered_overrides alter_overrides(const std::map<std::string, std::string>& current,
                                  const wire::alter_configs_resource& resource, bool incremental);

} // namespace cafka::config
