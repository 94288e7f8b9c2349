#pragma once
// Shared verbs of the storage tests: a temporary folder, batches to append, and file
// surgery (cut, flip bytes) for the fault tests.

#include <cstdint>
#include <string>
#include <vector>

#include "storage/log_config.hpp"

namespace cafka::test {

/// A fresh folder under /tmp, removed with its contents at destruction.
class temp_dir {
public:
  temp_dir();
  ~temp_dir();
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const noexcept { return path_; }
  std::string operator/(const std::string& name) const { return path_ + '/' + name; }

private:
  std::string path_;
};

/// A valid, uncompressed v2 batch of `records` records whose values are `value_size`
/// bytes, all with timestamp `timestamp`; values encode `tag` so reads can be checked.
std::vector<char> make_batch(int records, size_t value_size, int64_t timestamp, uint32_t tag = 0);

/// The tag make_batch() put into a batch (read back from its first record).
uint32_t batch_tag(const char* batch, size_t size);

/// A config with small segments and a dense index, so that tests roll and index a lot.
storage::log_config small_log_config();

uint64_t file_size(const std::string& path);
void cut_file(const std::string& path, uint64_t size);
void flip_byte(const std::string& path, uint64_t position);
void write_bytes(const std::string& path, const std::string& bytes);
bool file_exists(const std::string& path);

} // namespace cafka::test
