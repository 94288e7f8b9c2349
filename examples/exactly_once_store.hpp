#pragma once
// The state of cafka-example-exactly-once (exactly_once.cpp) on disk: the output and the
// consumed offsets, kept together so that a crash at any point loses or repeats nothing.
//
// A state dir holds two files:
//   output      the records processed so far, appended batch by batch (one line each)
//   checkpoint  a small text file replaced atomically after each batch:
//                 cafka-exactly-once 1
//                 topic <name>
//                 output-bytes <n>       committed length of `output`
//                 output-records <n>     lines in those bytes
//                 partition <p> <next>   per partition read so far: the next offset
//                 end
// commit() makes the appended output durable (fsync) and only then replaces the
// checkpoint (write checkpoint.tmp, fsync it, rename over checkpoint, fsync the dir).
// The rename is the commit point: before it, the old checkpoint still describes a prefix
// of `output` and the offsets that produced exactly that prefix; after it, the new one
// does. Opening the store truncates `output` to the committed length, dropping a tail
// written after the last checkpoint (by a run killed between append and commit); its
// records are read again from the committed offsets. No checkpoint yet means nothing is
// committed: an `output` found without one is emptied.
//
// Every function BLOCKS on file I/O (fsync): call it from a plain thread or a detached
// actor, never from an actor on CAF's scheduler. Errors throw std::runtime_error naming
// the file and the problem (a damaged or foreign checkpoint, an output shorter than the
// checkpoint says, a failed system call). No CAF here.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace cafka::examples {

struct checkpoint {
  std::string topic;
  uint64_t output_bytes = 0;
  uint64_t output_records = 0;
  std::map<int32_t, int64_t> next_offsets; ///< partition -> next offset to read
};

/// The checkpoint file's text.
std::string to_text(const checkpoint& c);

/// Parses a checkpoint file's text; throws std::runtime_error naming the bad line.
checkpoint parse_checkpoint(std::string_view text);

class state_store {
public:
  /// Opens (creating the folder if needed) the state of `topic` in `dir`: reads the
  /// checkpoint, truncates `output` to its committed length. A checkpoint of another
  /// topic is an error (one state dir per topic).
  state_store(std::string dir, const std::string& topic);
  ~state_store();
  state_store(const state_store&) = delete;
  state_store& operator=(const state_store&) = delete;

  /// What the last commit recorded (the checkpoint read at open, then each commit's).
  const checkpoint& committed() const noexcept { return committed_; }

  /// Bytes of `output` dropped at open (written after the last checkpoint).
  uint64_t dropped_bytes() const noexcept { return dropped_; }

  /// Appends `lines` (`records` lines) to `output`; not durable until commit().
  void append(std::string_view lines, uint64_t records);

  /// Makes everything appended durable and records `next_offsets` with it, atomically.
  void commit(const std::map<int32_t, int64_t>& next_offsets);

private:
  std::string dir_;
  int output_fd_ = -1;
  checkpoint committed_;
  uint64_t pending_bytes_ = 0;   ///< appended since the last commit
  uint64_t pending_records_ = 0;
  uint64_t dropped_ = 0;
};

/// One output line: "<partition> <offset> <value>\n". In the value a backslash becomes
/// "\\" and a newline "\n", so every record is one line; a null value is written as
/// nothing after the second space.
std::string output_line(int32_t partition, int64_t offset, std::string_view value);

} // namespace cafka::examples
