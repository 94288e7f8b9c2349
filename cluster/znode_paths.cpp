#include "cluster/znode_paths.hpp"

#include <charconv>

#include "cluster/errc.hpp"
#include "cluster/path_syntax.hpp"
#include "cluster/percent_encoding.hpp"

namespace cafka::cluster {

std::string escape_name(std::string_view name) {
  if (name.empty())
    return "%";
  if (name == ".")
    return "%2E";
  if (name == "..")
    return "%2E%2E";
  return percent_encode(name);
}

result<std::string> unescape_name(std::string_view escaped) {
  if (escaped == "%")
    return std::string{};
  auto decoded = percent_decode(escaped);
  if (!decoded || escape_name(*decoded) != escaped)
    return errc::malformed_data;
  return decoded;
}

result<int32_t> parse_id_name(std::string_view name) {
  int32_t id = 0;
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), id);
  bool canonical = !name.empty() && name.front() != '-' && (name.size() == 1 || name.front() != '0');
  if (!canonical || ec != std::errc{} || end != name.data() + name.size())
    return errc::malformed_data;
  return id;
}

std::string broker_ids_path() {
  return "/brokers/ids";
}

std::string broker_path(int32_t broker_id) {
  return broker_ids_path() + '/' + std::to_string(broker_id);
}

std::string topics_path() {
  return "/brokers/topics";
}

std::string topic_path(std::string_view topic) {
  return topics_path() + '/' + escape_name(topic);
}

std::string partitions_path(std::string_view topic) {
  return topic_path(topic) + "/partitions";
}

std::string partition_path(std::string_view topic, int32_t partition) {
  return partitions_path(topic) + '/' + std::to_string(partition);
}

std::string partition_state_path(std::string_view topic, int32_t partition) {
  return partition_path(topic, partition) + "/state";
}

std::string controller_path() {
  return "/controller";
}

std::string controller_epoch_path() {
  return "/controller_epoch";
}

std::string consumers_path() {
  return "/consumers";
}

std::string consumer_group_path(std::string_view group) {
  return consumers_path() + '/' + escape_name(group);
}

std::string consumer_ids_path(std::string_view group) {
  return consumer_group_path(group) + "/ids";
}

std::string consumer_member_path(std::string_view group, std::string_view member) {
  return consumer_ids_path(group) + '/' + escape_name(member);
}

std::string topic_configs_path() {
  return "/config/topics";
}

std::string broker_config_path(std::string_view entity) { return "/config/brokers/" + std::string(entity); }

std::string topic_config_path(std::string_view topic) {
  return topic_configs_path() + '/' + escape_name(topic);
}

std::vector<std::string> persistent_roots() {
  return {broker_ids_path(), topics_path(), consumers_path(), topic_configs_path()};
}

result<zookeeper_connect> split_zookeeper_connect(std::string_view connect) {
  auto slash = connect.find('/');
  zookeeper_connect out;
  out.hosts = std::string(connect.substr(0, slash));
  if (out.hosts.empty())
    return errc::invalid_path;
  if (slash == std::string_view::npos)
    return out;
  auto chroot = connect.substr(slash);
  if (!is_valid_path(chroot))
    return errc::invalid_path;
  if (chroot != "/")
    out.chroot = std::string(chroot);
  return out;
}

} // namespace cafka::cluster
