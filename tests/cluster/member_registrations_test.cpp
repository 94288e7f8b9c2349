// cluster/member_registrations: the diff between a group's members, the nodes created for
// them and the children of /consumers/<group>/ids.
#include "cluster/member_registrations.hpp"

#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "cluster/kv_text.hpp"
#include "cluster/znode_paths.hpp"

using namespace cafka::cluster;
using ids = std::vector<std::string>;

BOOST_AUTO_TEST_SUITE(member_registrations_diff)

BOOST_AUTO_TEST_CASE(new_members_are_created_once_and_departed_ones_removed) {
  member_registrations r;
  auto first = r.reconcile({"b-1", "a-1"});
  BOOST_TEST(first.to_create == (ids{"b-1", "a-1"}), boost::test_tools::per_element());
  BOOST_TEST(first.to_remove.empty());
  BOOST_TEST(r.reconcile({"b-1", "a-1"}).empty()); // creates in flight are not repeated
  r.created("a-1");
  r.created("b-1");
  BOOST_TEST(r.reconcile({"a-1", "b-1"}).empty());
  auto second = r.reconcile({"a-1", "c-1"}); // b left, c joined
  BOOST_TEST(second.to_create == (ids{"c-1"}), boost::test_tools::per_element());
  BOOST_TEST(second.to_remove == (ids{"b-1"}), boost::test_tools::per_element());
  BOOST_TEST(!r.is_tracked("b-1"));
  auto dead = r.reconcile({}); // the group closes
  BOOST_TEST(dead.to_remove == (ids{"a-1", "c-1"}), boost::test_tools::per_element());
  BOOST_TEST(r.reconcile({}).empty());
}

BOOST_AUTO_TEST_CASE(only_registered_members_whose_node_is_missing_vanish) {
  member_registrations r;
  r.reconcile({"a", "b", "c"});
  r.created("a");
  r.created("b"); // c: create still in flight
  auto gone = r.vanished({"a", "someone-else"});
  BOOST_TEST(gone == (ids{"b"}), boost::test_tools::per_element());
  BOOST_TEST(!r.is_tracked("b"));
  BOOST_TEST(r.is_tracked("c"));
  BOOST_TEST(r.vanished({"a", "someone-else"}).empty()); // the same children again
  // The caller removed b from the group: nothing left to remove for it.
  BOOST_TEST(r.reconcile({"a", "c"}).empty());
  r.created("c");
  BOOST_TEST(r.vanished({}) == (ids{"a", "c"}), boost::test_tools::per_element()); // folder gone
}

BOOST_AUTO_TEST_CASE(children_are_compared_by_escaped_name) {
  member_registrations r;
  std::string odd = "client/1 é-uuid";
  r.reconcile({odd});
  r.created(odd);
  BOOST_TEST(r.vanished({escape_name(odd)}).empty());
  BOOST_TEST(r.vanished({odd}) == (ids{odd}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(late_or_failed_creates) {
  member_registrations r;
  r.reconcile({"a"});
  r.reconcile({}); // a left before its create answered: its remove is issued after the create
  r.created("a");  // so the late answer must not track it again
  BOOST_TEST(!r.is_tracked("a"));
  r.reconcile({"b"});
  r.create_failed("b"); // e.g. connection_loss: the next reconcile tries again
  BOOST_TEST(r.reconcile({"b"}).to_create == (ids{"b"}), boost::test_tools::per_element());
  r.created("b");
  r.create_failed("b"); // a registered member stays registered
  BOOST_TEST(r.is_registered("b"));
}

BOOST_AUTO_TEST_CASE(a_new_session_registers_everyone_again) {
  member_registrations r;
  r.reconcile({"a", "b"});
  r.created("a");
  r.created("b");
  r.forget_all();
  BOOST_TEST(r.vanished({}).empty()); // nothing is judged against the dead session's nodes
  BOOST_TEST(r.reconcile({"a", "b"}).to_create == (ids{"a", "b"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(node_data_names_the_member) {
  member_metadata m;
  m.member_id = "c-1";
  m.client_id = "c";
  m.client_host = "/127.0.0.1";
  m.session_timeout_ms = 10000;
  auto f = kv_fields::parse(encode_member_registration(m));
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(!f->require_version(1).error());
  BOOST_TEST(*f->text("member_id") == "c-1");
  BOOST_TEST(*f->text("client_id") == "c");
  BOOST_TEST(*f->text("client_host") == "/127.0.0.1");
  BOOST_TEST(*f->integer("session_timeout_ms", 0, 1 << 30) == 10000);
  BOOST_TEST(!f->has("group_instance_id"));
  m.group_instance_id = "line\nbreak";
  f = kv_fields::parse(encode_member_registration(m));
  BOOST_REQUIRE(f.has_value());
  BOOST_TEST(*f->text("group_instance_id") == "line\nbreak");
}

BOOST_AUTO_TEST_SUITE_END()
