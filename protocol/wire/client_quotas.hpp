#pragma once
// DescribeClientQuotas (key 48) and AlterClientQuotas (key 49), v0-v1 (v1 flexible: compact
// strings and arrays, a tag buffer after every struct). KIP-546; docs/quotas-notes.md.
//
//   DescribeClientQuotas request:  components:[entity_type:STRING match_type:INT8
//                                              match:NULLABLE_STRING] strict:BOOL
//                        response: throttle_time_ms:i32 error_code:i16 error_message:NULLABLE_STRING
//                                  entries:NULLABLE [entity:[entity_type:STRING entity_name:NULLABLE_STRING]
//                                                    values:[key:STRING value:FLOAT64]]
//   AlterClientQuotas request:     entries:[entity:[entity_type entity_name] ops:[key:STRING
//                                           value:FLOAT64 remove:BOOL]] validate_only:BOOL
//                     response:    throttle_time_ms:i32 entries:[error_code:i16
//                                  error_message:NULLABLE_STRING entity:[entity_type entity_name]]
//
// An entity_name of null is the <default> entity; match_type 0 = exactly `match`, 1 = the
// default entity, 2 = any entity of that type.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/result.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::wire {

struct quota_entity_component {
  std::string entity_type;                ///< "user", "client-id" (or "ip", refused)
  std::optional<std::string> entity_name; ///< nullopt = <default>
};

struct quota_filter_component {
  std::string entity_type;
  int8_t match_type = 0; ///< 0 exact, 1 default, 2 any
  std::optional<std::string> match;
};

struct describe_client_quotas_request {
  std::vector<quota_filter_component> components;
  bool strict = false;
};

struct quota_value {
  std::string key;
  double value = 0;
};

struct client_quota_entry {
  std::vector<quota_entity_component> entity;
  std::vector<quota_value> values;
};

struct describe_client_quotas_response {
  int32_t throttle_time_ms = 0;
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::optional<std::vector<client_quota_entry>> entries; ///< null only with an error
};

struct quota_op {
  std::string key;
  double value = 0;
  bool remove = false;
};

struct alter_client_quota_entry {
  std::vector<quota_entity_component> entity;
  std::vector<quota_op> ops;
};

struct alter_client_quotas_request {
  std::vector<alter_client_quota_entry> entries;
  bool validate_only = false;
};

struct alter_client_quota_result {
  int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::vector<quota_entity_component> entity;
};

struct alter_client_quotas_response {
  int32_t throttle_time_ms = 0;
  std::vector<alter_client_quota_result> entries;
};

result<describe_client_quotas_request> decode_describe_client_quotas_request(bytes_view body, int16_t version);
void encode_describe_client_quotas_response(const describe_client_quotas_response& resp, int16_t version,
                                            byte_writer& w);
result<alter_client_quotas_request> decode_alter_client_quotas_request(bytes_view body, int16_t version);
void encode_alter_client_quotas_response(const alter_client_quotas_response& resp, int16_t version,
                                         byte_writer& w);

// The client's side (cafka-configs): requests out, responses in.
void encode_describe_client_quotas_request(const describe_client_quotas_request& req, int16_t version,
                                           byte_writer& w);
result<describe_client_quotas_response> decode_describe_client_quotas_response(bytes_view body, int16_t version);
void encode_alter_client_quotas_request(const alter_client_quotas_request& req, int16_t version, byte_writer& w);
result<alter_client_quotas_response> decode_alter_client_quotas_response(bytes_view body, int16_t version);

} // namespace cafka::wire
