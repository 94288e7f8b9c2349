#include "storage/clean_swap.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>

#include "storage/errc.hpp"
#include "storage/file.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {
namespace fs = std::filesystem;

namespace {

constexpr const char* manifest_name = "manifest";

constexpr segment_file segment_kinds[] = {segment_file::log, segment_file::index, segment_file::timeindex,
                                          segment_file::txnindex};

status renamed(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0)
    return std::error_code(errno, std::generic_category());
  return {};
}

bool exists(const std::string& path) {
  std::error_code ec;
  return fs::exists(path, ec);
}

// Step 2's repair: the old segments' files in the manifest's ranges (still in `dir`, since
// nothing moved in yet) are deleted.
status delete_replaced_segments(const std::string& dir, const std::vector<swap_range>& ranges) {
  std::vector<std::string> doomed;
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(dir, ec)) {
    auto name = entry.path().filename().string();
    for (auto kind : segment_kinds) {
      auto base = parse_segment_file_name(name, kind);
      if (!base)
        continue;
      for (auto& r : ranges)
        if (*base >= r.base && *base < r.end)
          doomed.push_back(entry.path().string());
    }
  }
  if (ec)
    return ec;
  return delete_files(doomed);
}

} // namespace

std::string clean_stage_dir(const std::string& dir, clean_stage stage) {
  switch (stage) {
    case clean_stage::cleaned:
      return dir + "/cleaned";
    case clean_stage::swap:
      return dir + "/swap";
    case clean_stage::moving:
      break;
  }
  return dir + "/moving";
}

status write_clean_manifest(const std::string& stage_dir, const std::vector<swap_range>& ranges) {
  std::string text;
  for (auto& r : ranges)
    text += std::to_string(r.base) + ' ' + std::to_string(r.end) + '\n';
  return write_file_atomically(stage_dir + '/' + manifest_name, text);
}

result<std::vector<swap_range>> read_clean_manifest(const std::string& stage_dir) {
  auto text = read_whole_file(stage_dir + '/' + manifest_name);
  if (!text)
    return text.error();
  std::vector<swap_range> ranges;
  std::istringstream in(*text);
  swap_range r;
  while (in >> r.base >> r.end) {
    if (r.base < 0 || r.end <= r.base)
      return errc::corrupt_checkpoint;
    ranges.push_back(r);
  }
  if (!in.eof() || ranges.empty())
    return errc::corrupt_checkpoint;
  return ranges;
}

status start_swap(const std::string& dir) {
  return renamed(clean_stage_dir(dir, clean_stage::cleaned), clean_stage_dir(dir, clean_stage::swap));
}

status old_segments_gone(const std::string& dir) {
  return renamed(clean_stage_dir(dir, clean_stage::swap), clean_stage_dir(dir, clean_stage::moving));
}

status move_cleaned_in(const std::string& dir) {
  auto moving = clean_stage_dir(dir, clean_stage::moving);
  std::error_code ec;
  for (auto& entry : fs::directory_iterator(moving, ec)) {
    auto name = entry.path().filename().string();
    if (name == manifest_name)
      continue;
    if (auto st = renamed(entry.path().string(), dir + '/' + name); !st)
      return st;
  }
  if (ec)
    return ec;
  fs::remove(moving + '/' + manifest_name, ec);
  if (!ec)
    fs::remove(moving, ec);
  return ec ? status{ec} : status{};
}

status repair_interrupted_clean(const std::string& dir) {
  auto cleaned = clean_stage_dir(dir, clean_stage::cleaned);
  if (exists(cleaned)) { // step 1 unfinished or given up: the log is as before
    std::error_code ec;
    fs::remove_all(cleaned, ec);
    if (ec)
      return ec;
  }
  auto swap = clean_stage_dir(dir, clean_stage::swap);
  if (exists(swap)) {
    auto ranges = read_clean_manifest(swap);
    if (!ranges) // step 1 fsynced it before step 2: damage, not an interrupted clean
      return ranges.error();
    if (auto st = delete_replaced_segments(dir, *ranges); !st)
      return st;
    if (auto st = old_segments_gone(dir); !st)
      return st;
  }
  if (exists(clean_stage_dir(dir, clean_stage::moving)))
    return move_cleaned_in(dir);
  return {};
}

} // namespace cafka::storage
