#include "cluster/sticky_assignor.hpp"

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <utility>

namespace cafka::cluster {
namespace {

constexpr std::size_t nobody = std::numeric_limits<std::size_t>::max();

/// A partition as (topic number, partition); topics are numbered in name order.
using slot = std::pair<std::size_t, int32_t>;

/// One run of the sticky assignor. Members are numbered in member id order and topics (those
/// that exist and have a subscriber) in name order, so that every tie is broken the same way
/// whatever the order of the input.
class sticky_builder {
public:
  sticky_builder(const std::vector<assignor_member>& members, const partition_counts& partitions);

  assignment_plan build();

private:
  struct topic_info {
    std::string name;
    int32_t count = 0;
    std::vector<std::size_t> subscribers; ///< in member order
  };

  /// A held partition as (partition, topic): the order in which a member gives up partitions
  /// from the back.
  using held_key = std::pair<int32_t, std::size_t>;

  /// Most partitions first, then member order: the order balance() tries givers in.
  struct by_count_order {
    bool operator()(const std::pair<std::size_t, std::size_t>& a,
                    const std::pair<std::size_t, std::size_t>& b) const {
      return a.first != b.first ? a.first > b.first : a.second < b.second;
    }
  };

  bool eligible(std::size_t member, std::size_t topic) const {
    return eligible_[member * topics_.size() + topic] != 0;
  }
  std::size_t held_count(std::size_t member) const { return held_count_[member]; }
  std::size_t& owner(slot s) { return owner_[s.first][static_cast<std::size_t>(s.second)]; }
  void give(std::size_t member, slot s);
  void take(std::size_t member, slot s);

  void keep_owned();
  void assign_unowned();
  void balance();
  std::vector<std::size_t> find_chain(std::size_t from) const;
  void hand_over(std::size_t from, std::size_t to);

