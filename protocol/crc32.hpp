#pragma once
// CRC-32 with the IEEE 802.3 polynomial (the one of zlib, gzip and PNG), the checksum of
// legacy Kafka messages (magic 0 and 1). Only the rare legacy path uses it, so a plain
// byte-at-a-time table is enough.

#include <cstddef>
#include <cstdint>

namespace cafka::protocol {

/// CRC-32 (IEEE) of `n` bytes, continuing from `crc` (0 to start); the same value as
/// zlib's crc32(crc, data, n).
uint32_t crc32(const void* data, size_t n, uint32_t crc = 0) noexcept;

} // namespace cafka::protocol
