#include "actors/connection_limits.hpp"

namespace cafka {

int32_t connection_counts::limit_for(const std::string& ip) const {
  auto it = overrides_.find(ip);
  return it != overrides_.end() ? it->second : max_per_ip_;
}

std::string connection_counts::admit(const std::string& ip) {
  std::lock_guard<std::mutex> guard{mutex_};
  if (total_ >= max_total_)
    return "max.connections";
  auto& open = open_[ip];
  if (open >= limit_for(ip)) {
    if (open == 0)
      open_.erase(ip);
    return overrides_.count(ip) > 0 ? "max.connections.per.ip.overrides" : "max.connections.per.ip";
  }
  ++open;
  ++total_;
  return {};
}

void connection_counts::set_limits(int32_t max_total, int32_t max_per_ip,
                                   std::map<std::string, int32_t> per_ip_overrides) {
  std::lock_guard<std::mutex> lock{mutex_};
  max_total_ = max_total;
  max_per_ip_ = max_per_ip;
  overrides_ = std::move(per_ip_overrides);
}

void connection_counts::release(const std::string& ip) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto it = open_.find(ip);
  if (it == open_.end())
    return;
  if (--it->second == 0)
    open_.erase(it);
  --total_;
}

int32_t connection_counts::total() const {
  std::lock_guard<std::mutex> guard{mutex_};
  return total_;
}

} // namespace cafka
