#include "cluster/offset_records.hpp"

#include "protocol/control_batch.hpp"

#include <stdexcept>

#include "protocol/byte_reader.hpp"
#include "protocol/byte_writer.hpp"
#include "protocol/record_batch.hpp"
#include "protocol/wire/primitives.hpp"

namespace cafka::cluster {
namespace {

using protocol::byte_reader;
using protocol::byte_writer;
using protocol::bytes_view;

constexpr int16_t key_version = 1;
/// Key versions 0 and 1 share the offset-commit layout; 2 is group metadata.
constexpr int16_t last_offset_key_version = 1;
constexpr int16_t last_readable_value_version = 4;

std::string to_string(const std::vector<char>& bytes) { return {bytes.begin(), bytes.end()}; }

/// An upper bound of the bytes one record adds to a batch beyond its key and value: length,
/// attributes, timestamp and offset deltas, key and value lengths, header count.
constexpr size_t record_overhead_bound = 5 + 1 + 10 + 5 + 5 + 5 + 1;

struct encoded_record {
  std::string key;
  std::optional<std::string> value;
};

encoded_record encode_record(const offset_update& u) {
  encoded_record r{encode_offset_key(u.key), std::nullopt};
  if (u.value)
    r.value = encode_offset_value(*u.value, offset_value_version(*u.value));
  return r;
}

void add(protocol::batch_builder& b, const encoded_record& r, int64_t timestamp_ms) {
  std::optional<bytes_view> value;
  if (r.value)
    value = bytes_view{*r.value};
  b.add(timestamp_ms, bytes_view{r.key}, value);
}

void append(std::vector<char>& out, std::vector<char> batch) {
  out.insert(out.end(), batch.begin(), batch.end());
}

/// Decodes one record into `out`; counts it in `skipped` if it is not an offset commit.
std::error_code decode_record(const protocol::record_view& rec, std::vector<offset_update>& out, size_t& skipped) {
  if (!rec.key) {
    ++skipped;
    return {};
  }
  auto key = decode_offset_key(*rec.key);
  if (!key)
    return key.error();
  if (!*key) {
    ++skipped;
    return {};
  }
  offset_update u{std::move(**key), std::nullopt};
  if (rec.value) {
    auto value = decode_offset_value(*rec.value);
    if (!value)
      return value.error();
    if (!*value) {
      ++skipped;
      return {};
    }
    u.value = std::move(**value);
  }
  out.push_back(std::move(u));
  return {};
}

} // namespace

std::string encode_offset_key(const offset_key& key) {
  std::vector<char> out;
  byte_writer w{out};
  w.write_i16(key_version);
  w.write_string(key.group);
  w.write_string(key.topic);
  w.write_i32(key.partition);
  return to_string(out);
}

int16_t offset_value_version(const committed_offset& value) noexcept {
  return value.expire_timestamp_ms ? 1 : 3;
}

std::string encode_offset_value(const committed_offset& value, int16_t version) {
  if (version != 1 && version != 3)
    throw std::invalid_argument("encode_offset_value: version " + std::to_string(version)
                                + " is not written (1 or 3)");
  std::vector<char> out;
  byte_writer w{out};
  w.write_i16(version);
  w.write_i64(value.offset);
  if (version == 3)
    w.write_i32(value.leader_epoch);
  w.write_string(value.metadata);
  w.write_i64(value.commit_timestamp_ms);
  if (version == 1)
    w.write_i64(value.expire_timestamp_ms.value_or(-1));
  return to_string(out);
}

result<std::optional<offset_key>> decode_offset_key(bytes_view key) {
  byte_reader r{key};
  auto version = r.read_i16();
  if (!r.ok())
    return r.error();
  if (version < 0 || version > last_offset_key_version)
    return std::optional<offset_key>{};
  offset_key k;
  k.group = wire::read_string(r);
  k.topic = wire::read_string(r);
  k.partition = r.read_i32();
  if (!r.ok())
    return r.error();
  return std::optional<offset_key>{std::move(k)};
}

result<std::optional<committed_offset>> decode_offset_value(bytes_view value) {
  byte_reader r{value};
  auto version = r.read_i16();
  if (!r.ok())
    return r.error();
  if (version < 0 || version > last_readable_value_version)
    return std::optional<committed_offset>{};
  committed_offset v;
  v.offset = r.read_i64();
  if (version >= 3)
    v.leader_epoch = r.read_i32();
  v.metadata = version >= 4 ? wire::read_compact_string(r) : wire::read_string(r);
  v.commit_timestamp_ms = r.read_i64();
  if (version == 1) {
    auto expire = r.read_i64();
    if (expire != -1) // Kafka reads -1 (OffsetCommitRequest.DEFAULT_TIMESTAMP) as none
      v.expire_timestamp_ms = expire;
  }
  if (version >= 4)
    wire::skip_tagged_fields(r);
  if (!r.ok())
    return r.error();
  return std::optional<committed_offset>{std::move(v)};
}

namespace {

// One batch of `updates` built with `options` (empty when there are none).
std::vector<char> build_offset_batch(const std::vector<offset_update>& updates, int64_t timestamp_ms,
                                     const protocol::batch_options& options) {
  if (updates.empty())
    return {};
  protocol::batch_builder b{options};
  for (auto& u : updates)
    add(b, encode_record(u), timestamp_ms);
  return b.build();
}

} // namespace

std::vector<char> encode_offset_batch(const std::vector<offset_update>& updates,
                                      int64_t timestamp_ms) {
  return build_offset_batch(updates, timestamp_ms, protocol::batch_options{});
}

std::vector<char> encode_offset_batches(const std::vector<offset_update>& updates,
                                        int64_t timestamp_ms, size_t max_batch_bytes) {
  std::vector<char> out;
  protocol::batch_builder b;
  size_t batch_bytes = protocol::batch_layout::header_size;
  for (auto& u : updates) {
    auto r = encode_record(u);
    auto record_bytes = r.key.size() + (r.value ? r.value->size() : 0) + record_overhead_bound;
    if (!b.empty() && batch_bytes + record_bytes > max_batch_bytes) {
      append(out, b.build());
      batch_bytes = protocol::batch_layout::header_size;
    }
    add(b, r, timestamp_ms);
    batch_bytes += record_bytes;
  }
  if (!b.empty())
    append(out, b.build());
  return out;
}

std::vector<char> encode_txn_offset_batch(const std::vector<offset_update>& updates, int64_t producer_id,
                                          int16_t producer_epoch, int64_t timestamp_ms) {
  protocol::batch_options options;
  options.producer_id = producer_id;
  options.producer_epoch = producer_epoch;
  options.base_sequence = 0;
  options.transactional = true;
  return build_offset_batch(updates, timestamp_ms, options);
}

result<decoded_offset_batch> decode_offset_batches(bytes_view batches, size_t max_uncompressed) {
  decoded_offset_batch out;
  while (out.bytes < batches.size()) {
    auto batch = batches.substr(out.bytes);
    auto header = protocol::validate_batch(batch);
    if (!header)
      return header.error();
    if (header->is_control()) {
      auto marker = protocol::read_txn_marker(batch);
      if (!marker)
        return marker.error();
      if (*marker)
        out.steps.push_back({header->producer_id, {}, (*marker)->commits()});
      else
        out.skipped_records += static_cast<size_t>(header->record_count);
    } else {
      offset_log_step step{header->is_transactional() ? header->producer_id : -1, {}, std::nullopt};
      std::error_code first_error;
      auto visited = protocol::for_each_record(
        batch, max_uncompressed, [&](const protocol::record_view& rec) {
          if (!first_error)
            first_error = decode_record(rec, step.updates, out.skipped_records);
        });
      if (!visited)
        return visited.error();
      if (first_error)
        return first_error;
      if (step.producer_id < 0)
        out.updates.insert(out.updates.end(), step.updates.begin(), step.updates.end());
      if (!step.updates.empty())
        out.steps.push_back(std::move(step));
    }
    out.next_offset = header->next_offset();
    out.bytes += header->total_size();
  }
  return out;
}

} // namespace cafka::cluster
