#include "protocol/wire/txn_offset_commit.hpp"

namespace cafka::wire {

namespace {

bool is_flexible_version(int16_t version) { return version >= 3; }

} // namespace

result<txn_offset_commit_request> decode_txn_offset_commit_request(bytes_view body, int16_t version) {
  bool flexible = is_flexible_version(version);
  txn_offset_commit_request req;
  byte_reader r{body};
  req.transactional_id = read_string(r, flexible);
  req.group_id = read_string(r, flexible);
  req.producer_id = r.read_i64();
  req.producer_epoch = r.read_i16();
  if (version >= 3) {
    req.generation_id = r.read_i32();
    req.member_id = read_string(r, flexible);
    req.group_instance_id = read_nullable_string(r, flexible);
  }
  auto topics = read_required_array_count(r, 5, flexible);
  for (int32_t i = 0; i < topics && r.ok(); ++i) {
    offset_commit_topic t;
    t.name = read_string(r, flexible);
    auto partitions = read_required_array_count(r, 14, flexible); // index, offset, null metadata
    for (int32_t j = 0; j < partitions && r.ok(); ++j) {
      offset_commit_partition p;
      p.partition_index = r.read_i32();
      p.committed_offset = r.read_i64();
      if (version >= 2)
        p.committed_leader_epoch = r.read_i32();
      p.committed_metadata = read_nullable_string(r, flexible);
      end_struct(r, flexible);
      t.partitions.push_back(std::move(p));
    }
    end_struct(r, flexible);
    req.topics.push_back(std::move(t));
  }
  end_struct(r, flexible);
  if (!r.ok())
    return r.error();
  return req;
}

void encode_txn_offset_commit_response(const add_partitions_to_txn_response& resp, int16_t version,
                                       byte_writer& w) {
  // The same fields as AddPartitionsToTxn's answer, flexible from the same version 3.
  encode_add_partitions_to_txn_response(resp, version, w);
}

} // namespace cafka::wire
