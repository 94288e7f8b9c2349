#include "cluster/member_metadata.hpp"

namespace cafka::cluster {

bool operator==(const group_protocol& a, const group_protocol& b) {
  return a.name == b.name && a.metadata == b.metadata;
}

bool operator!=(const group_protocol& a, const group_protocol& b) {
  return !(a == b);
}

const group_bytes* member_metadata::metadata_for(const std::string& protocol) const {
  for (auto& p : protocols)
    if (p.name == protocol)
      return &p.metadata;
  return nullptr;
}

} // namespace cafka::cluster
