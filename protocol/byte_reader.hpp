#pragma once
// byte_reader: bounds-checked decoding of Kafka primitive types from a borrowed buffer.
//
// Contract:
// - The reader borrows `input`; the buffer must outlive the reader and every view it
//   returns (strings and bytes are returned as views into it, never copied).
// - Every read checks the remaining size first and never touches a byte past the end.
// - Errors are sticky: the first failure is recorded, the failing read and all later
//   reads return zero / empty, and error() tells what went wrong. So a decoder can read
//   a whole structure and check ok() once at the end, like an iostream.
// - A hostile length field costs nothing: a length larger than what is left fails with
//   truncated before anything is allocated (the reader allocates nothing at all).
//
// Integers are big-endian; "varint"/"varlong" are the zigzag-encoded signed varints of
// record fields, "uvarint" the plain unsigned varint of flexible message versions.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <system_error>

#include "protocol/batch_header.hpp" // bytes_view
#include "protocol/errc.hpp"

namespace cafka::protocol {

class byte_reader {
public:
  explicit byte_reader(bytes_view input) noexcept : input_(input) {}

  // -- fixed width, big-endian -----------------------------------------------------
  int8_t read_i8() noexcept;
  int16_t read_i16() noexcept;
  int32_t read_i32() noexcept;
  int64_t read_i64() noexcept;
  uint32_t read_u32() noexcept;

  // -- varints (protobuf style, 7 bits per byte, least significant group first) ---
  /// Zigzag varint of at most 5 bytes; more fails with bad_varint.
  int32_t read_varint() noexcept;
  /// Zigzag varlong of at most 10 bytes.
  int64_t read_varlong() noexcept;
  /// Unsigned varint of at most 5 bytes (flexible versions: compact lengths, tags).
  uint32_t read_uvarint() noexcept;

  // -- length-prefixed, as views into the input -------------------------------------
  /// STRING: i16 length >= 0, then bytes. A negative length fails with bad_length.
  bytes_view read_string() noexcept;
  /// NULLABLE_STRING: i16 length, -1 = null; below -1 fails with bad_length.
  std::optional<bytes_view> read_nullable_string() noexcept;
  /// BYTES: i32 length >= 0, then bytes.
  bytes_view read_bytes() noexcept;
  /// NULLABLE_BYTES: i32 length, -1 = null.
  std::optional<bytes_view> read_nullable_bytes() noexcept;
  /// Record key/value/header: zigzag varint length, -1 = null.
  std::optional<bytes_view> read_varint_bytes() noexcept;

  /// The next `n` bytes.
  bytes_view read_raw(size_t n) noexcept;
  void skip(size_t n) noexcept { read_raw(n); }

  // -- state --------------------------------------------------------------------------
  bool ok() const noexcept { return !error_; }
  std::error_code error() const noexcept { return error_; }
  /// Bytes not yet consumed (0 after an error).
  size_t remaining() const noexcept { return ok() ? input_.size() - pos_ : 0; }
  /// Bytes consumed so far.
  size_t position() const noexcept { return pos_; }
  /// The unconsumed bytes (empty after an error).
  bytes_view rest() const noexcept { return ok() ? input_.substr(pos_) : bytes_view{}; }
  /// Records `e` unless an earlier error is already recorded; lets decoders report
  /// semantic errors (a bad count, say) through the same sticky state.
  void fail(errc e) noexcept {
    if (ok()) error_ = make_error_code(e);
  }

private:
  /// Pointer to the next `n` bytes and consumes them, or nullptr (and truncated).
  const char* take(size_t n) noexcept;
  uint64_t read_unsigned_varint(int max_bytes) noexcept;
  std::optional<bytes_view> read_sized(int64_t length, bool nullable) noexcept;

  bytes_view input_;
  size_t pos_ = 0;
  std::error_code error_;
};

} // namespace cafka::protocol
