#pragma once
// ZooKeeper's path rules, shared by the embedded store, the ensure-path helper and the chroot
// split. A valid path is what a real ZooKeeper server accepts (PathUtils.validatePath):
// - "/" or "/" followed by one or more non-empty segments separated by single '/', no
//   trailing '/';
// - no segment "." or "..";
// - well-formed UTF-8 without the code points ZooKeeper refuses: U+0000-U+001F, U+007F-U+009F,
//   U+D800-U+F8FF, U+FFF0-U+FFFF and everything above U+FFFF (Java sees surrogates there).
// Pure functions, no allocation except where a string is returned.

#include <string>
#include <string_view>
#include <vector>

namespace cafka::cluster {

bool is_valid_path(std::string_view path);

/// The path a create() would validate: for sequential modes ZooKeeper appends the 10-digit
/// counter first, so "/brokers/seq-" and even "/queue/" are valid sequential prefixes.
bool is_valid_create_path(std::string_view path, bool sequential);

/// Everything before the last '/': "/a/b" -> "/a", "/a" -> "/", "/" -> "" (the root has no
/// parent), "/a/" -> "/a" (a sequential prefix). Expects a path that starts with '/'.
std::string_view parent_path(std::string_view path);

/// Everything after the last '/': "/a/b" -> "b", "/" -> "".
std::string_view node_name(std::string_view path);

/// "/a" + "b" -> "/a/b"; "/" + "b" -> "/b".
std::string join_path(std::string_view parent, std::string_view name);

/// The proper ancestors of a valid path below the root, top-down: "/a/b/c" -> {"/a", "/a/b"}.
std::vector<std::string> ancestors(std::string_view path);

} // namespace cafka::cluster
