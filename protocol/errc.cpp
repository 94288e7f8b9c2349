#include "protocol/errc.hpp"

#include <string>

namespace cafka::protocol {
namespace {

struct category : std::error_category {
  const char* name() const noexcept override { return "cafka.protocol"; }
  std::string message(int ev) const override {
    switch (static_cast<errc>(ev)) {
      case errc::truncated: return "truncated input";
      case errc::bad_magic: return "unsupported magic byte";
      case errc::bad_crc: return "checksum mismatch";
      case errc::bad_length: return "invalid length field";
      case errc::bad_record: return "malformed record";
      case errc::unsupported_compression: return "unsupported compression codec";
      case errc::compression_failed: return "corrupt compressed data";
      case errc::too_large: return "size above limit";
      case errc::bad_varint: return "overlong varint";
    }
    return "unknown protocol error";
  }
};

} // namespace

const std::error_category& protocol_category() noexcept {
  static const category instance;
  return instance;
}

} // namespace cafka::protocol
