#pragma once
// Percent-encoding over the alphabet [A-Za-z0-9._-]: every other byte becomes %XX with
// upper-case hex. Used for znode names (escape_name) and for the keys of topic configs in znode
// data, so that arbitrary strings fit where only a safe alphabet may appear.

#include <string>
#include <string_view>

#include "protocol/result.hpp"

namespace cafka::cluster {

bool is_unreserved(char c) noexcept;

std::string percent_encode(std::string_view text);

/// Accepts unreserved bytes and %XX (either hex case); anything else, such as a lone '%' or a
/// reserved byte, is malformed_data.
result<std::string> percent_decode(std::string_view text);

} // namespace cafka::cluster
