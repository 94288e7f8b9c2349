// Member-id suffixes: random UUIDs by default, replayable from a seed (what the in-process
// simulation sets through node_options::member_id_seed).
#include <boost/test/unit_test.hpp>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "actors/member_id_suffix.hpp"

using namespace cafka;

namespace {

std::vector<std::string> draw(cluster::group_state::suffix_source& src, size_t n) {
  std::vector<std::string> out;
  for (size_t i = 0; i < n; ++i)
    out.push_back(src());
  return out;
}

bool is_uuid_v4(const std::string& s) {
  static const std::regex form{"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"};
  return std::regex_match(s, form);
}

} // namespace

BOOST_AUTO_TEST_SUITE(member_id_suffixes)

BOOST_AUTO_TEST_CASE(two_sources_with_one_seed_give_the_same_ids) {
  auto a = make_member_id_suffixes(7);
  auto b = make_member_id_suffixes(7);
  auto c = make_member_id_suffixes(8);
  auto ids = draw(a, 5);
  BOOST_TEST(ids == draw(b, 5));
  BOOST_TEST(ids != draw(c, 5));
  BOOST_TEST(std::set<std::string>(ids.begin(), ids.end()).size() == ids.size());
  for (auto& id : ids)
    BOOST_TEST(is_uuid_v4(id), id);
}

BOOST_AUTO_TEST_CASE(random_sources_differ) {
  auto a = make_member_id_suffixes();
  auto b = make_member_id_suffixes();
  auto x = a();
  BOOST_TEST(is_uuid_v4(x), x);
  BOOST_TEST(x != b());
}

BOOST_AUTO_TEST_CASE(a_nodes_seeds_replay_and_differ_per_group) {
  auto s1 = make_member_id_seeds(42);
  auto s2 = make_member_id_seeds(42);
  std::vector<uint64_t> first, second;
  for (int i = 0; i < 4; ++i) {
    first.push_back(s1());
    second.push_back(s2());
  }
  BOOST_TEST(first == second);
  // Each group (a recreated one too) gets a seed of its own, never 0 ("random").
  BOOST_TEST(std::set<uint64_t>(first.begin(), first.end()).size() == first.size());
  for (auto s : first)
    BOOST_TEST(s != 0u);
  // Seed 0: every group draws from random_device, as before.
  auto unseeded = make_member_id_seeds(0);
  BOOST_TEST(unseeded() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
