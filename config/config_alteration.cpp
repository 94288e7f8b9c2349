#include "config/config_alteration.hpp"

#include <algorithm>
#include <set>
#include <vector>

#include "config/value_parsers.hpp"

namespace cafka::config {

namespace {

bool is_list_key(const std::string& key) {
  return key == "cleanup.policy" || key == "leader.replication.throttled.replicas"
         || key == "follower.replication.throttled.replicas";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (auto& item : items)
    out += (out.empty() ? "" : ",") + item;
  return out;
}

altered_overrides refused(int16_t code, std::string message) { return {{}, code, std::move(message)}; }

} // namespace

altered_overrides alter_overrides(const std::map<std::string, std::string>& current,
                                  const wire::alter_configs_resource& resource, bool incremental) {
  std::set<std::string> seen;
  for (auto& c : resource.configs)
    if (!seen.insert(c.name).second)
      return refused(42, "Error due to duplicate config keys: " + c.name);
  // List values are stored without blanks ("compact, delete" -> "compact,delete").
  auto normal = [](const std::string& key, const std::string& value) {
    return is_list_key(key) ? join(split_list(value)) : value;
  };
  if (!incremental) {
    altered_overrides out;
    for (auto& c : resource.configs)
      if (c.value)
        out.overrides[c.name] = normal(c.name, *c.value);
    return out;
  }
  altered_overrides out{current, 0, {}};
  for (auto& c : resource.configs) {
    auto value = c.value.value_or("");
    switch (static_cast<wire::config_operation>(c.operation)) {
      case wire::config_operation::set:
        out.overrides[c.name] = normal(c.name, value);
        break;
      case wire::config_operation::remove:
        out.overrides.erase(c.name);
        break;
      case wire::config_operation::append:
      case wire::config_operation::subtract: {
        if (!is_list_key(c.name))
          return refused(40, c.name + ": APPEND and SUBTRACT apply only to list configs");
        auto it = out.overrides.find(c.name);
        auto items = it == out.overrides.end() ? std::vector<std::string>{} : split_list(it->second);
        for (auto& v : split_list(value)) {
          auto at = std::find(items.begin(), items.end(), v);
          if (c.operation == static_cast<int8_t>(wire::config_operation::append) && at == items.end())
            items.push_back(v);
          else if (c.operation == static_cast<int8_t>(wire::config_operation::subtract) && at != items.end())
            items.erase(at);
        }
        out.overrides[c.name] = join(items);
        break;
      }
      default:
        return refused(42, c.name + ": unknown config operation " + std::to_string(c.operation));
    }
  }
  return out;
}

} // namespace cafka::config
