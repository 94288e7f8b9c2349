#include "protocol/wire/not_yet_served.hpp"

#include <system_error>

#include "protocol/kafka_error.hpp"
#include "protocol/wire/api_keys.hpp"
#include "protocol/wire/find_coordinator.hpp"
#include "protocol/wire/heartbeat.hpp"
#include "protocol/wire/join_group.hpp"
#include "protocol/wire/leave_group.hpp"
#include "protocol/wire/offset_commit.hpp"
#include "protocol/wire/offset_fetch.hpp"
#include "protocol/wire/sync_group.hpp"

namespace cafka::wire {

namespace {

const int16_t not_available = protocol::wire_code(protocol::kafka_error::coordinator_not_available);

// Each answer_* decodes the request first, so a malformed body writes nothing.

status answer_find_coordinator(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_find_coordinator_request(body, version);
  if (!req)
    return req.error();
  find_coordinator_response resp; // node -1, host "", port -1
  resp.error_code = not_available;
  encode_find_coordinator_response(resp, version, w);
  return {};
}

status answer_join_group(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_join_group_request(body, version);
  if (!req)
    return req.error();
  join_group_response resp; // generation -1, empty protocol, leader, member id, members
  resp.error_code = not_available;
  encode_join_group_response(resp, version, w);
  return {};
}

status answer_sync_group(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_sync_group_request(body, version);
  if (!req)
    return req.error();
  sync_group_response resp;
  resp.error_code = not_available;
  encode_sync_group_response(resp, version, w);
  return {};
}

status answer_heartbeat(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_heartbeat_request(body, version);
  if (!req)
    return req.error();
  heartbeat_response resp;
  resp.error_code = not_available;
  encode_heartbeat_response(resp, version, w);
  return {};
}

status answer_leave_group(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_leave_group_request(body, version);
  if (!req)
    return req.error();
  leave_group_response resp;
  resp.error_code = not_available;
  encode_leave_group_response(resp, version, w);
  return {};
}

status answer_offset_commit(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_offset_commit_request(body, version);
  if (!req)
    return req.error();
  offset_commit_response resp;
  for (auto& t : req->topics) {
    offset_commit_topic_response topic{t.name, {}};
    for (auto& p : t.partitions)
      topic.partitions.push_back({p.partition_index, not_available});
    resp.topics.push_back(std::move(topic));
  }
  encode_offset_commit_response(resp, version, w);
  return {};
}

status answer_offset_fetch(int16_t version, bytes_view body, byte_writer& w) {
  auto req = decode_offset_fetch_request(body, version);
  if (!req)
    return req.error();
  offset_fetch_response resp;
  resp.error_code = not_available;
  // A request for all topics (null) gets no topics back: without a coordinator there is
  // no list of them, and v2+ carries the error at the top level anyway.
  if (req->topics) {
    for (auto& t : *req->topics) {
      offset_fetch_topic_response topic{t.name, {}};
      for (auto index : t.partition_indexes) {
        offset_fetch_partition_response p;
        p.partition_index = index;
        p.metadata = std::string{}; // Kafka's "no metadata"
        p.error_code = not_available;
        topic.partitions.push_back(std::move(p));
      }
      resp.topics.push_back(std::move(topic));
    }
  }
  encode_offset_fetch_response(resp, version, w);
  return {};
}

} // namespace

status encode_coordinator_not_available(int16_t key, int16_t version, bytes_view body,
                                        byte_writer& w) {
  switch (static_cast<api_key>(key)) {
    case api_key::find_coordinator: return answer_find_coordinator(version, body, w);
    case api_key::join_group: return answer_join_group(version, body, w);
    case api_key::sync_group: return answer_sync_group(version, body, w);
    case api_key::heartbeat: return answer_heartbeat(version, body, w);
    case api_key::leave_group: return answer_leave_group(version, body, w);
    case api_key::offset_commit: return answer_offset_commit(version, body, w);
    case api_key::offset_fetch: return answer_offset_fetch(version, body, w);
    default: return std::make_error_code(std::errc::not_supported);
  }
}

} // namespace cafka::wire
