// The invariant checks of a randomized simulation run (invariants.hpp).
#include "sim/invariants.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace cafka::sim {

namespace {

std::string show(const std::optional<std::string>& s) {
  return s ? "\"" + *s + "\"" : std::string{"null"};
}

std::string name(const partition_key& tp) {
  return tp.first + "/" + std::to_string(tp.second);
}

void check_read(const partition_key& tp, const partition_read& r, std::vector<std::string>& out) {
  int64_t expected = 0;
  for (auto& rec : r.records) {
    if (rec.offset != expected) {
      out.push_back(name(tp) + ": offsets not dense and increasing: read offset " + std::to_string(rec.offset) +
                    " where " + std::to_string(expected) + " was next");
      return; // the rest would only repeat it
    }
    ++expected;
  }
  if (expected != r.log_end)
    out.push_back(name(tp) + ": read offsets 0.." + std::to_string(expected - 1) + " but the log end offset is " +
                  std::to_string(r.log_end));
}

// The group checks: what a member got is what the log holds there (unless its partition
// was exposed after the delivery), and no offset below a commit was skipped (not for
// lossy partitions).
void check_deliveries(const run_observations& obs, std::vector<std::string>& out) {
  std::map<std::pair<std::string, partition_key>, std::set<int64_t>> delivered; // (group, tp) -> offsets
  std::set<std::pair<std::string, partition_key>> reported;
  for (auto& d : obs.deliveries) {
    partition_key tp{d.topic, d.partition};
    delivered[{d.group, tp}].insert(d.offset);
    auto it = obs.reads.find(tp);
    if (it == obs.reads.end())
      continue; // reported for the commits or the reads
    if (d.at_ms < 0 ? obs.lossy.count(tp) > 0 : exposed_after(obs, tp, d.at_ms))
      continue;
    if (reported.count({d.group, tp}))
      continue; // one line per group and partition
    auto& recs = it->second.records;
    auto what = "group " + d.group + " got " + name(tp) + "@" + std::to_string(d.offset) + " " + show(d.value);
    if (d.offset >= 0 && d.offset < int64_t(recs.size()) && recs[size_t(d.offset)].offset == d.offset) {
      if (recs[size_t(d.offset)].value != d.value) {
        out.push_back(what + " but the log holds " + show(recs[size_t(d.offset)].value));
        reported.insert({d.group, tp});
      }
    } else if (d.offset >= it->second.log_end) {
      out.push_back(what + ", later lost: the log ends at " + std::to_string(it->second.log_end));
      reported.insert({d.group, tp});
    }
  }
  for (auto& c : obs.commits) {
    partition_key tp{c.topic, c.partition};
    if (obs.lossy.count(tp))
      continue;
    auto read = obs.reads.find(tp);
    if (read == obs.reads.end())
      continue; // reported as an unknown partition
    auto& got = delivered[{c.group, tp}];
    // Beyond the log end is reported by itself; below it, every offset must have come.
    for (int64_t o = 0; o < std::min(c.offset, read->second.log_end); ++o)
      if (!got.count(o)) {
        out.push_back("group " + c.group + " committed " + name(tp) + "@" + std::to_string(c.offset) +
                      " but no member got offset " + std::to_string(o));
        break;
      }
  }
}

// A value of an idempotent producer is in its partition's log at most once.
void check_duplicates(const run_observations& obs, std::vector<std::string>& out) {
  if (obs.idempotent_values.empty())
    return;
  for (auto& [tp, r] : obs.reads) {
    std::map<std::string, int64_t> first; // value -> first offset
    for (auto& rec : r.records) {
      if (!rec.value || obs.idempotent_values.count(*rec.value) == 0)
        continue;
      auto [it, fresh] = first.emplace(*rec.value, rec.offset);
      if (!fresh) {
        out.push_back("duplicated: " + name(tp) + " holds " + show(rec.value) + " at " + std::to_string(it->second)
                      + " and again at " + std::to_string(rec.offset) + " (an idempotent producer's send)");
        break; // one line per partition
      }
    }
  }
}

// Two checked records of one producer and partition lie in the order they were sent.
void check_order(const run_observations& obs, std::vector<std::string>& out) {
  std::map<std::pair<int, partition_key>, std::vector<const acked_record*>> by_producer;
  for (auto& a : obs.acked)
    if (!a.may_be_lost && a.producer >= 0 && a.sequence >= 0)
      by_producer[{a.producer, {a.topic, a.partition}}].push_back(&a);
  for (auto& [key, recs] : by_producer) {
    std::sort(recs.begin(), recs.end(), [](auto* a, auto* b) { return a->sequence < b->sequence; });
    for (size_t i = 1; i < recs.size(); ++i)
      if (recs[i]->offset <= recs[i - 1]->offset) {
        out.push_back("order: producer " + std::to_string(key.first) + "'s send " + std::to_string(recs[i]->sequence)
                      + " " + show(recs[i]->value) + " was acknowledged at " + name(key.second) + "@"
                      + std::to_string(recs[i]->offset) + ", not after its send "
                      + std::to_string(recs[i - 1]->sequence) + " at @" + std::to_string(recs[i - 1]->offset));
        break;
      }
  }
}

std::string show(const replica_record& r) {
  return std::to_string(r.offset) + " (epoch " + std::to_string(r.leader_epoch) + ", key " + show(r.key) + ", value "
         + show(r.value) + ")";
}

// Every replica decodes, has dense offsets, and agrees with the leader below the high
// watermark; the leader below it is what the consumer read.
void check_replicas(const run_observations& obs, std::vector<std::string>& out) {
  for (auto& [tp, replicas] : obs.replicas) {
    auto read = obs.reads.find(tp);
    if (read == obs.reads.end() || obs.resumed.count(tp))
      continue;
    auto hw = read->second.log_end;
    auto leader = std::find_if(replicas.begin(), replicas.end(), [](auto& r) { return r.leader; });
    if (leader == replicas.end()) {
      out.push_back(name(tp) + ": no leader's log to compare the replicas with");
      continue;
    }
    for (auto& r : replicas) {
      auto who = name(tp) + " on broker " + std::to_string(r.broker) + (r.leader ? " (leader)" : "");
      if (!r.error.empty())
        out.push_back(who + ": " + r.error);
      int64_t expected = r.log_start;
      bool dense = true;
      for (auto& rec : r.records) {
        if (rec.offset != expected) {
          out.push_back(who + ": offsets not dense: offset " + std::to_string(rec.offset) + " where "
                        + std::to_string(expected) + " was next");
          dense = false;
          break;
        }
        ++expected;
      }
      if (dense && r.error.empty() && expected != r.log_end)
        out.push_back(who + ": records up to " + std::to_string(expected) + " but the log end offset is "
                      + std::to_string(r.log_end));
      if (!dense || r.leader)
        continue;
      // Below min(hw, its end), offset o is records[o - log_start] in both (dense).
      auto upto = std::min(hw, r.log_end);
      for (int64_t o = std::max(r.log_start, leader->log_start); o < upto; ++o) {
        auto i = size_t(o - r.log_start), j = size_t(o - leader->log_start);
        if (i >= r.records.size() || j >= leader->records.size())
          break;
        auto& mine = r.records[i];
        auto& theirs = leader->records[j];
        if (mine.key != theirs.key || mine.value != theirs.value || mine.leader_epoch != theirs.leader_epoch) {
          out.push_back(who + " differs from the leader below the high watermark " + std::to_string(hw) + ": "
                        + show(mine) + " where the leader, broker " + std::to_string(leader->broker) + ", has "
                        + show(theirs));
          break;
        }
      }
    }
    // The leader's records below the high watermark are what the consumer read back.
    auto& recs = read->second.records;
    for (size_t k = 0; k < recs.size(); ++k) {
      auto o = recs[k].offset;
      if (o < leader->log_start || o - leader->log_start >= int64_t(leader->records.size()))
        break;
      auto& l = leader->records[size_t(o - leader->log_start)];
      if (l.offset == o && (l.key != recs[k].key || l.value != recs[k].value)) {
        out.push_back(name(tp) + ": read back " + show(recs[k].value) + " at " + std::to_string(o)
                      + " but the leader's log holds " + show(l));
        break;
      }
    }
  }
}

} // namespace

