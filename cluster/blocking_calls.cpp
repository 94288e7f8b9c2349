#include "cluster/blocking_calls.hpp"

#include "cluster/ensure_path.hpp"
#include "cluster/errc.hpp"

namespace cafka::cluster {

status store_node(coordinator& c, const std::string& path, const std::string& data) {
  auto set = wait_for<node_stat>([&](set_callback done) { c.set(path, data, any_version, std::move(done)); });
  if (set)
    return {};
  if (set.error() != errc::no_node)
    return set.error();
  auto created = wait_for<std::string>([&](create_callback done) {
    create_recursive(c, path, data, create_mode::persistent, std::move(done));
  });
  if (!created && created.error() == errc::node_exists) // created meanwhile: set it
    return store_node(c, path, data);
  return created ? status{} : status{created.error()};
}

} // namespace cafka::cluster
