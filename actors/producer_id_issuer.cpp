#include "actors/producer_id_issuer.hpp"

#include <unordered_map>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/io_worker.hpp"
#include "cluster/blocking_calls.hpp"
#include "cluster/producer_id_block.hpp"
#include "cluster/producer_id_claim.hpp"
#include "storage/file.hpp"

namespace cafka {

namespace {

using id_ready_atom = caf::atom_constant<caf::atom("pidready")>;

struct issuer_state {
  static inline const char* name = "cafka.producer-id-issuer";
  std::unique_ptr<cluster::producer_id_pool> pool;
  /// The requests waiting for an id, by a key of this actor's.
  std::unordered_map<uint64_t, caf::typed_response_promise<int64_t>> waiting;
  uint64_t next_key = 0;
};

using self_ptr = caf::stateful_actor<issuer_state>*;

caf::behavior producer_id_issuer(self_ptr self, cluster::producer_id_pool::claim_function claim) {
  self->state.pool = std::make_unique<cluster::producer_id_pool>(std::move(claim));
  return {
    [self](next_producer_id_atom) -> caf::result<int64_t> {
      auto key = self->state.next_key++;
      auto promise = self->make_response_promise<int64_t>();
      self->state.waiting.emplace(key, promise);
      // The pool may answer from a coordinator's thread: the answer comes back as a message.
      caf::weak_actor_ptr weak{self->ctrl()};
      self->state.pool->next([weak, key](result<int64_t> id) {
        if (auto me = weak.lock())
          caf::anon_send(caf::actor_cast<caf::actor>(me), id_ready_atom::value, key,
                         id ? *id : int64_t{-1}, id ? caf::error{} : to_caf_error(id.error()));
      });
      return promise;
    },
    [self](id_ready_atom, uint64_t key, int64_t id, caf::error& err) {
      auto i = self->state.waiting.find(key);
      if (i == self->state.waiting.end())
        return;
      if (err)
        i->second.deliver(std::move(err));
      else
        i->second.deliver(id);
      self->state.waiting.erase(i);
    },
  };
}

} // namespace

caf::actor spawn_producer_id_issuer(caf::actor_system& sys, cluster::producer_id_pool::claim_function claim) {
  return sys.spawn(producer_id_issuer, std::move(claim));
}

std::string producer_id_block_file(const std::string& log_dir) { return log_dir + "/cafka-producer-id-block"; }

status seed_producer_id_block(cluster::coordinator& c, const std::string& file) {
  auto text = storage::read_file_if_present(file);
  if (!text)
    return text.error();
  if (!*text)
    return {};
  if (auto block = cluster::decode_producer_id_block(**text); !block)
    return block.error();
  return cluster::store_node(c, cluster::producer_id_block_path, **text);
}

cluster::producer_id_pool::claim_function persisted_claims(cluster::producer_id_pool::claim_function claim,
                                                           std::string file, caf::actor io_worker) {
  return [claim = std::move(claim), file = std::move(file),
          io_worker = std::move(io_worker)](cluster::producer_id_block_callback done) {
    claim([file, io_worker, done](result<cluster::producer_id_block> block) {
      if (!block) {
        done(block);
        return;
      }
      caf::anon_send(io_worker, io_job{[file, done, b = *block]() -> std::error_code {
                       auto written = storage::write_file_atomically(file, cluster::encode_producer_id_block(b));
                       if (written)
                         done(b);
                       else
                         done(written.error());
                       return written ? std::error_code{} : written.error();
                     }});
    });
  };
}

} // namespace cafka
