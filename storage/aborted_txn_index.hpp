#pragma once
// The aborted transactions of a partition log, for read_committed fetches (Kafka's
// TransactionIndex and AbortedTxn). One file per segment, <base offset>.txnindex, holds the
// transactions whose ABORT marker lies in that segment, in marker order, 34 bytes each:
//
//   version:i16 (= 0) producer_id:i64 first_offset:i64 last_offset:i64 last_stable_offset:i64
//
// last_offset is the marker's offset; last_stable_offset the log's last stable offset once the
// transaction ended (the first offset of another producer's open transaction, else the
// marker's offset + 1): a fetch that scans the index stops at an entry whose
// last_stable_offset reaches past what it returns, since every later aborted transaction
// begins after that.
//
// Files are created with the first entry, appended to without fsync (the log's flush syncs
// them: prepare_flush) and cut by truncation. The log rebuilds the entries after its replay
// start at open, so a lost or torn tail is replaced, never trusted. All in memory as well
// (few entries per segment).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/result.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

struct aborted_txn {
  int64_t producer_id = -1;
  int64_t first_offset = 0;
  int64_t last_offset = 0;
  int64_t last_stable_offset = 0;
  friend bool operator==(const aborted_txn& a, const aborted_txn& b) {
    return a.producer_id == b.producer_id && a.first_offset == b.first_offset && a.last_offset == b.last_offset
           && a.last_stable_offset == b.last_stable_offset;
  }
};

/// What a read_committed Fetch lists (FetchResponse's aborted_transactions).
struct aborted_range {
  int64_t producer_id = -1;
  int64_t first_offset = 0;
  friend bool operator==(const aborted_range& a, const aborted_range& b) {
    return a.producer_id == b.producer_id && a.first_offset == b.first_offset;
  }
};

inline constexpr size_t aborted_txn_size = 34;

std::string encode_aborted_txn(const aborted_txn& t);
/// The entries of a file's bytes, up to the first that is torn (a partial tail) or not sound
/// (version other than 0, first_offset > last_offset, last_offset not above the previous
/// entry's): those and what follows are dropped, as recovery cuts a torn log.
std::vector<aborted_txn> decode_aborted_txns(std::string_view bytes);

class aborted_txn_index {
public:
  explicit aborted_txn_index(std::string dir) : dir_(std::move(dir)) {}

  /// Opening: loads the files of `segment_bases` (other .txnindex files are the caller's to
  /// delete), keeping the entries whose marker lies below `keep_below` (the log replays the
  /// rest and adds them again); files are cut to what they keep.
  status load(const std::vector<int64_t>& segment_bases, int64_t keep_below);

  /// Appends an entry to the file of the segment holding its marker.
  status add(int64_t segment_base, const aborted_txn& t);

  /// Drops the entries whose marker lies at or after `offset`.
  status truncate_from(int64_t offset);

  /// A segment leaves the log: its file, if it has one, renamed to *.deleted (returned, for
  /// the caller to unlink with the segment's files).
  result<std::optional<std::string>> retire(int64_t segment_base);

  /// The entries of a segment's file.
  std::vector<aborted_txn> entries_of(int64_t segment_base) const;
  /// A cleaned segment took the place of others (storage/clean_swap.hpp): its file, already
  /// in place, holds `entries`.
  void adopt(int64_t segment_base, std::vector<aborted_txn> entries);

  /// Removes every file (a log restarting empty).
  status clear();

  /// Kafka's collectAbortedTransactions: the transactions with last_offset >= fetch_offset
  /// and first_offset < upper, from the segment holding `fetch_offset` on, until an entry's
  /// last_stable_offset reaches `upper`.
  std::vector<aborted_range> collect(int64_t fetch_offset, int64_t upper) const;

  /// Opens the files written since the last call for the flush's fdatasync.
  status prepare_flush(std::vector<file>& to_sync);

  size_t size() const noexcept;

private:
  std::string path_of(int64_t segment_base) const;
  status rewrite(int64_t segment_base);

  std::string dir_;
  std::map<int64_t, std::vector<aborted_txn>> by_segment_;
  std::set<int64_t> unsynced_;
};

} // namespace cafka::storage
