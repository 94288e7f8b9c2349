#include "client/send_queue.hpp"

#include <algorithm>

namespace cafka::client {

void send_queue::push(sealed_batch b) {
  insert_waiting(std::move(b));
}

void send_queue::insert_waiting(sealed_batch b) {
  auto pos = std::upper_bound(waiting_.begin(), waiting_.end(), b.sequence,
                              [](uint64_t seq, const sealed_batch& x) { return seq < x.sequence; });
  waiting_.insert(pos, std::move(b));
}

std::optional<send_queue::attempt> send_queue::start_next(size_t max_in_flight, steady_time now) {
  if (waiting_.empty() || in_flight_.size() >= max_in_flight || now < backoff_until_)
    return std::nullopt;
  auto id = next_attempt_++;
  auto& b = in_flight_.emplace(id, std::move(waiting_.front())).first->second;
  waiting_.pop_front();
  ++b.attempts;
  return attempt{id, &b};
}

std::optional<sealed_batch> send_queue::finish(uint64_t attempt_id) {
  auto it = in_flight_.find(attempt_id);
  if (it == in_flight_.end())
    return std::nullopt;
  auto out = std::move(it->second);
  in_flight_.erase(it);
  return out;
}

const sealed_batch* send_queue::find(uint64_t attempt_id) const {
  auto it = in_flight_.find(attempt_id);
  return it == in_flight_.end() ? nullptr : &it->second;
}

bool send_queue::retry(uint64_t attempt_id, steady_time not_before) {
  auto it = in_flight_.find(attempt_id);
  if (it == in_flight_.end())
    return false;
  insert_waiting(std::move(it->second));
  in_flight_.erase(it);
  backoff_until_ = std::max(backoff_until_, not_before);
  return true;
}

void send_queue::retry_all(steady_time not_before) {
  for (auto& [id, b] : in_flight_)
    insert_waiting(std::move(b));
  in_flight_.clear();
  backoff_until_ = std::max(backoff_until_, not_before);
}

std::vector<sealed_batch> send_queue::expire(steady_time cutoff) {
  std::vector<sealed_batch> out;
  auto old = [&](const sealed_batch& b) { return b.created < cutoff; };
  if (std::none_of(waiting_.begin(), waiting_.end(), old))
    return out; // the usual case: no allocation
  auto keep = std::stable_partition(waiting_.begin(), waiting_.end(),
                                    [&](const sealed_batch& b) { return b.created >= cutoff; });
  for (auto it = keep; it != waiting_.end(); ++it)
    out.push_back(std::move(*it));
  waiting_.erase(keep, waiting_.end());
  return out;
}

std::optional<steady_time> send_queue::oldest_waiting() const {
  std::optional<steady_time> out;
  for (auto& b : waiting_)
    if (!out || b.created < *out)
      out = b.created;
  return out;
}

std::vector<sealed_batch> send_queue::take_all() {
  std::vector<sealed_batch> out;
  for (auto& [id, b] : in_flight_)
    out.push_back(std::move(b));
  for (auto& b : waiting_)
    out.push_back(std::move(b));
  in_flight_.clear();
  waiting_.clear();
  return out;
}

bool send_queue::has_earlier(uint64_t sequence) const {
  for (auto& b : waiting_)
    if (b.sequence < sequence)
      return true;
  for (auto& [id, b] : in_flight_)
    if (b.sequence < sequence)
      return true;
  return false;
}

} // namespace cafka::client
