#include "cluster/ensure_path.hpp"

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cluster/path_syntax.hpp"

namespace cafka::cluster {
namespace {

// Collects the outcome of the ancestor creates of one pipeline. The mutex only matters for an
// implementation that completes one session's calls on several threads; ZooKeeper and the
// embedded store both complete them one at a time.
struct ancestors_outcome {
  explicit ancestors_outcome(std::size_t n) : errors(n) {}

  void record(std::size_t index, const std::error_code& ec) {
    std::lock_guard<std::mutex> guard{mutex};
    if (ec && ec != errc::node_exists)
      errors[index] = ec;
  }

  std::error_code first_error() {
    std::lock_guard<std::mutex> guard{mutex};
    for (auto& ec : errors)
      if (ec)
        return ec;
    return {};
  }

  std::mutex mutex;
  std::vector<std::error_code> errors;
};

// Issues the persistent creates of `paths`, recording into `outcome`.
void create_all(coordinator& c, const std::vector<std::string>& paths,
                const std::shared_ptr<ancestors_outcome>& outcome) {
  for (std::size_t i = 0; i < paths.size(); ++i)
    c.create(paths[i], {}, create_mode::persistent,
             [outcome, i](result<std::string> r) { outcome->record(i, r.error()); });
}

} // namespace

void ensure_path(coordinator& c, const std::string& path, status_callback done) {
  if (path == "/") { // the root always exists; ask anyway so that session errors come through
    c.exists(path, {}, [done = std::move(done)](result<std::optional<node_stat>> r) {
      if (done)
        done(r ? status{} : status{r.error()});
    });
    return;
  }
  auto chain = is_valid_path(path) ? ancestors(path) : std::vector<std::string>{};
  auto outcome = std::make_shared<ancestors_outcome>(chain.size());
  create_all(c, chain, outcome);
  c.create(path, {}, create_mode::persistent,
           [outcome, done = std::move(done)](result<std::string> r) {
             auto ec = outcome->first_error();
             if (!ec && !r && r.error() != errc::node_exists)
               ec = r.error();
             if (done)
               done(status{ec});
           });
}

void create_recursive(coordinator& c, const std::string& path, std::string_view data,
                      create_mode mode, create_callback done) {
  auto chain = is_valid_create_path(path, is_sequential(mode)) ? ancestors(path)
                                                               : std::vector<std::string>{};
  auto outcome = std::make_shared<ancestors_outcome>(chain.size());
  create_all(c, chain, outcome);
  c.create(path, data, mode, [outcome, done = std::move(done)](result<std::string> r) {
    if (!done)
      return;
    if (auto ec = outcome->first_error())
      done(ec);
    else
      done(std::move(r));
  });
}

} // namespace cafka::cluster
