#include "client/consumer_records.hpp"

#include <stdexcept>

#include "actors/errors.hpp"
#include "client/idempotence.hpp"
#include "protocol/control_batch.hpp"
#include "protocol/batch_header.hpp"
#include "protocol/record_batch.hpp"

namespace cafka::client {

std::string to_string(const start_position& x) {
  switch (x.what) {
    case start_position::kind::earliest: return "earliest";
    case start_position::kind::latest: return "latest";
    case start_position::kind::offset: return "offset " + std::to_string(x.value);
    case start_position::kind::timestamp: return "timestamp " + std::to_string(x.value);
  }
  return "?";
}

namespace {

std::optional<std::string> copy(const std::optional<protocol::bytes_view>& v) {
  if (!v)
    return std::nullopt;
  return std::string{*v};
}

// Calls visit(header, bytes of the whole batch) per complete batch; stops at the first
// incomplete or malformed one and returns the number of bytes consumed.
template <class Visit>
size_t walk_batches(const std::vector<char>& batches, Visit visit) {
  size_t pos = 0;
  while (pos < batches.size()) {
    protocol::bytes_view rest{batches.data() + pos, batches.size() - pos};
    auto hdr = protocol::read_batch_header(rest);
    if (!hdr || hdr->total_size() > rest.size())
      break;
    if (!visit(*hdr, rest.substr(0, hdr->total_size())))
      break;
    pos += hdr->total_size();
  }
  return pos;
}

} // namespace

std::optional<int64_t> next_fetch_offset(const std::vector<char>& batches) {
  std::optional<int64_t> out;
  walk_batches(batches, [&](const protocol::batch_header& h, protocol::bytes_view) {
    out = h.next_offset();
    return true;
  });
  return out;
}

size_t complete_batches_size(const std::vector<char>& batches) {
  return walk_batches(batches, [](const protocol::batch_header&, protocol::bytes_view) { return true; });
}

caf::error for_each_record(const consumer_records& recs,
                           const std::function<void(const protocol::record_view&)>& visit,
                           size_t max_uncompressed) {
  caf::error failure;
  std::optional<aborted_filter> aborted;
  if (!recs.aborted.empty())
    aborted.emplace(recs.aborted);
  walk_batches(recs.batches, [&](const protocol::batch_header& h, protocol::bytes_view bytes) {
    if (aborted) { // read_committed: the ranges need every batch, also those before fetch_offset
      bool abort_marker = false;
      if (h.is_control())
        if (auto m = protocol::read_txn_marker(bytes); m && *m)
          abort_marker = !(*m)->commits();
      if (aborted->skip(h.base_offset, h.producer_id, h.is_transactional(), h.is_control(), abort_marker))
        return true;
    }
    if (h.next_offset() <= recs.fetch_offset)
      return true; // wholly before the requested offset
    if (h.is_control())
      return true;
    auto res = protocol::for_each_record(bytes, max_uncompressed, [&](const protocol::record_view& r) {
      if (r.offset >= recs.fetch_offset)
        visit(r);
    });
    if (!res) {
      failure = caf::make_error(protocol::kafka_error::corrupt_message,
                                "batch at offset " + std::to_string(h.base_offset) + " of "
                                  + recs.tp.topic + "-" + std::to_string(recs.tp.partition) + ": "
                                  + res.error().message());
      return false;
    }
    return true;
  });
  return failure;
}

caf::expected<std::vector<protocol::decoded_record>> decode_records(const consumer_records& recs,
                                                                    size_t max_uncompressed) {
  std::vector<protocol::decoded_record> out;
  auto err = for_each_record(
    recs,
    [&](const protocol::record_view& r) {
      std::vector<protocol::record_header> headers;
      headers.reserve(r.headers.size());
      for (auto& hv : r.headers)
        headers.push_back(protocol::record_header{std::string{hv.key}, copy(hv.value)});
      out.push_back(protocol::decoded_record{r.offset, r.timestamp, copy(r.key), copy(r.value), std::move(headers)});
    },
    max_uncompressed);
  if (err)
    return err;
  return out;
}

std::vector<protocol::decoded_record> records(const consumer_records& recs) {
  auto res = decode_records(recs);
  if (!res)
    throw std::runtime_error(cafka::describe(res.error()));
  return std::move(*res);
}

} // namespace cafka::client
