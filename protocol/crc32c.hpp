#pragma once
// CRC-32C (Castagnoli), the checksum of Kafka record batches v2.
// crc32c() picks the SSE4.2 instruction when the CPU has it, else a table.

#include <cstddef>
#include <cstdint>

namespace cafka::protocol {

/// CRC-32C of `n` bytes, continuing from `crc` (0 to start).
uint32_t crc32c(const void* data, size_t n, uint32_t crc = 0) noexcept;

/// The portable table implementation (exposed so tests can compare both).
uint32_t crc32c_portable(const void* data, size_t n, uint32_t crc = 0) noexcept;

/// The SSE4.2 implementation; call only when crc32c_hardware_available().
uint32_t crc32c_hardware(const void* data, size_t n, uint32_t crc = 0) noexcept;

bool crc32c_hardware_available() noexcept;

} // namespace cafka::protocol
