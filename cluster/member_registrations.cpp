// member_registrations: the membership diff and the data of a member's node.
#include "cluster/member_registrations.hpp"

#include <set>

#include "cluster/kv_text.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::cluster {

registration_plan member_registrations::reconcile(const std::vector<std::string>& members) {
  registration_plan plan;
  std::set<std::string> current(members.begin(), members.end());
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (current.count(it->first) == 0) {
      plan.to_remove.push_back(it->first);
      it = tracked_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& id : members) {
    if (tracked_.emplace(id, false).second)
      plan.to_create.push_back(id);
  }
  return plan;
}

void member_registrations::created(const std::string& member_id) {
  auto it = tracked_.find(member_id);
  if (it != tracked_.end())
    it->second = true;
}

void member_registrations::create_failed(const std::string& member_id) {
  auto it = tracked_.find(member_id);
  if (it != tracked_.end() && !it->second)
    tracked_.erase(it);
}

std::vector<std::string> member_registrations::vanished(const std::vector<std::string>& children) {
  std::set<std::string> present(children.begin(), children.end());
  std::vector<std::string> out;
  for (auto it = tracked_.begin(); it != tracked_.end();) {
    if (it->second && present.count(escape_name(it->first)) == 0) {
      out.push_back(it->first);
      it = tracked_.erase(it);
    } else {
      ++it;
    }
  }
  return out;
}

bool member_registrations::is_registered(const std::string& member_id) const {
  auto it = tracked_.find(member_id);
  return it != tracked_.end() && it->second;
}

std::string encode_member_registration(const member_metadata& m) {
  kv_writer w;
  w.add_int("version", 1)
    .add("member_id", m.member_id)
    .add("client_id", m.client_id)
    .add("client_host", m.client_host)
    .add_int("session_timeout_ms", m.session_timeout_ms);
  if (m.group_instance_id)
    w.add("group_instance_id", *m.group_instance_id);
  return w.text();
}

} // namespace cafka::cluster
