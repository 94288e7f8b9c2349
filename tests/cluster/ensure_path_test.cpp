// ensure_path / create_recursive on top of the embedded coordinator.
#include "cluster/ensure_path.hpp"

#include "tests/cluster/fixtures.hpp"

using namespace cafka::test;

namespace {

status ensure(coordinator& c, const std::string& path) {
  std::optional<status> out;
  ensure_path(c, path, [&](status s) { out = s; });
  BOOST_REQUIRE(out.has_value());
  return *out;
}

result<std::string> create_all(coordinator& c, const std::string& path, create_mode mode,
                               std::string_view data = {}) {
  return call<std::string>([&](auto cb) { create_recursive(c, path, data, mode, cb); });
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(ensure_path_helpers, store_fixture)

BOOST_AUTO_TEST_CASE(ensure_path_creates_missing_ancestors_and_is_idempotent) {
  auto c = open();
  BOOST_REQUIRE(create(*c, "/a"));
  BOOST_TEST(!ensure(*c, "/a/b/c").error());
  BOOST_TEST(exists(*c, "/a/b")->has_value());
  BOOST_TEST(get(*c, "/a/b/c")->stat.ephemeral_owner == 0);
  BOOST_TEST(!ensure(*c, "/a/b/c").error());
  BOOST_TEST(!ensure(*c, "/").error());
  BOOST_TEST(store->node_count() == 4u);
}

BOOST_AUTO_TEST_CASE(ensure_path_reports_errors) {
  auto c = open();
  BOOST_TEST(ensure(*c, "a/b").error() == errc::invalid_path);
  BOOST_TEST(ensure(*c, "/a//b").error() == errc::invalid_path);
  BOOST_REQUIRE(create(*c, "/e", "", create_mode::ephemeral));
  BOOST_TEST(ensure(*c, "/e/x/y").error() == errc::no_children_for_ephemerals);
  store->disconnect_session(c->session());
  BOOST_TEST(ensure(*c, "/z/y").error() == errc::connection_loss);
  BOOST_TEST(ensure(*c, "/").error() == errc::connection_loss);
}

BOOST_AUTO_TEST_CASE(create_recursive_makes_persistent_parents_and_the_node_as_asked) {
  auto c = open();
  BOOST_TEST(*create_all(*c, "/brokers/ids/1", create_mode::ephemeral, "reg") == "/brokers/ids/1");
  BOOST_TEST(get(*c, "/brokers/ids")->stat.ephemeral_owner == 0);
  auto node = get(*c, "/brokers/ids/1");
  BOOST_TEST(node->data == "reg");
  BOOST_TEST(node->stat.ephemeral_owner == c->session());
  // The node itself existing is an error (another broker with the same id).
  BOOST_TEST(create_all(*c, "/brokers/ids/1", create_mode::ephemeral).error()
             == errc::node_exists);
}

BOOST_AUTO_TEST_CASE(create_recursive_sequential) {
  auto c = open();
  BOOST_TEST(*create_all(*c, "/q/jobs/job-", create_mode::sequential) == "/q/jobs/job-0000000000");
  BOOST_TEST(*create_all(*c, "/q/jobs/", create_mode::sequential) == "/q/jobs/0000000001");
  BOOST_TEST(create_all(*c, "/q/jobs/", create_mode::persistent).error() == errc::invalid_path);
}

BOOST_AUTO_TEST_CASE(create_recursive_reports_a_parent_error_first) {
  auto c = open();
  BOOST_REQUIRE(create(*c, "/e", "", create_mode::ephemeral));
  BOOST_TEST(create_all(*c, "/e/x/y", create_mode::persistent).error()
             == errc::no_children_for_ephemerals);
  auto other = open();
  store->expire_session(other->session());
  BOOST_TEST(create_all(*other, "/n/m", create_mode::persistent).error()
             == errc::session_expired);
}

BOOST_AUTO_TEST_CASE(usable_from_inside_a_callback) {
  auto c = open();
  std::optional<status> done;
  // The creates are queued behind the running callback; none is made from a completion.
  c->exists("/", {}, [&](result<std::optional<node_stat>>) {
    ensure_path(*c, "/deep/er/path", [&](status s) { done = s; });
  });
  BOOST_REQUIRE(done.has_value());
  BOOST_TEST(!done->error());
  BOOST_TEST(exists(*c, "/deep/er/path")->has_value());
}

BOOST_AUTO_TEST_SUITE_END()
