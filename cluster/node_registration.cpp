#include "cluster/node_registration.hpp"

#include <memory>

#include "cluster/controller_election.hpp"
#include "cluster/ensure_path.hpp"
#include "cluster/errc.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"

namespace cafka::cluster {

namespace {

using registration_callback = std::function<void(result<registration_result>)>;

// Ensures every path in `paths` (in order), then calls `done`.
void ensure_all(coordinator& c, std::shared_ptr<std::vector<std::string>> paths, size_t i,
                status_callback done) {
  if (i == paths->size()) {
    done({});
    return;
  }
  ensure_path(c, (*paths)[i], [&c, paths, i, done](status st) {
    if (!st)
      done(st);
    else
      ensure_all(c, paths, i + 1, done);
  });
}

// One election round (controller_election.hpp, steps 1 and 2).
void elect(coordinator& c, int32_t my_id, registration_callback done) {
  c.get(controller_path(), {}, [&c, my_id, done](result<node_data> current) {
    std::optional<controller_node> holder;
    if (current) {
      auto info = decode_controller_info(current->data);
      if (!info) {
        done(info.error());
        return;
      }
      holder = controller_node{*info, current->stat.ephemeral_owner};
    } else if (current.error() != errc::no_node) {
      done(current.error());
      return;
    }
    c.get(controller_epoch_path(), {}, [&c, my_id, holder, done](result<node_data> epoch_node) {
      std::optional<int32_t> last_epoch;
      int32_t epoch_version = -1;
      if (epoch_node) {
        auto e = decode_controller_epoch(epoch_node->data);
        if (!e) {
          done(e.error());
          return;
        }
        last_epoch = *e;
        epoch_version = epoch_node->stat.version;
      } else if (epoch_node.error() != errc::no_node) {
        done(epoch_node.error());
        return;
      }
      auto decision = decide_election(holder, last_epoch, my_id, c.session());
      if (decision.role != election_role::campaign) {
        done(registration_result{decision.controller_id, decision.epoch});
        return;
      }
      auto epoch = decision.epoch;
      c.create(controller_path(), encode(controller_info{my_id, epoch}), create_mode::ephemeral,
               [&c, my_id, epoch, epoch_version, done](result<std::string> created) {
                 if (!created) {
                   if (created.error() == errc::node_exists)
                     elect(c, my_id, done); // someone else won: follow them
                   else
                     done(created.error());
                   return;
                 }
                 auto record = [done, my_id, epoch](status st) {
                   if (!st)
                     done(st.error());
                   else
                     done(registration_result{my_id, epoch});
                 };
                 auto data = encode_controller_epoch(epoch);
                 if (epoch_version < 0)
                   c.create(controller_epoch_path(), data, create_mode::persistent,
                            [record](result<std::string> r) { record(r ? status{} : status{r.error()}); });
                 else
                   c.set(controller_epoch_path(), data, epoch_version,
                         [record](result<node_stat> r) { record(r ? status{} : status{r.error()}); });
               });
    });
  });
}

} // namespace

void register_broker(coordinator& c, const broker_registration& me, registration_callback done) {
  auto roots = std::make_shared<std::vector<std::string>>(persistent_roots());
  ensure_all(c, roots, 0, [&c, me, done](status st) {
    if (!st) {
      done(st.error());
      return;
    }
    c.create(broker_path(me.id), encode(me), create_mode::ephemeral,
             [&c, id = me.id, done](result<std::string> created) {
               if (!created) {
                 done(created.error()); // node_exists: another live broker has this id
                 return;
               }
               elect(c, id, done);
             });
  });
}

void elect_controller(coordinator& c, int32_t my_id, registration_callback done) {
  elect(c, my_id, std::move(done));
}

void publish_topic(coordinator& c, const std::string& topic, const topic_assignment& assignment,
                   const partition_state& state, const topic_config& config, status_callback done) {
  // Calls of one session complete in order, so only the last one needs to report.
  auto first_error = std::make_shared<status>();
  auto note = [first_error](status st) {
    if (!st && *first_error)
      *first_error = st;
  };
  c.create(topic_path(topic), encode(assignment), create_mode::persistent,
           [note](result<std::string> r) { note(r ? status{} : status{r.error()}); });
  c.create(partitions_path(topic), "", create_mode::persistent,
           [note](result<std::string> r) { note(r ? status{} : status{r.error()}); });
  for (int32_t p = 0; p < static_cast<int32_t>(assignment.partitions.size()); ++p) {
    c.create(partition_path(topic, p), "", create_mode::persistent,
             [note](result<std::string> r) { note(r ? status{} : status{r.error()}); });
    c.create(partition_state_path(topic, p), encode(state), create_mode::persistent,
             [note](result<std::string> r) { note(r ? status{} : status{r.error()}); });
  }
  c.create(topic_config_path(topic), encode(config), create_mode::persistent,
           [note, first_error, done](result<std::string> r) {
             note(r ? status{} : status{r.error()});
             done(*first_error);
           });
}

void unpublish_topic(coordinator& c, const std::string& topic, int32_t partitions, status_callback done) {
  auto first_error = std::make_shared<status>();
  auto note = [first_error](status st) {
    if (!st && *first_error && st.error() != errc::no_node)
      *first_error = st;
  };
  for (int32_t p = 0; p < partitions; ++p) {
    c.remove(partition_state_path(topic, p), any_version, note);
    c.remove(partition_path(topic, p), any_version, note);
  }
  c.remove(partitions_path(topic), any_version, note);
  c.remove(topic_path(topic), any_version, note);
  c.remove(topic_config_path(topic), any_version, [note, first_error, done](status st) {
    note(st);
    done(*first_error);
  });
}

} // namespace cafka::cluster
