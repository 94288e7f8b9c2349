#include "client/send_buffer.hpp"

#include <caf/sec.hpp>

namespace cafka::client {

record_completion::record_completion(record_completion&& other) noexcept
  : single_(std::move(other.single_)), bulk_(std::move(other.bulk_)), index_(other.index_) {
  other.single_ = nullptr;
}

record_completion& record_completion::operator=(record_completion&& other) noexcept {
  if (this != &other) {
    if (*this)
      (*this)(caf::make_error(caf::sec::request_receiver_down, "record completion replaced"));
    single_ = std::move(other.single_);
    other.single_ = nullptr;
    bulk_ = std::move(other.bulk_);
    index_ = other.index_;
  }
  return *this;
}

record_completion::~record_completion() {
  if (*this)
    (*this)(caf::make_error(caf::sec::request_receiver_down, "producer stopped before the record was sent"));
}

void record_completion::operator()(const caf::expected<record_metadata>& res) {
  if (single_) {
    auto f = std::move(single_);
    single_ = nullptr;
    f(res);
  } else if (bulk_) {
    auto f = std::move(bulk_);
    (*f)(index_, res);
  }
}

send_chunk::send_chunk(send_chunk&& other) noexcept
  : records(std::move(other.records)),
    bulk(std::move(other.bulk)),
    dones(std::move(other.dones)),
    taken(other.taken),
    handed_in(other.handed_in) {
  other.records.clear();
  other.dones.clear();
  other.taken = 0;
}

send_chunk& send_chunk::operator=(send_chunk&& other) noexcept {
  if (this != &other) {
    fail_rest(caf::make_error(caf::sec::request_receiver_down, "send chunk replaced"));
    records = std::move(other.records);
    bulk = std::move(other.bulk);
    dones = std::move(other.dones);
    taken = other.taken;
    handed_in = other.handed_in;
    other.records.clear();
    other.dones.clear();
    other.taken = 0;
  }
  return *this;
}

send_chunk::~send_chunk() {
  fail_rest(caf::make_error(caf::sec::request_receiver_down, "producer stopped before the record was sent"));
}

record_completion send_chunk::take_completion() {
  auto i = taken++;
  if (bulk)
    return record_completion{bulk, i};
  return std::move(dones[i]);
}

void send_chunk::fail_rest(const caf::error& err) {
  if (taken >= records.size())
    return;
  caf::expected<record_metadata> res{err};
  while (taken < records.size()) {
    auto done = take_completion();
    done(res);
  }
}

send_buffer::push_result send_buffer::queued_result() {
  if (notified_)
    return push_result::queued;
  notified_ = true;
  return push_result::notify;
}

send_buffer::push_result send_buffer::push(producer_record& rec, record_completion& done,
                                             std::chrono::steady_clock::time_point now) {
  std::lock_guard<std::mutex> guard{mtx_};
  if (closed_)
    return push_result::closed;
  if (chunks_.empty() || chunks_.back().bulk || chunks_.back().records.size() >= single_chunk_size) {
    auto& c = chunks_.emplace_back();
    c.records.reserve(16);
    c.dones.reserve(16);
    c.handed_in = now;
  }
  auto& c = chunks_.back();
  c.records.push_back(std::move(rec));
  c.dones.push_back(std::move(done));
  ++records_;
  ++pushed_;
  return queued_result();
}

send_buffer::push_result send_buffer::push(std::vector<producer_record>& recs,
                                           const std::shared_ptr<const bulk_callback>& done,
                                           std::chrono::steady_clock::time_point now) {
  std::lock_guard<std::mutex> guard{mtx_};
  if (closed_)
    return push_result::closed;
  if (recs.empty())
    return push_result::queued; // nothing to hand over
  records_ += recs.size();
  pushed_ += recs.size();
  auto& c = chunks_.emplace_back();
  c.records = std::move(recs);
  c.bulk = done;
  c.handed_in = now;
  return queued_result();
}

bool send_buffer::take(std::vector<send_chunk>& chunks) {
  std::lock_guard<std::mutex> guard{mtx_};
  notified_ = false;
  if (chunks_.empty())
    return false;
  chunks.swap(chunks_);
  records_ = 0;
  return true;
}

void send_buffer::close(std::vector<send_chunk>& chunks) {
  std::lock_guard<std::mutex> guard{mtx_};
  closed_ = true;
  notified_ = false;
  for (auto& c : chunks_)
    chunks.push_back(std::move(c));
  chunks_.clear();
  records_ = 0;
}

uint64_t send_buffer::pushed() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return pushed_;
}

size_t send_buffer::size() const {
  std::lock_guard<std::mutex> guard{mtx_};
  return records_;
}

} // namespace cafka::client
