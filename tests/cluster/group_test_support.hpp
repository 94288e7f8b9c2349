#pragma once
// Test driver for cluster/group_state: numbers requests, keeps every answer, and checks that
// each join and sync is answered exactly once.

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "cluster/group_state.hpp"

// Readable failures: errors and states by their Kafka names.
namespace cafka::protocol {
inline std::ostream& operator<<(std::ostream& os, kafka_error e) {
  return os << to_string(e);
}
} // namespace cafka::protocol

namespace cafka::cluster {
inline std::ostream& operator<<(std::ostream& os, group_phase p) {
  return os << to_string(p);
}
} // namespace cafka::cluster

namespace group_test {

using namespace cafka::cluster;
using cafka::protocol::kafka_error;

inline group_bytes bytes_of(const std::string& s) {
  return group_bytes(s.begin(), s.end());
}

/// A consumer's protocols; each one's metadata names the protocol and `tag` (say, the
/// member), so tests can tell whose metadata the leader got.
inline std::vector<group_protocol> protocols(const std::vector<std::string>& names,
                                             const std::string& tag = "m") {
  std::vector<group_protocol> out;
  for (auto& n : names)
    out.push_back({n, bytes_of(n + ":" + tag)});
  return out;
}

/// A JoinGroup as a consumer sends it: session 10 s, rebalance timeout 30 s, "range".
inline join_request consumer_join(const std::string& member_id = "",
                                  const std::string& client_id = "client") {
  join_request r;
  r.member_id = member_id;
  r.client_id = client_id;
  r.client_host = "/127.0.0.1";
  r.session_timeout_ms = 10000;
  r.rebalance_timeout_ms = 30000;
  r.protocol_type = "consumer";
  r.protocols = protocols({"range"}, client_id);
  return r;
}

inline group_config test_config() {
  group_config c;
  c.initial_rebalance_delay_ms = 3000;
  return c;
}

class driver {
public:
  explicit driver(group_config config = test_config()) : g(config) {}

  group_state g;

  uint64_t join(const join_request& r, int64_t now) {
    auto id = next_id_++;
    outstanding_joins_.insert(id);
    collect(g.join(id, r, now));
    return id;
  }

  uint64_t sync(const std::string& member_id, int32_t generation, int64_t now,
                std::vector<member_assignment> assignments = {},
                std::optional<std::string> instance = std::nullopt) {
    auto id = next_id_++;
    outstanding_syncs_.insert(id);
    collect(g.sync(id, sync_request{member_id, std::move(instance), generation,
                                    std::move(assignments)},
                   now));
    return id;
  }

  kafka_error heartbeat(const std::string& member_id, int32_t generation, int64_t now,
                        std::optional<std::string> instance = std::nullopt) {
    return g.heartbeat(heartbeat_request{member_id, std::move(instance), generation}, now);
  }

  leave_answer leave(std::vector<member_identity> who, int64_t now) {
    auto out = g.leave(who, now);
    collect(std::move(out.replies));
    return out.answer;
  }

  kafka_error leave_one(const std::string& member_id, int64_t now) {
    auto a = leave({member_identity{member_id, std::nullopt}}, now);
    BOOST_REQUIRE_EQUAL(a.members.size(), 1u);
    return a.members.front().second;
  }

  void tick(int64_t now) { collect(g.tick(now)); }

  void mark_dead() { collect(g.mark_dead()); }

  bool answered(uint64_t id) const { return joins_.count(id) != 0 || syncs_.count(id) != 0; }

  const join_answer& join_answer_of(uint64_t id) const {
    auto it = joins_.find(id);
    BOOST_REQUIRE_MESSAGE(it != joins_.end(), "join " << id << " not answered");
    return it->second;
  }

  const sync_answer& sync_answer_of(uint64_t id) const {
    auto it = syncs_.find(id);
    BOOST_REQUIRE_MESSAGE(it != syncs_.end(), "sync " << id << " not answered");
    return it->second;
  }

  /// Joins and syncs still held.
  std::size_t held() const { return outstanding_joins_.size() + outstanding_syncs_.size(); }

  /// A new member joins and is handed its generated id (no MEMBER_ID_REQUIRED); returns the
  /// request id of its held join.
  uint64_t join_new(const std::string& client_id, int64_t now) {
    return join(consumer_join("", client_id), now);
  }

private:
  void collect(group_replies&& replies) {
    for (auto& [id, a] : replies.joins) {
      BOOST_TEST(outstanding_joins_.erase(id) == 1u, "join " << id << " answered twice");
      joins_[id] = a;
    }
    for (auto& [id, a] : replies.syncs) {
      BOOST_TEST(outstanding_syncs_.erase(id) == 1u, "sync " << id << " answered twice");
      syncs_[id] = a;
    }
  }

  uint64_t next_id_ = 1;
  std::set<uint64_t> outstanding_joins_;
  std::set<uint64_t> outstanding_syncs_;
  std::map<uint64_t, join_answer> joins_;
  std::map<uint64_t, sync_answer> syncs_;
};

struct formed_group {
  std::vector<std::string> ids; ///< member ids in join order; ids[0] leads
  int64_t at = 0;               ///< when the group became Stable
};

/// Members by client id, all joining at time 0: "a" first, so it leads. The group forms from
/// Empty, after the initial delay (3 s, extended once to 6 s when more than one member
/// arrives in it), and every member syncs at that time; the group is then Stable at
/// generation 1.
inline formed_group form_stable_group(driver& d, const std::vector<std::string>& clients) {
  std::vector<uint64_t> joins;
  for (auto& c : clients)
    joins.push_back(d.join_new(c, 0));
  formed_group f;
  while (!d.answered(joins.back())) {
    BOOST_REQUIRE(d.g.next_deadline().has_value());
    f.at = *d.g.next_deadline();
    d.tick(f.at);
  }
  for (auto j : joins) {
    auto& a = d.join_answer_of(j);
    BOOST_REQUIRE(a.error == kafka_error::none);
    f.ids.push_back(a.member_id);
  }
  std::vector<member_assignment> assignments;
  for (auto& id : f.ids)
    assignments.push_back({id, bytes_of("assigned:" + id)});
  for (std::size_t i = 1; i < f.ids.size(); ++i)
    d.sync(f.ids[i], 1, f.at);
  d.sync(f.ids[0], 1, f.at, assignments);
  BOOST_REQUIRE(d.g.phase() == group_phase::stable);
  BOOST_REQUIRE_EQUAL(d.g.generation(), 1);
  BOOST_REQUIRE_EQUAL(d.held(), 0u);
  return f;
}

} // namespace group_test
