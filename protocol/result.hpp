#pragma once
// result<T>: a value or a std::error_code, shaped like caf::expected so that actor
// handlers can convert it in one line. Used by every fallible function below actors/.

#include <cassert>
#include <system_error>
#include <utility>
#include <variant>

namespace cafka {

template <class T>
class result {
public:
  result(T value) : v_(std::move(value)) {}
  result(std::error_code ec) : v_(ec) { assert(ec); }
  template <class E, class = std::enable_if_t<std::is_error_code_enum<E>::value>>
  result(E e) : result(std::error_code(make_error_code(e))) {}

  explicit operator bool() const noexcept { return v_.index() == 0; }
  bool has_value() const noexcept { return v_.index() == 0; }
  T& operator*() & { return std::get<0>(v_); }
  const T& operator*() const& { return std::get<0>(v_); }
  T&& operator*() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &std::get<0>(v_); }
  const T* operator->() const { return &std::get<0>(v_); }
  std::error_code error() const { return v_.index() == 1 ? std::get<1>(v_) : std::error_code{}; }

private:
  std::variant<T, std::error_code> v_;
};

/// The result of an operation that returns nothing: an empty error_code means success.
template <>
class result<void> {
public:
  result() = default;
  result(std::error_code ec) : ec_(ec) {}
  template <class E, class = std::enable_if_t<std::is_error_code_enum<E>::value>>
  result(E e) : ec_(make_error_code(e)) {}

  explicit operator bool() const noexcept { return !ec_; }
  std::error_code error() const { return ec_; }

private:
  std::error_code ec_;
};

using status = result<void>;

} // namespace cafka