  const std::vector<assignor_member>& input_;
  std::vector<const assignor_member*> members_;
  std::vector<topic_info> topics_;
  std::vector<std::vector<std::size_t>> member_topics_; ///< subscribed topics that exist
  std::vector<char> eligible_;                          ///< member x topic: subscribed
  std::vector<std::set<slot>> claims_;                  ///< owned, and still assignable to it
  // The plan being built: per member what it keeps of its claims and what is new to it.
  std::vector<std::set<held_key>> kept_;
  std::vector<std::set<held_key>> fresh_;
  std::vector<std::size_t> held_count_;
  std::vector<int32_t> held_in_topic_;          ///< member x topic: partitions held
  std::vector<std::vector<std::size_t>> owner_; ///< topic -> partition -> member
  /// (held count, member) of the members that subscribe to an existing topic.
  std::set<std::pair<std::size_t, std::size_t>, by_count_order> by_count_;
};

sticky_builder::sticky_builder(const std::vector<assignor_member>& members,
                               const partition_counts& partitions)
  : input_(members) {
  std::set<std::string_view> seen;
  for (auto& m : members)
    if (seen.insert(m.member_id).second)
      members_.push_back(&m);
  std::sort(members_.begin(), members_.end(),
            [](auto* a, auto* b) { return java_string_less(a->member_id, b->member_id); });

  std::vector<std::string> names;
  for (auto* m : members_)
    for (auto& topic : m->topics) {
      auto it = partitions.find(topic);
      if (it != partitions.end() && it->second > 0)
        names.push_back(topic);
    }
  std::sort(names.begin(), names.end(), [](auto& a, auto& b) { return java_string_less(a, b); });
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::map<std::string_view, std::size_t> topic_number;
  for (auto& name : names) {
    topic_number.emplace(name, topics_.size());
    topics_.push_back({name, partitions.at(name), {}});
  }

  auto n = members_.size();
  auto t = topics_.size();
  member_topics_.resize(n);
  eligible_.assign(n * t, 0);
  claims_.resize(n);
  kept_.resize(n);
  fresh_.resize(n);
  held_count_.assign(n, 0);
  held_in_topic_.assign(n * t, 0);
  for (std::size_t m = 0; m < n; ++m) {
    for (auto& topic : members_[m]->topics) {
      auto it = topic_number.find(topic);
      if (it == topic_number.end() || eligible(m, it->second))
        continue;
      eligible_[m * t + it->second] = 1;
      member_topics_[m].push_back(it->second);
      topics_[it->second].subscribers.push_back(m);
    }
    std::sort(member_topics_[m].begin(), member_topics_[m].end());
    for (auto& tp : members_[m]->owned_partitions) {
      auto it = topic_number.find(tp.topic);
      if (it != topic_number.end() && eligible(m, it->second) && tp.partition >= 0
          && tp.partition < topics_[it->second].count)
        claims_[m].insert({it->second, tp.partition});
    }
  }
  for (auto& topic : topics_)
    owner_.emplace_back(static_cast<std::size_t>(topic.count), nobody);
  for (std::size_t m = 0; m < n; ++m)
    if (!member_topics_[m].empty())
      by_count_.insert({0, m});
}

void sticky_builder::give(std::size_t member, slot s) {
  by_count_.erase({held_count_[member], member});
  by_count_.insert({++held_count_[member], member});
  (claims_[member].count(s) ? kept_ : fresh_)[member].insert({s.second, s.first});
  ++held_in_topic_[member * topics_.size() + s.first];
  owner(s) = member;
}

void sticky_builder::take(std::size_t member, slot s) {
  by_count_.erase({held_count_[member], member});
  by_count_.insert({--held_count_[member], member});
  (claims_[member].count(s) ? kept_ : fresh_)[member].erase({s.second, s.first});
  --held_in_topic_[member * topics_.size() + s.first];
  owner(s) = nobody;
}

void sticky_builder::keep_owned() {
  // The newest claim wins; claims tied at the newest generation cancel out.
  std::map<slot, std::pair<int32_t, std::size_t>> newest;
  for (std::size_t m = 0; m < members_.size(); ++m) {
    auto generation = members_[m]->generation;
    for (auto& s : claims_[m]) {
      auto [it, first] = newest.try_emplace(s, generation, m);
      if (first)
        continue;
      if (generation > it->second.first)
        it->second = {generation, m};
      else if (generation == it->second.first)
        it->second.second = nobody;
    }
  }
  for (auto& [s, claim] : newest)
    if (claim.second != nobody)
      give(claim.second, s);
}

void sticky_builder::assign_unowned() {
  // Topics few members can take go first, while everyone still has room for them.
  std::vector<std::size_t> order(topics_.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [this](std::size_t a, std::size_t b) {
    return topics_[a].subscribers.size() < topics_[b].subscribers.size();
  });
  for (auto t : order) {
    for (int32_t p = 0; p < topics_[t].count; ++p) {
      slot s{t, p};
      if (owner(s) != nobody)
        continue;
      auto best = nobody;
      for (auto m : topics_[t].subscribers) {
        if (best == nobody || held_count(m) < held_count(best)
            || (held_count(m) == held_count(best) && claims_[m].count(s) > claims_[best].count(s)))
          best = m;
      }
      give(best, s);
    }
  }
}

std::vector<std::size_t> sticky_builder::find_chain(std::size_t from) const {
  // Breadth first: member x leads to member y when x holds a partition of a topic y
  // subscribes to. Once one member's topic t is followed, every subscriber of t is reached,
  // so each topic is followed once.
  auto target = held_count(from) - 2;
  std::vector<std::size_t> parent(members_.size(), nobody);
  std::vector<char> reached(members_.size(), 0);
  std::vector<char> followed(topics_.size(), 0);
  std::deque<std::size_t> queue{from};
  reached[from] = 1;
  while (!queue.empty()) {
    auto x = queue.front();
    queue.pop_front();
    for (auto t : member_topics_[x]) {
      if (followed[t] || held_in_topic_[x * topics_.size() + t] == 0)
        continue;
      followed[t] = 1;
      for (auto y : topics_[t].subscribers) {
        if (reached[y])
          continue;
        reached[y] = 1;
        parent[y] = x;
        if (held_count(y) <= target) {
          std::vector<std::size_t> chain{y};
          while (chain.back() != from)
            chain.push_back(parent[chain.back()]);
          std::reverse(chain.begin(), chain.end());
          return chain;
        }
        queue.push_back(y);
      }
    }
  }
  return {};
}

void sticky_builder::hand_over(std::size_t from, std::size_t to) {
  // Back to a former owner first; else what the giver did not own, else one it owned; each
  // time the last in (partition, topic) order.
  std::optional<held_key> pick;
  for (auto& s : claims_[to])
    if (owner(s) == from && (!pick || held_key{s.second, s.first} > *pick))
      pick = held_key{s.second, s.first};
  for (auto* held : {&fresh_[from], &kept_[from]}) {
    for (auto it = held->rbegin(); !pick && it != held->rend(); ++it)
      if (eligible(to, it->second))
        pick = *it;
  }
  assert(pick); // the chain only links members that can take something from the previous one
  slot s{pick->second, pick->first};
  take(from, s);
  give(to, s);
}

void sticky_builder::balance() {
  for (;;) {
    if (by_count_.empty())
      return;
    auto fewest = by_count_.rbegin()->first;
    std::vector<std::size_t> chain;
    for (auto& [count, m] : by_count_) {
      if (count < fewest + 2)
        break;
      chain = find_chain(m);
      if (!chain.empty())
        break;
    }
    if (chain.empty())
      return;
    // From the far end, so that nobody passes on a partition it has just received.
    for (auto i = chain.size() - 1; i > 0; --i)
      hand_over(chain[i - 1], chain[i]);
  }
}

assignment_plan sticky_builder::build() {
  keep_owned();
  assign_unowned();
  balance();
  auto plan = empty_plan(input_);
  for (std::size_t m = 0; m < members_.size(); ++m) {
    auto& assigned = plan[members_[m]->member_id];
    for (auto* held : {&kept_[m], &fresh_[m]})
      for (auto& [p, t] : *held)
        assigned.push_back({topics_[t].name, p});
  }
  sort_plan(plan);
  return plan;
}

} // namespace

assignment_plan assign_sticky(const std::vector<assignor_member>& members,
                              const partition_counts& partitions) {
  return sticky_builder{members, partitions}.build();
}

assignment_plan withhold_partitions_changing_owner(assignment_plan plan,
                                                   const std::vector<assignor_member>& members) {
  std::map<topic_partition, std::vector<const assignor_member*>> claimants;
  std::set<std::string_view> seen;
  for (auto& m : members) {
    if (!seen.insert(m.member_id).second)
      continue;
    std::set<topic_partition> owned(m.owned_partitions.begin(), m.owned_partitions.end());
    for (auto& tp : owned)
      claimants[tp].push_back(&m);
  }
  for (auto& [member_id, partitions] : plan) {
    auto changes_owner = [&, id = std::string_view{member_id}](const topic_partition& tp) {
      auto it = claimants.find(tp);
      if (it == claimants.end())
        return false;
      const assignor_member* own = nullptr;
      for (auto* c : it->second)
        if (c->member_id == id)
          own = c;
      for (auto* c : it->second)
        if (c != own && (own == nullptr || c->generation >= own->generation))
          return true;
      return false;
    };
    partitions.erase(std::remove_if(partitions.begin(), partitions.end(), changes_owner),
                     partitions.end());
  }
  return plan;
}

} // namespace cafka::cluster
