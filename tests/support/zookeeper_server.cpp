#include "tests/support/zookeeper_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zookeeper/zookeeper.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

namespace cafka::test {

namespace {

constexpr auto start_limit = std::chrono::seconds(90); // a JVM on a busy 2-core VM
constexpr auto stop_limit = std::chrono::seconds(30);
constexpr const char* zk_server_sh = "/usr/share/zookeeper/bin/zkServer.sh";

uint16_t free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
      || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) {
    if (fd >= 0)
      ::close(fd);
    throw std::runtime_error("zookeeper_server: no free port");
  }
  ::close(fd);
  return ntohs(addr.sin_port);
}

std::string slurp(const std::string& path) {
  std::ifstream in{path};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// waitpid with a bounded wait; true if the process was reaped.
bool reap(pid_t pid, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (::waitpid(pid, nullptr, WNOHANG) == pid)
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

void ignore_events(zhandle_t*, int, int, const char*, void*) {
}

} // namespace

zookeeper_server::zookeeper_server() {
  char tmpl[] = "/tmp/cafka-zk-XXXXXX";
  if (!::mkdtemp(tmpl))
    throw std::runtime_error("zookeeper_server: mkdtemp failed");
  dir_ = tmpl;
  port_ = free_port();
  std::ofstream cfg{dir_ + "/zoo.cfg"};
  cfg << "tickTime=500\n"
      << "dataDir=" << dir_ << "/data\n"
      << "clientPort=" << port_ << "\n"
      << "clientPortAddress=127.0.0.1\n"
      << "admin.enableServer=false\n"
      << "4lw.commands.whitelist=ruok,stat,mntr\n"
      << "minSessionTimeout=1000\n"
      << "maxSessionTimeout=60000\n";
  cfg.close();
  try {
    start();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
    throw;
  }
}

zookeeper_server::~zookeeper_server() {
  stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

void zookeeper_server::start() {
  if (running())
    return;
  auto log_path = dir_ + "/server.log";
  auto cfg_path = dir_ + "/zoo.cfg";
  pid_ = ::fork();
  if (pid_ < 0)
    throw std::runtime_error("zookeeper_server: fork failed");
  if (pid_ == 0) {
    int in = ::open("/dev/null", O_RDONLY);
    int out = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::setenv("ZOOCFGDIR", dir_.c_str(), 1);
    ::setenv("ZOO_LOG_DIR", dir_.c_str(), 1);
    // A small heap and the quick JIT tier: the tests need little and start it often.
    ::setenv("JVMFLAGS", "-Xmx128m -XX:+UseSerialGC -XX:TieredStopAtLevel=1", 1);
    ::execl(zk_server_sh, zk_server_sh, "start-foreground", cfg_path.c_str(),
            static_cast<char*>(nullptr));
    ::_exit(127);
  }
  auto deadline = std::chrono::steady_clock::now() + start_limit;
  while (!answers()) {
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("zookeeper_server: exited during start:\n" + log());
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      stop();
      throw std::runtime_error("zookeeper_server: no answer on port " + std::to_string(port_)
                               + ":\n" + log());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void zookeeper_server::stop() {
  if (pid_ <= 0)
    return;
  ::kill(pid_, SIGTERM);
  if (!reap(pid_, stop_limit)) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

std::string zookeeper_server::log() const {
  auto text = slurp(dir_ + "/server.log");
  constexpr std::size_t tail = 4000;
  return text.size() > tail ? text.substr(text.size() - tail) : text;
}

bool zookeeper_server::answers() const {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0)
    return false;
  timeval tv{1, 0}; // bounded reads and writes
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = htons(port_);
  std::string reply;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
      && ::write(fd, "ruok", 4) == 4) {
    char buf[16];
    for (ssize_t n; reply.size() < 4 && (n = ::read(fd, buf, sizeof buf)) > 0;)
      reply.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return reply == "imok";
}

bool force_session_expiry(const std::string& hosts, int64_t session_id,
                          const std::string& password, std::chrono::milliseconds limit) {
  clientid_t id{};
  id.client_id = session_id;
  std::memcpy(id.passwd, password.data(), std::min(password.size(), sizeof id.passwd));
  zhandle_t* zh = zookeeper_init(hosts.c_str(), ignore_events, 10000, &id, nullptr, 0);
  if (!zh)
    return false;
  auto deadline = std::chrono::steady_clock::now() + limit;
  bool connected = false;
  while (!(connected = zoo_state(zh) == ZOO_CONNECTED_STATE)
         && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  zookeeper_close(zh); // closing the taken-over session ends it on the server
  return connected;
}

} // namespace cafka::test
