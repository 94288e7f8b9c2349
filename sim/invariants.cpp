// The invariant checks of a randomized simulation run (invariants.hpp).
#include "sim/invariants.hpp"

#include <algorithm>
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

// The "no record skipped by a group" check (see invariants.hpp).
void check_deliveries(const run_observations& obs, std::vector<std::string>& out) {
  std::map<std::pair<std::string, partition_key>, std::set<int64_t>> delivered; // (group, tp) -> offsets
  for (auto& d : obs.deliveries) {
    partition_key tp{d.topic, d.partition};
    if (obs.lossy.count(tp))
      continue;
    delivered[{d.group, tp}].insert(d.offset);
    auto it = obs.reads.find(tp);
    if (it == obs.reads.end())
      continue; // reported for the commits or the reads
    auto& recs = it->second.records;
    if (d.offset >= 0 && d.offset < int64_t(recs.size()) && recs[size_t(d.offset)].offset == d.offset &&
        recs[size_t(d.offset)].value != d.value)
      out.push_back("group " + d.group + " got " + name(tp) + "@" + std::to_string(d.offset) + " " + show(d.value) +
                    " but the log holds " + show(recs[size_t(d.offset)].value));
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

} // namespace

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

  check_deliveries(obs, out);

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
