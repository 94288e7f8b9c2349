#pragma once
// Command-line parsing shared by cafka's tools (cafka-topics, cafka-console-producer,
// cafka-console-consumer), in the style of Kafka's tools: long options only,
// "--name value" or "--name=value", flags without values, repeatable options such as
// "--config k=v" or "--property k=v". No CAF in this header.
//
// Conventions of every tool (run() applies them):
//   exit 0  done;  exit 1  the broker or the connection failed;  exit 2  a bad argument.
//   Errors are one line on stderr: "<tool>: <what went wrong>".

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cafka::tools {

/// The Kafka listener the tools reach unless --bootstrap-server says otherwise.
inline constexpr const char* default_bootstrap = "127.0.0.1:9092";

/// A bad command line: the tool prints it and exits with 2.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct option {
  std::string name;       ///< without the leading dashes, e.g. "topic"
  std::string value_name; ///< e.g. "TOPIC"; empty for a flag that takes no value
  std::string help;
  bool repeatable = false;
};

/// The options found on a command line.
class args {
public:
  bool has(std::string_view name) const;
  /// The value of a single-valued option, or `fallback` if it is absent.
  std::string value_or(std::string_view name, std::string fallback) const;
  /// All values of a (repeatable) option, in command-line order.
  std::vector<std::string> values(std::string_view name) const;
  /// An integer option in [min, max]; `fallback` if absent.
  int64_t integer(std::string_view name, int64_t fallback, int64_t min, int64_t max) const;

  std::map<std::string, std::vector<std::string>, std::less<>> found;
};

/// Parses argv[1..argc). Throws usage_error: "unknown option --foo", "option --topic
/// needs a value", "option --list takes no value", "option --topic given twice",
/// "unexpected argument 'x'".
args parse(int argc, char** argv, const std::vector<option>& options);

/// The --help text: synopsis, then one line per option.
std::string usage(std::string_view tool, std::string_view synopsis, const std::vector<option>& options);

/// The non-empty items of a comma-separated value ("a,,b" -> {"a", "b"}): --add-config and
/// --delete-config lists.
std::vector<std::string> comma_list(std::string_view text);

/// "k=v" split at the first '='; throws usage_error naming `option` for a missing '='
/// or an empty key.
std::pair<std::string, std::string> split_key_value(std::string_view text, std::string_view option);

/// All "k=v" values of a repeatable option; a later key wins.
std::map<std::string, std::string> key_values(const args& a, std::string_view option);

/// A decimal integer in [min, max]; throws usage_error naming `what`.
int64_t parse_integer(std::string_view text, std::string_view what, int64_t min, int64_t max);

/// "true"/"false" (case-insensitive); throws usage_error naming `what`.
bool parse_bool(std::string_view text, std::string_view what);

/// The whole of a file a flag names (a JSON file); throws usage_error "cannot read PATH".
std::string read_file(const std::string& path);

/// Throws usage_error unless `text` is a valid --bootstrap-server list (host:port,...).
void check_bootstrap(std::string_view text);

/// A tool's whole main: adds --help, parses, runs `body`, and maps exceptions to the
/// conventions above (usage_error: exit 2; any other exception: exit 1). `body` returns
/// the exit code. Throw usage_error before the actor system exists; later failures go
/// through fail().
int run(const char* tool, std::string_view synopsis, int argc, char** argv, std::vector<option> options,
        const std::function<int(const args&)>& body);

/// Flushes stdout and stderr and ends the process at once with `code`, without waiting
/// for the actor system to shut down (a middleman stuck in a blocking TCP connect to an
/// unreachable host would otherwise hold the exit for minutes). For error paths.
[[noreturn]] void exit_now(int code);

/// Prints "<tool>: <what>" on stderr and exit_now(1).
[[noreturn]] void fail(const char* tool, const std::string& what);

} // namespace cafka::tools
