#include "protocol/wire/describe_groups.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 5; }

// A null array (-1) reads as no groups, as Kafka's non-nullable arrays do not allow it
// but describing nothing is harmless.
std::vector<std::string> read_group_ids(byte_reader& r, bool flexible) {
  if (!flexible)
    return read_string_array(r);
  std::vector<std::string> out;
  auto n = read_compact_array_count(r, 1); // a compact string's length
  for (int32_t i = 0; i < n && r.ok(); ++i)
    out.push_back(read_compact_string(r));
  return out;
}

// BYTES, or COMPACT_BYTES (uvarint length+1) in a flexible version.
void write_bytes(byte_writer& w, const std::vector<char>& b, bool flexible) {
  if (!flexible)
    return w.write_bytes({b.data(), b.size()});
  w.write_uvarint(static_cast<uint32_t>(b.size() + 1));
  w.write_raw({b.data(), b.size()});
}

void encode_member(const described_group_member& m, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  write_string(w, m.member_id, flexible);
  if (version >= 4)
    write_nullable_string(w, m.group_instance_id, flexible);
  write_string(w, m.client_id, flexible);
  write_string(w, m.client_host, flexible);
  write_bytes(w, m.member_metadata, flexible);
  write_bytes(w, m.member_assignment, flexible);
  end_struct(w, flexible);
}

void encode_group(const described_group& g, int16_t version, byte_writer& w) {
  bool flexible = is_flexible_version(version);
  w.write_i16(g.error_code);
  write_string(w, g.group_id, flexible);
  write_string(w, g.group_state, flexible);
  write_string(w, g.protocol_type, flexible);
  write_string(w, g.protocol_data, flexible);
  write_array_count(w, static_cast<int32_t>(g.members.size()), flexible);
  for (auto& m : g.members)
    encode_member(m, version, w);
  if (version >= 3)
    w.write_i32(g.authorized_operations);
  end_struct(w, flexible);
}

} // namespace

result<describe_groups_request> decode_describe_groups_request(bytes_view body,
                                                               int16_t version) {
  bool flexible = is_flexible_version(version);
  describe_groups_request req;
  byte_reader r{body};
  req.groups = read_group_ids(r, flexible);
  if (version >= 3)
    req.include_authorized_operations = r.read_i8() != 0;
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_describe_groups_response(const describe_groups_response& resp, int16_t version,
                                     byte_writer& w) {
  bool flexible = is_flexible_version(version);
  if (version >= 1)
    w.write_i32(resp.throttle_time_ms);
  write_array_count(w, static_cast<int32_t>(resp.groups.size()), flexible);
  for (auto& g : resp.groups)
    encode_group(g, version, w);
  end_struct(w, flexible);
}

} // namespace cafka::wire
