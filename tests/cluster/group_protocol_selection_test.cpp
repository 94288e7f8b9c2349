// Kafka's protocol vote among a group's members.
#include "cluster/group_protocol_selection.hpp"

#include <boost/test/unit_test.hpp>

#include "group_test_support.hpp"

using namespace group_test;

namespace {

member_metadata member(const std::string& id, const std::vector<std::string>& names) {
  member_metadata m;
  m.member_id = id;
  m.protocols = protocols(names, id);
  return m;
}

} // namespace

BOOST_AUTO_TEST_SUITE(group_protocol_selection)

BOOST_AUTO_TEST_CASE(majority_of_first_choices_wins) {
  std::vector<member_metadata> ms{member("a", {"range", "roundrobin"}),
                               member("b", {"roundrobin", "range"}),
                               member("c", {"roundrobin", "range"})};
  BOOST_TEST(select_group_protocol(ms).value() == "roundrobin");
  ms[2] = member("c", {"range", "roundrobin"});
  BOOST_TEST(select_group_protocol(ms).value() == "range");
}

BOOST_AUTO_TEST_CASE(members_vote_only_for_protocols_everyone_supports) {
  // b and c prefer sticky, but a lacks it: they vote for their best common choice.
  std::vector<member_metadata> ms{member("a", {"range", "roundrobin"}),
                               member("b", {"sticky", "roundrobin", "range"}),
                               member("c", {"sticky", "roundrobin"})};
  BOOST_TEST(common_protocols(ms) == (std::vector<std::string>{"roundrobin"}));
  BOOST_TEST(select_group_protocol(ms).value() == "roundrobin");
}

BOOST_AUTO_TEST_CASE(a_tie_goes_to_the_first_members_preference) {
  std::vector<member_metadata> ms{member("a", {"roundrobin", "range"}),
                               member("b", {"range", "roundrobin"})};
  BOOST_TEST(select_group_protocol(ms).value() == "roundrobin");
  std::swap(ms[0], ms[1]);
  BOOST_TEST(select_group_protocol(ms).value() == "range");
}

BOOST_AUTO_TEST_CASE(no_common_protocol_no_choice) {
  std::vector<member_metadata> ms{member("a", {"range", "roundrobin"}),
                               member("b", {"RoundRobinAssigner"})};
  BOOST_TEST(common_protocols(ms).empty());
  BOOST_TEST(!select_group_protocol(ms).has_value());
  BOOST_TEST(!select_group_protocol({}).has_value());
}

BOOST_AUTO_TEST_CASE(a_newcomer_needs_a_protocol_all_others_support) {
  std::vector<member_metadata> ms{member("a", {"range", "roundrobin"}),
                               member("b", {"roundrobin"})};
  BOOST_TEST(shares_a_protocol(ms, protocols({"sticky", "roundrobin"}), ""));
  BOOST_TEST(!shares_a_protocol(ms, protocols({"range"}), ""));      // b lacks range
  BOOST_TEST(!shares_a_protocol(ms, protocols({"RoundRobinAssigner"}), ""));
  BOOST_TEST(!shares_a_protocol(ms, {}, ""));
}

BOOST_AUTO_TEST_CASE(a_rejoining_member_is_not_compared_with_itself) {
  std::vector<member_metadata> ms{member("a", {"range"}), member("b", {"range", "roundrobin"})};
  // a switches to roundrobin: only b's protocols count.
  BOOST_TEST(shares_a_protocol(ms, protocols({"roundrobin"}), "a"));
  BOOST_TEST(!shares_a_protocol(ms, protocols({"roundrobin"}), ""));
  // Alone in the group, anything goes.
  BOOST_TEST(shares_a_protocol({member("a", {"range"})}, protocols({"x"}), "a"));
}

BOOST_AUTO_TEST_SUITE_END()
