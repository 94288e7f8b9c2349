#pragma once
// cafka-configs for topics and brokers (apps/configs.cpp does client quotas), as Kafka's
// kafka-configs.sh: --describe prints the dynamic configs (--all: every config), --alter
// changes them with IncrementalAlterConfigs.
//
//   cafka-configs --bootstrap-server 127.0.0.1:9092 --entity-type topics --entity-name T --describe [--all]
//   cafka-configs ... --entity-type topics --entity-name T --alter --add-config retention.ms=3600000
//   cafka-configs ... --entity-type brokers --entity-name 1 --alter --add-config leader.replication.throttled.rate=1048576
//   cafka-configs ... --entity-type brokers --entity-default --alter --delete-config follower.replication.throttled.rate

#include "apps/tool_args.hpp"

namespace cafka::tools {

/// Whether the command line names topics or brokers (else it is about client quotas).
bool names_resource(const args& a);

int describe_resource(const args& a, const std::string& broker, int timeout_ms);
int alter_resource(const args& a, const std::string& broker, int timeout_ms);

} // namespace cafka::tools
