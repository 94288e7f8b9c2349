#pragma once
// Errors of the protocol layer (decoding and validating bytes), as std::error_code.

#include <system_error>

namespace cafka::protocol {

enum class errc {
  truncated = 1,           ///< fewer bytes than a length field or fixed layout promises
  bad_magic,               ///< magic byte other than 0, 1 or 2 where one is expected
  bad_crc,                 ///< stored checksum differs from the computed one
  bad_length,              ///< a length field that is negative or inconsistent
  bad_record,              ///< a record inside a batch is malformed
  unsupported_compression, ///< an undefined codec (5..7), or zstd in a legacy message set
  compression_failed,      ///< the codec reported an error (corrupt compressed data)
  too_large,               ///< a size above a configured or structural limit
  bad_varint,              ///< a varint with more continuation bytes than its type allows
};

const std::error_category& protocol_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), protocol_category()};
}

} // namespace cafka::protocol

template <>
struct std::is_error_code_enum<cafka::protocol::errc> : std::true_type {};
