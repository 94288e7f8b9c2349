#pragma once
// A small uncompressed v2 batch, written out field by field from the layout in
// kafka-wire-notes.md §4.1 and DefaultRecord.java. kafka-python 2.0.2's
// DefaultRecordBatchBuilder produces exactly these bytes for the same three records
// (checked when this test was written), so it is an independent reference for our builder.
//
// Records: {key "k", value "v1", t=1000}, {key null, value "hello", header h="x",
// t=1005}, {key "k", value null (a tombstone), t=999: a negative timestamp delta}.

#include <string_view>

namespace cafka::protocol::test {

inline constexpr std::string_view golden_batch_hex =
    // -- header (61 bytes) --------------------------------------------------------
    "0000000000000000" // base_offset 0
    "00000053"         // batch_length 83 = 95 - 12
    "00000000"         // partition_leader_epoch 0
    "02"               // magic 2
    "1dcc55a7"         // crc: CRC-32C of bytes 21..95
    "0000"             // attributes: no compression, CreateTime
    "00000002"         // last_offset_delta 2
    "00000000000003e8" // base_timestamp 1000
    "00000000000003ed" // max_timestamp 1005
    "ffffffffffffffff" // producer_id -1
    "ffff"             // producer_epoch -1
    "ffffffff"         // base_sequence -1
    "00000003"         // record_count 3
    // -- record 0 (1 + 9 bytes) ---------------------------------------------------
    "12"     // length 9 (zigzag 18)
    "00"     // attributes
    "00"     // timestamp_delta 0
    "00"     // offset_delta 0
    "02 6b"  // key: length 1, "k"
    "04 7631" // value: length 2, "v1"
    "00"     // header count 0
    // -- record 1 (1 + 15 bytes) --------------------------------------------------
    "1e"              // length 15
    "00"              // attributes
    "0a"              // timestamp_delta 5
    "02"              // offset_delta 1
    "01"              // key: null (length -1)
    "0a 68656c6c6f"   // value: length 5, "hello"
    "02"              // header count 1
    "02 68"           // header key: length 1, "h"
    "02 78"           // header value: length 1, "x"
    // -- record 2 (1 + 7 bytes) ---------------------------------------------------
    "0e"    // length 7
    "00"    // attributes
    "01"    // timestamp_delta -1
    "04"    // offset_delta 2
    "02 6b" // key: length 1, "k"
    "01"    // value: null
    "00";   // header count 0

} // namespace cafka::protocol::test
