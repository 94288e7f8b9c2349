#include "client/coordinator_hop.hpp"

#include <caf/error.hpp>
#include <caf/message.hpp>

#include "actors/errors.hpp"

namespace cafka::client {

std::optional<int32_t> coordinator_hint(const caf::error& err, std::optional<int32_t> asked) {
  if (!err || err.category() != caf::atom("cafka")
      || static_cast<kafka_error>(err.code()) != kafka_error::not_coordinator)
    return std::nullopt;
  auto& ctx = err.context();
  if (ctx.empty() || !ctx.match_element<int32_t>(0))
    return std::nullopt;
  auto id = ctx.get_as<int32_t>(0);
  if (id < 0 || (asked && *asked == id))
    return std::nullopt;
  return id;
}

} // namespace cafka::client
