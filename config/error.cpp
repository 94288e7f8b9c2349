#include "config/error.hpp"

namespace cafka::config {
namespace {

struct category : std::error_category {
  const char* name() const noexcept override { return "cafka.config"; }
  std::string message(int ev) const override {
    switch (static_cast<errc>(ev)) {
      case errc::unreadable_file: return "cannot read configuration file";
      case errc::malformed_line: return "malformed line in properties file";
      case errc::malformed_override: return "malformed --override argument";
      case errc::invalid_value: return "invalid configuration value";
    }
    return "unknown configuration error";
  }
};

} // namespace

const std::error_category& config_category() noexcept {
  static const category instance;
  return instance;
}

} // namespace cafka::config
