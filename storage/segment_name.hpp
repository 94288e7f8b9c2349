#pragma once
// The only place that formats and parses segment file names:
// <20-digit zero-padded base offset>.<suffix>, e.g. 00000000000000368769.log.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cafka::storage {

/// snapshot: the producer state at that offset (storage/producer_state.hpp), Kafka's name.
/// txnindex: the aborted transactions whose ABORT marker is in that segment
/// (storage/aborted_txn_index.hpp).
enum class segment_file { log, index, timeindex, snapshot, txnindex };

/// Appended to the files of a segment that retention removed, until they are unlinked.
constexpr const char* deleted_suffix = ".deleted";

/// "00000000000000000042" for 42.
std::string offset_file_stem(int64_t base_offset);

/// "<dir>/00000000000000000042.log" and so on.
std::string segment_file_path(const std::string& dir, int64_t base_offset, segment_file kind);

/// The base offset of a file name with the given suffix, or nothing when the name is
/// not exactly 20 digits followed by that suffix.
std::optional<int64_t> parse_segment_file_name(std::string_view name, segment_file kind);

} // namespace cafka::storage
