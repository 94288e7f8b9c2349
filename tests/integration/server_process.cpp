#include "tests/integration/server_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <stdexcept>

namespace cafka::test {

namespace {

constexpr int startup_timeout_ms = 30'000;
constexpr int stop_timeout_ms = 30'000;

int wait_for_exit(pid_t pid, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = ::waitpid(pid, &status, WNOHANG);
    if (r == pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    ::usleep(10'000);
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}

// The ports of a complete "... listening: kafka HOST:PORT, caf HOST:PORT, metrics HOST:PORT
// (log.dirs ...)" line in `output`; caf 0 while there is no such line yet, kafka (metrics) 0 if
// it names none.
struct listening_ports {
  uint16_t caf = 0;
  uint16_t kafka = 0;
  uint16_t metrics = 0;
};

listening_ports parse_listening_line(const std::string& output) {
  static const std::regex line{R"(listening: ([^\n]*)\n)"};
  static const std::regex caf{R"((?:^|[ ,])caf ([^ ,]+):(\d+))"};
  static const std::regex kafka{R"((?:^|[ ,])kafka ([^ ,]+):(\d+))"};
  static const std::regex metrics{R"((?:^|[ ,])metrics ([^ ,]+):(\d+))"};
  listening_ports ports;
  std::smatch l;
  if (!std::regex_search(output, l, line))
    return ports; // only a whole line counts: the server may be half-way through writing it
  auto listeners = l[1].str();
  std::smatch m;
  if (std::regex_search(listeners, m, caf))
    ports.caf = static_cast<uint16_t>(std::stoi(m[2]));
  if (std::regex_search(listeners, m, kafka))
    ports.kafka = static_cast<uint16_t>(std::stoi(m[2]));
  if (std::regex_search(listeners, m, metrics))
    ports.metrics = static_cast<uint16_t>(std::stoi(m[2]));
  return ports;
}

} // namespace

server_process::server_process(std::string log_dir, std::vector<std::string> overrides)
  : log_dir_(std::move(log_dir)) {
  // Output goes to a file, not a pipe: a pipe nobody drains would block the server.
  out_path_ = log_dir_ + ".out";
  int out = ::open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (out < 0)
    throw std::runtime_error("cannot open " + out_path_);
  std::vector<std::string> args{CAFKA_BINARY_DIR "/bin/cafka-server", CAFKA_SOURCE_DIR "/config/server.properties",
                                "--override", "log.dirs=" + log_dir_, "--override", "caf.port=0",
                                "--override", "listeners=PLAINTEXT://127.0.0.1:0",
                                "--override", "metrics.listener=127.0.0.1:0"};
  for (auto& o : overrides) {
    args.push_back("--override");
    args.push_back(o);
  }
  pid_ = ::fork();
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL); // a test process that dies takes its server along
    ::dup2(out, 1);
    ::dup2(out, 2);
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(out);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(startup_timeout_ms);
  listening_ports ports;
  while ((ports = parse_listening_line(output_)).caf == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill_hard();
      throw std::runtime_error("cafka-server did not start: " + output_);
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      drain();
      throw std::runtime_error("cafka-server exited at start: " + output_);
    }
    ::usleep(20'000);
    drain();
  }
  caf_port_ = ports.caf;
  kafka_port_ = ports.kafka;
  metrics_port_ = ports.metrics;
}

server_process::~server_process() {
  if (pid_ > 0)
    kill_hard();
  ::unlink(out_path_.c_str());
}

void server_process::drain() {
  std::ifstream in{out_path_};
  output_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int server_process::stop() {
  if (pid_ <= 0)
    return -1;
  ::kill(pid_, SIGTERM);
  auto status = wait_for_exit(pid_, stop_timeout_ms);
  pid_ = -1;
  drain();
  return status;
}

void server_process::kill_hard() {
  if (pid_ <= 0)
    return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  drain();
}

std::string server_process::output() {
  drain();
  return output_;
}

scratch_dir::scratch_dir() {
  char tmpl[] = "/tmp/cafka-it-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr)
    throw std::runtime_error("mkdtemp failed");
  path = tmpl;
}

scratch_dir::~scratch_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

} // namespace cafka::test
