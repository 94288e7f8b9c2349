#include "tests/integration/child_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace cafka::test {

namespace {

std::string temp_file(const std::string& content = "") {
  char tmpl[] = "/tmp/cafka-child-XXXXXX";
  int fd = ::mkstemp(tmpl);
  if (fd < 0)
    throw std::runtime_error("mkstemp failed");
  if (!content.empty() && ::write(fd, content.data(), content.size()) != static_cast<ssize_t>(content.size()))
    throw std::runtime_error("write failed");
  ::close(fd);
  return tmpl;
}

std::string slurp(const std::string& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

child::child(const std::vector<std::string>& args, const std::string& input)
  : in_(temp_file(input)), out_(temp_file()), err_(temp_file()) {
  pid_ = ::fork();
  if (pid_ == 0) {
    int fds[] = {::open(in_.c_str(), O_RDONLY), ::open(out_.c_str(), O_WRONLY), ::open(err_.c_str(), O_WRONLY)};
    for (int i = 0; i < 3; ++i)
      ::dup2(fds[i], i);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
}

child::~child() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  for (auto& f : {in_, out_, err_})
    ::unlink(f.c_str());
}

bool child::running() {
  if (pid_ > 0 && ::waitpid(pid_, &status_, WNOHANG) == pid_)
    pid_ = -1;
  return pid_ > 0;
}

run_result child::wait(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (running() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  run_result res;
  if (running()) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  } else {
    res.code = WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
  }
  res.out = slurp(out_);
  res.err = slurp(err_);
  return res;
}

run_result run(const std::vector<std::string>& args, const std::string& input,
               std::chrono::milliseconds limit) {
  return child{args, input}.wait(limit);
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in{text};
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

} // namespace cafka::test
