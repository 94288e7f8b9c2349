// The exactly-once example's state on disk; see exactly_once_store.hpp.
#include "examples/exactly_once_store.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>

#include "storage/file.hpp"

namespace cafka::examples {

namespace {

constexpr const char* magic = "cafka-exactly-once 1";

[[noreturn]] void fail_sys(const std::string& what, const std::string& path) {
  throw std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

void write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    auto n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      fail_sys("cannot write", path);
    data.remove_prefix(static_cast<size_t>(n));
  }
}

void sync_fd(int fd, const std::string& path) {
  if (::fsync(fd) != 0)
    fail_sys("cannot fsync", path);
}

template <class T>
T read_number(std::istringstream& in, const std::string& line) {
  T value{};
  if (!(in >> value) || value < 0)
    throw std::runtime_error("bad checkpoint line '" + line + "'");
  return value;
}

} // namespace

std::string to_text(const checkpoint& c) {
  std::ostringstream out;
  out << magic << "\ntopic " << c.topic << "\noutput-bytes " << c.output_bytes << "\noutput-records "
      << c.output_records << '\n';
  for (auto& [p, next] : c.next_offsets)
    out << "partition " << p << ' ' << next << '\n';
  out << "end\n";
  return out.str();
}

checkpoint parse_checkpoint(std::string_view text) {
  checkpoint c;
  std::istringstream lines{std::string{text}};
  std::string line;
  if (!std::getline(lines, line) || line != magic)
    throw std::runtime_error("not a checkpoint of cafka-example-exactly-once (first line '" + line + "')");
  bool ended = false, has_topic = false, has_bytes = false, has_records = false;
  while (!ended && std::getline(lines, line)) {
    std::istringstream in{line};
    std::string key;
    in >> key;
    if (key == "topic") {
      has_topic = static_cast<bool>(in >> c.topic);
    } else if (key == "output-bytes") {
      c.output_bytes = read_number<uint64_t>(in, line);
      has_bytes = true;
    } else if (key == "output-records") {
      c.output_records = read_number<uint64_t>(in, line);
      has_records = true;
    } else if (key == "partition") {
      auto p = read_number<int32_t>(in, line);
      c.next_offsets[p] = read_number<int64_t>(in, line);
    } else if (key == "end") {
      ended = true;
    } else {
      throw std::runtime_error("bad checkpoint line '" + line + "'");
    }
  }
  if (!ended || !has_topic || !has_bytes || !has_records)
    throw std::runtime_error("incomplete checkpoint (topic, output-bytes, output-records and end are required)");
  return c;
}

std::string output_line(int32_t partition, int64_t offset, std::string_view value) {
  std::string line = std::to_string(partition) + ' ' + std::to_string(offset) + ' ';
  for (char ch : value) {
    if (ch == '\\')
      line += "\\\\";
    else if (ch == '\n')
      line += "\\n";
    else
      line += ch;
  }
  line += '\n';
  return line;
}

state_store::state_store(std::string dir, const std::string& topic) : dir_(std::move(dir)) {
  if (::mkdir(dir_.c_str(), 0755) != 0 && errno != EEXIST)
    fail_sys("cannot create", dir_);
  auto cp_path = dir_ + "/checkpoint";
  std::ifstream cp_file{cp_path};
  if (cp_file) {
    std::string text{std::istreambuf_iterator<char>(cp_file), std::istreambuf_iterator<char>()};
    try {
      committed_ = parse_checkpoint(text);
    } catch (const std::exception& e) {
      throw std::runtime_error(cp_path + ": " + e.what());
    }
    if (committed_.topic != topic)
      throw std::runtime_error(cp_path + " belongs to topic '" + committed_.topic + "', not '" + topic
                               + "' (use one state dir per topic)");
  } else {
    committed_.topic = topic; // nothing committed yet
  }
  auto out_path = dir_ + "/output";
  output_fd_ = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (output_fd_ < 0)
    fail_sys("cannot open", out_path);
  struct stat st {};
  if (::fstat(output_fd_, &st) != 0)
    fail_sys("cannot stat", out_path);
  auto size = static_cast<uint64_t>(st.st_size);
  if (size < committed_.output_bytes) {
    ::close(output_fd_);
    throw std::runtime_error(out_path + " holds " + std::to_string(size) + " bytes but the checkpoint says "
                             + std::to_string(committed_.output_bytes) + ": the state dir is damaged");
  }
  // The tail after the committed length was written by a run that died before its
  // checkpoint: its records come again from the committed offsets.
  dropped_ = size - committed_.output_bytes;
  if (dropped_ > 0 && ::ftruncate(output_fd_, static_cast<off_t>(committed_.output_bytes)) != 0)
    fail_sys("cannot truncate", out_path);
  if (::lseek(output_fd_, static_cast<off_t>(committed_.output_bytes), SEEK_SET) < 0)
    fail_sys("cannot seek in", out_path);
}

state_store::~state_store() {
  if (output_fd_ >= 0)
    ::close(output_fd_);
}

void state_store::append(std::string_view lines, uint64_t records) {
  write_all(output_fd_, lines, dir_ + "/output");
  pending_bytes_ += lines.size();
  pending_records_ += records;
}

void state_store::commit(const std::map<int32_t, int64_t>& next_offsets) {
  // Output first: the checkpoint must never name bytes that could still be lost.
  sync_fd(output_fd_, dir_ + "/output");
  checkpoint next = committed_;
  next.output_bytes += pending_bytes_;
  next.output_records += pending_records_;
  next.next_offsets = next_offsets;
  // The rename is the commit point (temporary file, fsync, rename, fsync of the folder).
  if (auto st = storage::write_file_atomically(dir_ + "/checkpoint", to_text(next)); !st)
    throw std::runtime_error("cannot write " + dir_ + "/checkpoint: " + st.error().message());
  committed_ = std::move(next);
  pending_bytes_ = pending_records_ = 0;
}

} // namespace cafka::examples
