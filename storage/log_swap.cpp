#include "storage/log_swap.hpp"

#include <filesystem>

#include "storage/file.hpp"
#include "storage/segment_name.hpp"

namespace cafka::storage {

namespace fs = std::filesystem;

namespace {

std::string parent_of(const std::string& dir) {
  auto parent = fs::path(dir).parent_path().string();
  return parent.empty() ? std::string{"."} : parent;
}

bool exists(const std::string& path, std::error_code& ec) {
  return fs::exists(path, ec);
}

status remove_tree(const std::string& path) {
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec)
    return ec;
  return {};
}

status rename_path(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::rename(from, to, ec);
  if (ec)
    return ec;
  return {};
}

} // namespace

std::string cleaned_path(const std::string& dir) {
  return dir + ".cleaned";
}

std::string deleted_path(const std::string& dir) {
  return dir + ".deleted";
}

result<std::unique_ptr<partition_log>> create_log_at(const std::string& dir, const log_config& cfg,
                                                     int64_t base_offset, int64_t now_ms) {
  if (auto st = remove_tree(dir); !st)
    return st.error();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return ec;
  // An empty segment file named by the base offset: the log opens with its end there.
  {
    auto f = file::open(segment_file_path(dir, base_offset, segment_file::log), file::mode::read_write_create);
    if (!f)
      return f.error();
  }
  return partition_log::open(dir, cfg, 0, false, now_ms);
}

status swap_in(const std::string& dir) {
  auto old_copy = deleted_path(dir);
  if (auto st = remove_tree(old_copy); !st) // a failed finish_swap of an earlier rewrite
    return st;
  if (auto st = rename_path(dir, old_copy); !st)
    return st;
  if (auto st = rename_path(cleaned_path(dir), dir); !st) {
    rename_path(old_copy, dir); // the old log stays in place; the copy is left for repair
    return st;
  }
  return {};
}

status finish_swap(const std::string& dir) {
  auto parent = parent_of(dir);
  if (auto st = sync_directory(parent); !st)
    return st;
  if (auto st = remove_tree(deleted_path(dir)); !st)
    return st;
  return sync_directory(parent);
}

result<swap_repair> repair_interrupted_swap(const std::string& dir) {
  std::error_code ec;
  auto cleaned = cleaned_path(dir);
  auto deleted = deleted_path(dir);
  bool has_dir = exists(dir, ec);
  bool has_cleaned = !ec && exists(cleaned, ec);
  bool has_deleted = !ec && exists(deleted, ec);
  if (ec)
    return ec;
  if (!has_cleaned && !has_deleted)
    return swap_repair::none;
  swap_repair outcome = swap_repair::finished;
  if (has_dir) {
    // The complete log is in place; a leftover copy means the swap never began.
    outcome = has_cleaned ? swap_repair::rolled_back : swap_repair::finished;
    if (auto st = remove_tree(cleaned); !st)
      return st.error();
    if (auto st = remove_tree(deleted); !st)
      return st.error();
  } else if (has_cleaned) {
    if (auto st = rename_path(cleaned, dir); !st)
      return st.error();
    if (auto st = remove_tree(deleted); !st)
      return st.error();
  } else {
    outcome = swap_repair::rolled_back;
    if (auto st = rename_path(deleted, dir); !st)
      return st.error();
  }
  if (auto st = sync_directory(parent_of(dir)); !st)
    return st.error();
  return outcome;
}

} // namespace cafka::storage
