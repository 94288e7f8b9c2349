#pragma once
// XXH32, the 32-bit xxHash, as used inside LZ4 frames: the header checksum byte (HC) is
// (xxh32(frame descriptor, 0) >> 8) & 0xff, and the optional content checksum is
// xxh32(content, 0). We need it to recognise and repair the broken HC of KAFKA-3160.

#include <cstddef>
#include <cstdint>

namespace cafka::protocol {

/// XXH32 of `n` bytes with `seed`.
uint32_t xxh32(const void* data, size_t n, uint32_t seed = 0) noexcept;

} // namespace cafka::protocol
