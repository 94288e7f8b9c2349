#include "storage/topic_registry.hpp"

#include <cerrno>
#include <sstream>

#include "storage/errc.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

std::string format_topic_registry(const topic_map& topics) {
  std::ostringstream out;
  for (auto& [name, t] : topics) {
    out << name << ' ' << t.partitions << ' ' << t.replication_factor;
    for (auto& [k, v] : t.configs)
      out << ' ' << k << '=' << v;
    out << '\n';
  }
  return out.str();
}

result<topic_map> parse_topic_registry(std::string_view text) {
  topic_map out;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty())
      continue;
    std::istringstream fields{line};
    std::string name;
    topic_entry t;
    if (!(fields >> name >> t.partitions >> t.replication_factor) || t.partitions < 1
        || t.replication_factor < 1)
      return errc::corrupt_checkpoint;
    std::string kv;
    while (fields >> kv) {
      auto eq = kv.find('=');
      if (eq == std::string::npos || eq == 0)
        return errc::corrupt_checkpoint;
      t.configs[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    out[name] = std::move(t);
  }
  return out;
}

result<topic_map> read_topic_registry(const std::string& path) {
  auto text = read_whole_file(path);
  if (!text) {
    if (text.error() == std::error_code(ENOENT, std::system_category()))
      return topic_map{};
    return text.error();
  }
  return parse_topic_registry(*text);
}

status write_topic_registry(const std::string& path, const topic_map& topics) {
  return write_file_atomically(path, format_topic_registry(topics));
}

} // namespace cafka::storage
