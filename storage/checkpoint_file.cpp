#include "storage/checkpoint_file.hpp"

#include <sstream>

#include "storage/errc.hpp"
#include "storage/file.hpp"

namespace cafka::storage {

std::string format_checkpoint(const offset_checkpoint& offsets) {
  std::ostringstream out;
  out << "0\n" << offsets.size() << '\n';
  for (auto& [tp, offset] : offsets)
    out << tp.topic << ' ' << tp.partition << ' ' << offset << '\n';
  return out.str();
}

result<offset_checkpoint> parse_checkpoint(std::string_view text) {
  std::istringstream in{std::string(text)};
  int version = -1;
  size_t count = 0;
  if (!(in >> version) || version != 0 || !(in >> count))
    return errc::corrupt_checkpoint;
  offset_checkpoint out;
  for (size_t i = 0; i < count; ++i) {
    topic_partition tp;
    int64_t offset = 0;
    if (!(in >> tp.topic >> tp.partition >> offset) || tp.partition < 0 || offset < 0)
      return errc::corrupt_checkpoint;
    out[tp] = offset;
  }
  std::string extra;
  if (in >> extra)
    return errc::corrupt_checkpoint;
  return out;
}

status write_checkpoint_file(const std::string& path, const offset_checkpoint& offsets) {
  return write_file_atomically(path, format_checkpoint(offsets));
}

result<offset_checkpoint> read_checkpoint_file(const std::string& path) {
  auto text = read_file_if_present(path);
  if (!text)
    return text.error();
  if (!*text)
    return offset_checkpoint{};
  return parse_checkpoint(**text);
}

} // namespace cafka::storage
