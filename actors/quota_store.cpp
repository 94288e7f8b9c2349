#include "actors/quota_store.hpp"

#include <algorithm>

#include "cluster/blocking_calls.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/ensure_path.hpp"
#include "cluster/quota_znodes.hpp"
#include "storage/file.hpp"

namespace cafka {

namespace {

using cluster::quota_entity;
using cluster::quota_table;

class file_store final : public quota_store {
public:
  explicit file_store(std::string path) : path_(std::move(path)) {}

  result<quota_table> load() override {
    auto text = storage::read_file_if_present(path_);
    if (!text)
      return text.error();
    if (!*text)
      return quota_table{};
    return cluster::parse_quota_file(**text);
  }

  status save(const quota_table& table, const std::vector<quota_entity>&) override {
    return storage::write_file_atomically(path_, cluster::format_quota_file(table));
  }

private:
  std::string path_;
};

using cluster::wait_for;

bool is_no_node(const std::error_code& ec) { return ec == cluster::errc::no_node; }

class coordinator_store final : public quota_store {
public:
  explicit coordinator_store(std::shared_ptr<cluster::coordinator> c) : c_(std::move(c)) {}

  result<quota_table> load() override {
    quota_table table;
    for (auto& top : {cluster::quota_users_path, cluster::quota_clients_path}) {
      auto names = children(top);
      if (!names)
        return names.error();
      for (auto& name : *names) {
        auto path = top + "/" + name;
        if (auto st = read_into(table, path); !st)
          return st.error();
        if (top != cluster::quota_users_path)
          continue;
        auto clients = children(path + "/clients");
        if (!clients)
          return clients.error();
        for (auto& client : *clients)
          if (auto st = read_into(table, path + "/clients/" + client); !st)
            return st.error();
      }
    }
    return table;
  }

  status save(const quota_table& table, const std::vector<quota_entity>& changed) override {
    for (auto& entity : changed) {
      auto it = table.entries().find(entity);
      auto values = it == table.entries().end() ? cluster::quota_values{} : it->second;
      if (auto st = cluster::store_node(*c_, cluster::quota_znode_path(entity), cluster::encode_quota_values(values)); !st)
        return st;
      auto note = wait_for<std::string>([&](cluster::create_callback done) {
        cluster::create_recursive(*c_, cluster::config_change_prefix,
                                  cluster::encode_config_change(cluster::quota_entity_path(entity)),
                                  cluster::create_mode::sequential, std::move(done));
      });
      if (!note)
        return note.error();
    }
    prune_notifications();
    return {};
  }

private:
  // The names under `path`; none if it does not exist yet.
  result<std::vector<std::string>> children(const std::string& path) {
    auto names = wait_for<std::vector<std::string>>(
      [&](cluster::children_callback done) { c_->children(path, {}, std::move(done)); });
    if (!names && is_no_node(names.error()))
      return std::vector<std::string>{};
    return names;
  }

  status read_into(quota_table& table, const std::string& path) {
    auto data = wait_for<cluster::node_data>([&](cluster::get_callback done) { c_->get(path, {}, std::move(done)); });
    if (!data)
      return is_no_node(data.error()) ? status{} : status{data.error()};
    auto entity = cluster::quota_entity_of_path(std::string_view{path}.substr(std::string_view{"/config/"}.size()));
    auto values = cluster::decode_quota_values(data->data);
    if (!entity || !values) // not a quota node cafka wrote: leave it
      return {};
    for (auto& [kind, value] : *values)
      table.set(*entity, kind, value);
    return {};
  }

  // Notifications are only triggers (brokers reload everything): keep the last 100.
  void prune_notifications() {
    constexpr size_t kept = 100;
    auto names = children(cluster::config_changes_path);
    if (!names || names->size() <= kept)
      return;
    std::sort(names->begin(), names->end());
    for (size_t i = 0; i + kept < names->size(); ++i) {
      auto path = cluster::config_changes_path + "/" + (*names)[i];
      wait_for<void>([&](cluster::status_callback done) { c_->remove(path, cluster::any_version, std::move(done)); });
    }
  }

  std::shared_ptr<cluster::coordinator> c_;
};

} // namespace

std::shared_ptr<quota_store> file_quota_store(std::string path) { return std::make_shared<file_store>(std::move(path)); }

std::shared_ptr<quota_store> coordinator_quota_store(std::shared_ptr<cluster::coordinator> session) {
  return std::make_shared<coordinator_store>(std::move(session));
}

} // namespace cafka