bool exposed_after(const run_observations& obs, const partition_key& tp, int64_t t_ms) {
  auto it = obs.exposures.find(tp);
  if (it == obs.exposures.end())
    return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](int64_t e) { return e >= t_ms; });
}

std::vector<std::string> check_invariants(const run_observations& obs) {
  std::vector<std::string> out;
  for (auto& [tp, r] : obs.reads)
    check_read(tp, r, out);

  for (auto& a : obs.acked) {
    if (a.may_be_lost)
      continue;
    partition_key tp{a.topic, a.partition};
    auto what = "acknowledged " + name(tp) + "@" + std::to_string(a.offset) + " " + show(a.value);
    auto it = obs.reads.find(tp);
    if (it == obs.reads.end()) {
      out.push_back(what + ": partition not read back");
      continue;
    }
    auto& recs = it->second.records;
    const read_record* found = nullptr;
    // Offsets are normally dense from 0 (then index == offset); search if they are not.
    if (a.offset >= 0 && a.offset < int64_t(recs.size()) && recs[size_t(a.offset)].offset == a.offset)
      found = &recs[size_t(a.offset)];
    else
      for (auto& rec : recs)
        if (rec.offset == a.offset) {
          found = &rec;
          break;
        }
    if (!found)
      out.push_back(what + ": lost (not read back; log end " + std::to_string(it->second.log_end) + ")");
    else if (found->value != a.value || found->key != a.key)
      out.push_back(what + ": offset holds key " + show(found->key) + " value " + show(found->value) +
                    " instead of key " + show(a.key));
  }

  for (auto& c : obs.commits) {
    partition_key tp{c.topic, c.partition};
    auto what = "group " + c.group + " committed " + name(tp) + "@" + std::to_string(c.offset);
    auto it = obs.reads.find(tp);
    if (it == obs.reads.end())
      out.push_back(what + ": unknown partition");
    else if (c.offset > it->second.log_end && !obs.lossy.count(tp))
      out.push_back(what + ": beyond the log end offset " + std::to_string(it->second.log_end));
  }

  check_order(obs, out);
  check_duplicates(obs, out);
  check_deliveries(obs, out);
  check_replicas(obs, out);

  std::map<int64_t, std::map<int32_t, std::string>> by_epoch; // epoch -> controller -> first sighting
  for (auto& s : obs.controllers)
    by_epoch[s.epoch].emplace(s.controller, s.where);
  for (auto& [epoch, ids] : by_epoch) {
    if (ids.size() < 2)
      continue;
    std::string line = "controller epoch " + std::to_string(epoch) + " has " + std::to_string(ids.size()) +
                       " controllers:";
    for (auto& [id, where] : ids)
      line += " broker " + std::to_string(id) + " (" + where + ")";
    out.push_back(line);
  }
  return out;
}

std::vector<controller_sighting> controllers_in_trace(const std::vector<std::string>& trace) {
  std::vector<controller_sighting> out;
  for (auto& line : trace) {
    // "... controller 3 (epoch 2) ..." or "... controller is now broker 3 (epoch 2)"
    for (const char* marker : {"controller is now broker ", "controller "}) {
      auto pos = line.find(marker);
      if (pos == std::string::npos)
        continue;
      std::istringstream in{line.substr(pos + std::string(marker).size())};
      int32_t id = 0;
      std::string epoch_word;
      int64_t epoch = 0;
      char paren = 0;
      if (in >> id >> paren >> epoch_word >> epoch && paren == '(' && epoch_word == "epoch") {
        out.push_back({epoch, id, line});
        break;
      }
    }
  }
  return out;
}

} // namespace cafka::sim
