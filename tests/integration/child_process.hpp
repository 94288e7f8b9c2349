#pragma once
// Tool and example binaries run as child processes by the integration tests: stdin from
// a file (or /dev/null), stdout and stderr into files (no pipe can fill up), every wait
// bounded, killed by the destructor if still running.

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace cafka::test {

struct run_result {
  int code = -1; ///< exit code; -1 when it had to be killed
  std::string out;
  std::string err;
};

class child {
public:
  /// Starts args[0] with `input` on stdin.
  explicit child(const std::vector<std::string>& args, const std::string& input = "");
  ~child();
  child(const child&) = delete;
  child& operator=(const child&) = delete;

  bool running();
  /// The child's PID while it has not been reaped (-1 after), e.g. to kill -9 it.
  pid_t pid() const noexcept { return pid_; }
  /// Waits at most `limit`, then kills it (code -1).
  run_result wait(std::chrono::milliseconds limit);

private:
  std::string in_, out_, err_;
  pid_t pid_ = -1;
  int status_ = 0;
};

/// Runs a child to its end (at most `limit`).
run_result run(const std::vector<std::string>& args, const std::string& input = "",
               std::chrono::milliseconds limit = std::chrono::seconds(60));

/// The lines of `text`.
std::vector<std::string> lines(const std::string& text);

} // namespace cafka::test
