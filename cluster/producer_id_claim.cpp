#include "cluster/producer_id_claim.hpp"

#include <optional>
#include <string>
#include <utility>

#include "cluster/errc.hpp"

namespace cafka::cluster {
namespace {

// One claim in progress. Completions of one session run one at a time and each step issues the
// next call only from the previous completion, so no lock is needed.
struct claim {
  coordinator& c;
  int32_t broker;
  int64_t block_size;
  int attempts_left;
  producer_id_block_callback done;
};

void read_and_write(const std::shared_ptr<claim>& a);

// A lost race: read again unless the attempts are used up.
void again(const std::shared_ptr<claim>& a, std::error_code conflict) {
  if (--a->attempts_left > 0)
    read_and_write(a);
  else
    a->done(conflict);
}

void create_first(const std::shared_ptr<claim>& a) {
  auto first = next_block(std::nullopt, a->broker, a->block_size);
  if (!first) {
    a->done(first.error());
    return;
  }
  a->c.create(producer_id_block_path, encode_producer_id_block(*first), create_mode::persistent,
              [a, block = *first](result<std::string> r) {
                if (r)
                  a->done(block);
                else if (r.error() == errc::node_exists)
                  again(a, r.error()); // another broker created it: take the block after its
                else
                  a->done(r.error());
              });
}

// Writes the block after `previous` (nullopt: the node is empty) if the node is still at `version`.
void set_next(const std::shared_ptr<claim>& a, const std::optional<producer_id_block>& previous,
              int32_t version) {
  auto block = next_block(previous, a->broker, a->block_size);
  if (!block) {
    a->done(block.error());
    return;
  }
  a->c.set(producer_id_block_path, encode_producer_id_block(*block), version,
           [a, block = *block](result<node_stat> r) {
             if (r)
               a->done(block);
             else if (r.error() == errc::bad_version || r.error() == errc::no_node)
               again(a, r.error()); // another claim won (or the node went): read again
             else
               a->done(r.error());
           });
}

void read_and_write(const std::shared_ptr<claim>& a) {
  a->c.get(producer_id_block_path, {}, [a](result<node_data> r) {
    if (!r) {
      if (r.error() == errc::no_node)
        create_first(a);
      else
        a->done(r.error());
      return;
    }
    if (r->data.empty()) {
      set_next(a, std::nullopt, r->stat.version);
      return;
    }
    auto previous = decode_producer_id_block(r->data);
    if (!previous)
      a->done(previous.error()); // not overwritten: someone else's data, or a bug to look at
    else
      set_next(a, *previous, r->stat.version);
  });
}

} // namespace

void claim_producer_id_block(coordinator& c, int32_t broker_id, producer_id_block_callback done,
                             int64_t block_size, int max_attempts) {
  auto a = std::make_shared<claim>(claim{c, broker_id, block_size, max_attempts, std::move(done)});
  if (!a->done)
    a->done = [](result<producer_id_block>) {};
  if (max_attempts < 1) {
    a->done(std::make_error_code(std::errc::invalid_argument));
    return;
  }
  read_and_write(a);
}

std::function<void(producer_id_block_callback)> producer_id_claimer(std::weak_ptr<coordinator> c,
                                                                    int32_t broker_id,
                                                                    int64_t block_size) {
  return [c = std::move(c), broker_id, block_size](producer_id_block_callback done) {
    if (auto locked = c.lock())
      claim_producer_id_block(*locked, broker_id, std::move(done), block_size);
    else if (done)
      done(errc::closed);
  };
}

} // namespace cafka::cluster
