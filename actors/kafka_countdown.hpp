#pragma once
// Joins the replies of one Kafka request that fans out to several actors: the response
// is encoded after the last reply. Starts with one "guard" count that the handler
// drops after issuing its requests, so zero requests and replies that arrive while
// still issuing are handled alike.

#include <cstddef>
#include <functional>
#include <memory>
#include <utility>

namespace cafka {

template <class Response>
class kafka_countdown {
public:
  using finish_fn = std::function<void(Response&)>;

  static std::shared_ptr<kafka_countdown> make(Response response, finish_fn finish) {
    return std::make_shared<kafka_countdown>(std::move(response), std::move(finish));
  }

  kafka_countdown(Response response, finish_fn finish)
    : response(std::move(response)), finish_(std::move(finish)) {}

  Response response;

  /// One more reply to wait for.
  void expect() noexcept { ++outstanding_; }

  /// One reply (or the guard) arrived.
  void arrive() {
    if (--outstanding_ == 0)
      finish_(response);
  }

private:
  size_t outstanding_ = 1;
  finish_fn finish_;
};

} // namespace cafka
