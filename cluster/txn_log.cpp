#include "cluster/txn_log.hpp"

#include "cluster/offsets_partition.hpp"
#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::cluster {

namespace {

using protocol::byte_reader;
using protocol::byte_writer;
using protocol::bytes_view;

constexpr int16_t key_version = 0;
constexpr int16_t value_version = 0;
constexpr int16_t flexible_value_version = 1;

std::string to_string(const std::vector<char>& bytes) { return {bytes.begin(), bytes.end()}; }

// Value v1 is flexible: compact strings and arrays, and tagged fields after each struct.
txn_partitions read_partitions(byte_reader& r, bool flexible, bool& is_null) {
  txn_partitions out;
  auto count = flexible ? static_cast<int32_t>(r.read_uvarint()) - 1 : r.read_i32();
  is_null = count < 0;
  for (int32_t i = 0; i < count && r.ok(); ++i) {
    auto topic = std::string(flexible ? wire::read_compact_string(r) : std::string(r.read_string()));
    auto ids = flexible ? static_cast<int32_t>(r.read_uvarint()) - 1 : r.read_i32();
    if (ids < 0 || static_cast<size_t>(ids) > r.remaining() / 4) {
      r.fail(protocol::errc::bad_length);
      break;
    }
    auto& set = out[topic];
    for (int32_t j = 0; j < ids && r.ok(); ++j)
      set.insert(r.read_i32());
    if (flexible)
      wire::skip_tagged_fields(r);
  }
  return out;
}

} // namespace

int32_t txn_partition_for(std::string_view transactional_id, int32_t partitions) noexcept {
  return offsets_partition_for(transactional_id, partitions);
}

std::string encode_txn_key(const std::string& transactional_id) {
  std::vector<char> out;
  byte_writer w{out};
  w.write_i16(key_version);
  w.write_string(transactional_id);
  return to_string(out);
}

std::string encode_txn_value(const txn_metadata& m) {
  std::vector<char> out;
  byte_writer w{out};
  w.write_i16(value_version);
  w.write_i64(m.producer_id);
  w.write_i16(m.producer_epoch);
  w.write_i32(m.timeout_ms);
  w.write_i8(static_cast<int8_t>(m.status));
  if (m.status == txn_status::empty) {
    w.write_i32(-1);
  } else {
    w.write_i32(static_cast<int32_t>(m.partitions.size()));
    for (auto& [topic, ids] : m.partitions) {
      w.write_string(topic);
      w.write_i32(static_cast<int32_t>(ids.size()));
      for (auto id : ids)
        w.write_i32(id);
    }
  }
  w.write_i64(m.last_update_ms);
  w.write_i64(m.start_ms);
  return to_string(out);
}

result<std::optional<std::string>> decode_txn_key(bytes_view key) {
  byte_reader r{key};
  auto version = r.read_i16();
  if (r.ok() && version != key_version)
    return std::optional<std::string>{};
  auto id = std::string(r.read_string());
  if (!r.ok())
    return r.error();
  return std::optional<std::string>{std::move(id)};
}

result<std::optional<txn_metadata>> decode_txn_value(bytes_view value) {
  byte_reader r{value};
  auto version = r.read_i16();
  if (r.ok() && version != value_version && version != flexible_value_version)
    return std::optional<txn_metadata>{};
  bool flexible = version == flexible_value_version;
  txn_metadata m;
  m.producer_id = r.read_i64();
  m.producer_epoch = r.read_i16();
  m.timeout_ms = r.read_i32();
  auto status = r.read_i8();
  bool null_partitions = false;
  m.partitions = read_partitions(r, flexible, null_partitions);
  m.last_update_ms = r.read_i64();
  m.start_ms = r.read_i64();
  if (flexible)
    wire::skip_tagged_fields(r);
  if (!r.ok())
    return r.error();
  if (!valid_txn_status(status) || static_cast<txn_status>(status) == txn_status::prepare_epoch_fence)
    return protocol::errc::bad_record;
  m.status = static_cast<txn_status>(status);
  return std::optional<txn_metadata>{std::move(m)};
}

std::vector<char> encode_txn_batch(const txn_log_entry& entry, int64_t now_ms) {
  protocol::batch_builder b;
  auto key = encode_txn_key(entry.transactional_id);
  std::optional<std::string> value;
  if (entry.metadata)
    value = encode_txn_value(*entry.metadata);
  std::optional<bytes_view> value_view;
  if (value)
    value_view = bytes_view{*value};
  b.add(now_ms, bytes_view{key}, value_view);
  return b.build();
}

result<txn_log_read> decode_txn_batches(bytes_view batches) {
  txn_log_read read;
  auto& out = read.entries;
  size_t at = 0;
  while (at < batches.size()) {
    auto batch = batches.substr(at);
    auto header = protocol::validate_batch(batch);
    if (!header)
      return header.error();
    if (!header->is_control()) {
      std::error_code first_error;
      auto visited = protocol::for_each_record(batch, 64u << 20, [&](const protocol::record_view& rec) {
        if (first_error || !rec.key)
          return;
        auto id = decode_txn_key(*rec.key);
        if (!id) {
          first_error = id.error();
          return;
        }
        if (!*id)
          return;
        txn_log_entry e{std::move(**id), std::nullopt};
        if (rec.value) {
          auto m = decode_txn_value(*rec.value);
          if (!m) {
            first_error = m.error();
            return;
          }
          if (!*m)
            return;
          e.metadata = std::move(**m);
        }
        out.push_back(std::move(e));
      });
      if (!visited)
        return visited.error();
      if (first_error)
        return first_error;
    }
    read.next_offset = header->next_offset();
    at += header->total_size();
  }
  return read;
}

const char* to_string(txn_status s) noexcept {
  switch (s) {
    case txn_status::empty: return "Empty";
    case txn_status::ongoing: return "Ongoing";
    case txn_status::prepare_commit: return "PrepareCommit";
    case txn_status::prepare_abort: return "PrepareAbort";
    case txn_status::complete_commit: return "CompleteCommit";
    case txn_status::complete_abort: return "CompleteAbort";
    case txn_status::dead: return "Dead";
    case txn_status::prepare_epoch_fence: return "PrepareEpochFence";
  }
  return "Unknown";
}

bool valid_txn_status(int8_t value) noexcept { return value >= 0 && value <= 7; }

} // namespace cafka::cluster
