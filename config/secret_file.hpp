#pragma once
// Reads a secret kept in a file of its own (caf.secret.file, CAFKA_CAF_SECRET_FILE), so
// that server.properties and command lines never hold it.

#include <string>
#include <string_view>

#include "config/error.hpp"

namespace cafka::config {

/// The file's contents without trailing whitespace (a final newline is not part of the
/// secret). Errors (errc::unreadable_file), naming `key` and `path`: the file cannot be
/// read, or holds nothing but whitespace.
outcome<std::string> read_secret_file(std::string_view key, const std::string& path);

} // namespace cafka::config
