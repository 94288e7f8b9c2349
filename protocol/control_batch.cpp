#include "protocol/control_batch.hpp"

#include <string>

#include "protocol/endian.hpp"
#include "protocol/errc.hpp"
#include "protocol/record_batch.hpp"

namespace cafka::protocol {

namespace {

constexpr int16_t marker_version = 0;
constexpr size_t key_size = 4;   // version, type
constexpr size_t value_size = 6; // version, coordinator epoch

} // namespace

std::vector<char> build_txn_marker_batch(int64_t producer_id, int16_t producer_epoch, txn_marker marker,
                                         int64_t now_ms) {
  batch_options options;
  options.leader_epoch = -1;
  options.producer_id = producer_id;
  options.producer_epoch = producer_epoch;
  options.base_sequence = -1;
  options.transactional = true;
  batch_builder builder{options};
  std::string key(key_size, '\0');
  store_be(key.data(), marker_version);
  store_be(key.data() + 2, static_cast<int16_t>(marker.type));
  std::string value(value_size, '\0');
  store_be(value.data(), marker_version);
  store_be(value.data() + 2, marker.coordinator_epoch);
  builder.add(now_ms, bytes_view{key}, bytes_view{value});
  auto batch = builder.build();
  // The builder has no control flag: set it, then the CRC again (it covers the attributes).
  auto attributes = load_be<int16_t>(batch.data() + batch_layout::attributes);
  store_be(batch.data() + batch_layout::attributes, static_cast<int16_t>(attributes | batch_attributes::control));
  update_crc(batch.data(), batch.size());
  return batch;
}

result<std::optional<txn_marker>> read_txn_marker(bytes_view batch) {
  std::optional<txn_marker> found;
  int records = 0;
  bool malformed = false;
  auto header = for_each_record(batch, batch.size() + 64, [&](const record_view& r) {
    ++records;
    if (!r.key || r.key->size() < key_size) {
      malformed = true;
      return;
    }
    auto version = load_be<int16_t>(r.key->data());
    auto type = load_be<int16_t>(r.key->data() + 2);
    if (version != marker_version || (type != 0 && type != 1))
      return; // another control record type: not a transaction marker
    if (!r.value || r.value->size() < value_size) {
      malformed = true;
      return;
    }
    found = txn_marker{static_cast<control_type>(type), load_be<int32_t>(r.value->data() + 2)};
  });
  if (!header)
    return header.error();
  if (!header->is_control() || records != 1 || malformed)
    return errc::bad_record;
  return found;
}

} // namespace cafka::protocol
