#include "tests/storage/fixtures.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "protocol/batch_header.hpp"
#include "protocol/crc32c.hpp"

namespace cafka::test {

temp_dir::temp_dir() {
  char tmpl[] = "/tmp/cafka-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  path_ = tmpl;
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

namespace {

void put_be(std::vector<char>& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i)
    out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void put_varint(std::vector<char>& out, int64_t v) {
  auto z = (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
  while (z >= 0x80) {
    out.push_back(static_cast<char>((z & 0x7f) | 0x80));
    z >>= 7;
  }
  out.push_back(static_cast<char>(z));
}

} // namespace

// Written independently of protocol's builder on purpose: storage tests should not
// depend on the code they would also need to debug.
std::vector<char> make_batch(int records, size_t value_size, int64_t timestamp, uint32_t tag) {
  std::vector<char> body;
  for (int i = 0; i < records; ++i) {
    std::vector<char> rec;
    rec.push_back(0);       // attributes
    put_varint(rec, 0);     // timestamp delta
    put_varint(rec, i);     // offset delta
    put_varint(rec, -1);    // null key
    put_varint(rec, static_cast<int64_t>(value_size));
    std::string value(value_size, static_cast<char>('a' + i % 26));
    if (value_size >= 4)
      std::memcpy(value.data(), &tag, 4);
    rec.insert(rec.end(), value.begin(), value.end());
    put_varint(rec, 0); // headers
    put_varint(body, static_cast<int64_t>(rec.size()));
    body.insert(body.end(), rec.begin(), rec.end());
  }
  std::vector<char> out;
  put_be(out, 0, 8);                                     // base offset
  put_be(out, 49 + body.size(), 4);                      // batch length
  put_be(out, 0, 4);                                     // leader epoch
  out.push_back(2);                                      // magic
  put_be(out, 0, 4);                                     // crc (below)
  put_be(out, 0, 2);                                     // attributes
  put_be(out, static_cast<uint64_t>(records - 1), 4);    // last offset delta
  put_be(out, static_cast<uint64_t>(timestamp), 8);      // base timestamp
  put_be(out, static_cast<uint64_t>(timestamp), 8);      // max timestamp
  put_be(out, static_cast<uint64_t>(-1), 8);             // producer id
  put_be(out, 0xffff, 2);                                // producer epoch
  put_be(out, 0xffffffff, 4);                            // base sequence
  put_be(out, static_cast<uint64_t>(records), 4);        // record count
  out.insert(out.end(), body.begin(), body.end());
  protocol::update_crc(out.data(), out.size());
  return out;
}

uint32_t batch_tag(const char* batch, size_t size) {
  // First record: length, attributes, ts delta (0), offset delta (0), key (-1), value len.
  size_t at = protocol::batch_layout::header_size;
  auto skip_varint = [&] {
    while (at < size && (static_cast<unsigned char>(batch[at]) & 0x80))
      ++at;
    ++at;
  };
  skip_varint(); // record length
  ++at;          // attributes
  skip_varint(); // timestamp delta
  skip_varint(); // offset delta
  skip_varint(); // key length
  skip_varint(); // value length
  uint32_t tag = 0;
  if (at + 4 <= size)
    std::memcpy(&tag, batch + at, 4);
  return tag;
}

storage::log_config small_log_config() {
  storage::log_config cfg;
  cfg.segment_bytes = 16 * 1024;
  cfg.index_interval_bytes = 256;
  cfg.retention_ms = -1;
  cfg.retention_bytes = -1;
  return cfg;
}

uint64_t file_size(const std::string& path) {
  return std::filesystem::file_size(path);
}

void cut_file(const std::string& path, uint64_t size) {
  std::filesystem::resize_file(path, size);
}

void flip_byte(const std::string& path, uint64_t position) {
  int fd = ::open(path.c_str(), O_RDWR);
  if (fd < 0)
    throw std::runtime_error("open failed: " + path);
  unsigned char b = 0;
  if (::pread(fd, &b, 1, static_cast<off_t>(position)) != 1)
    throw std::runtime_error("pread failed");
  b ^= 0x5a;
  if (::pwrite(fd, &b, 1, static_cast<off_t>(position)) != 1)
    throw std::runtime_error("pwrite failed");
  ::close(fd);
}

void write_bytes(const std::string& path, const std::string& bytes) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0 || ::write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size()))
    throw std::runtime_error("write failed: " + path);
  ::close(fd);
}

bool file_exists(const std::string& path) {
  return ::access(path.c_str(), F_OK) == 0;
}

} // namespace cafka::test
