#pragma once
// Errors of the configuration layer: a code for programs and a message for people.
//
// outcome<T> holds a T or a config_error. It mirrors cafka::result<T> (protocol/result.hpp),
// which carries only a std::error_code; configuration errors must also say which key, which
// value and what is allowed, so they carry a message. make_error_code() converts the code
// when a caller needs a plain std::error_code.

#include <string>
#include <system_error>
#include <utility>
#include <variant>

namespace cafka::config {

enum class errc {
  unreadable_file = 1, ///< the properties file cannot be opened or read
  malformed_line,      ///< a line of the properties file is not key=value / key: value / key value
  malformed_override,  ///< a command-line argument is not --override key=value
  invalid_value,       ///< a known key has a value outside its type or range
};

const std::error_category& config_category() noexcept;

inline std::error_code make_error_code(errc e) noexcept {
  return {static_cast<int>(e), config_category()};
}

/// A fatal configuration problem. `message` is complete and meant to be shown as is, e.g.
/// "log.segment.bytes: invalid value 'abc': expected an integer >= 14 (line 7)".
struct config_error {
  errc code;
  std::string message;
};

/// A value of type T or a config_error.
template <class T>
class outcome {
public:
  outcome(T value) : v_(std::move(value)) {}
  outcome(config_error e) : v_(std::move(e)) {}

  explicit operator bool() const noexcept { return v_.index() == 0; }
  bool has_value() const noexcept { return v_.index() == 0; }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  T&& operator*() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  /// Precondition: !has_value().
  const config_error& error() const { return std::get<1>(v_); }

private:
  std::variant<T, config_error> v_;
};

} // namespace cafka::config

template <>
struct std::is_error_code_enum<cafka::config::errc> : std::true_type {};
