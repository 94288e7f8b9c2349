// A whole node in-process (real scheduler threads): topics, the coordinator's view,
// metadata, auto-creation, restart.
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "actors/errors.hpp"
#include "actors/group_registry.hpp"
#include "actors/node.hpp"
#include "actors/producer_id_issuer.hpp"
#include "actors/system_config.hpp"
#include "cluster/coordinator.hpp"
#include "cluster/producer_id_block.hpp"
#include "cluster/znode_data.hpp"
#include "cluster/znode_paths.hpp"
#include "protocol/record_batch.hpp"
#include "tests/actors/deterministic_fixture.hpp"

using namespace cafka;
using namespace std::chrono_literals;

namespace {

struct running_node {
  caf::actor_system_config cfg;
  caf::actor_system sys;
  node n;

  static caf::actor_system_config& prepare(caf::actor_system_config& c) {
    register_cafka_types(c);
    return c;
  }

  explicit running_node(const std::string& log_dir, bool auto_create = true) : sys(prepare(cfg)) {
    config::server_config sc;
    sc.log_dirs = {log_dir};
    sc.auto_create_topics_enable = auto_create;
    sc.num_partitions = 3;
    std::string error_text;
    auto started = start_node(sys, sc, error_text);
    BOOST_REQUIRE_MESSAGE(started, error_text);
    n = std::move(*started);
  }

  ~running_node() { BOOST_CHECK(stop_node(sys, n)); }

  std::vector<std::string> children(const std::string& path) {
    std::vector<std::string> out;
    n.coordinator->children(path, {}, [&](result<std::vector<std::string>> r) {
      if (r)
        out = std::move(*r);
    });
    return out;
  }

  std::optional<std::string> znode(const std::string& path) {
    std::optional<std::string> out;
    n.coordinator->get(path, {}, [&](result<cluster::node_data> r) {
      if (r)
        out = r->data;
    });
    return out;
  }
};

} // namespace

BOOST_AUTO_TEST_SUITE(node_in_process)

BOOST_AUTO_TEST_CASE(registers_creates_topics_and_recovers_them_after_a_restart) {
  test::temp_folder dir;
  {
    running_node rn{dir.path};
    BOOST_TEST(rn.znode(cluster::broker_path(0)).has_value());
    BOOST_TEST(cluster::decode_controller_info(*rn.znode(cluster::controller_path()))->broker_id == 0);
    caf::scoped_actor self{rn.sys};
    self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"orders", 2, 1, {{"retention.ms", "60000"}}})
      .receive([](topic_description& d) { BOOST_TEST(d.partitions.size() == 2u); },
               [](caf::error& e) { BOOST_FAIL(describe(e)); });
    self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"orders", 2, 1, {}})
      .receive([](topic_description&) { BOOST_FAIL("created twice"); },
               [](caf::error& e) { BOOST_TEST((to_kafka_error(e) == kafka_error::topic_already_exists)); });
    self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"bad", 1, 1, {{"retention.ms", "soon"}}})
      .receive([](topic_description&) { BOOST_FAIL("bad config accepted"); },
               [](caf::error& e) { BOOST_TEST((to_kafka_error(e) == kafka_error::invalid_config)); });
    BOOST_TEST(cluster::decode_topic_assignment(*rn.znode(cluster::topic_path("orders")))->partitions.size() == 2u);
    // Produce to partition 1 through the actor metadata hands out.
    partition_actor p1;
    self->request(rn.n.actor, 10s, metadata_atom_v, metadata_request{{"orders"}, false, false})
      .receive([&](cluster_metadata& md) {
                 BOOST_TEST(md.controller_id == 0);
                 p1 = md.topics.at(0).partitions.at(1).actor;
               },
               [](caf::error& e) { BOOST_FAIL(describe(e)); });
    auto batch = protocol::build_batch({{std::string("k"), std::string("v"), {}, 1000}});
    for (int i = 0; i < 5; ++i)
      self->request(p1, 10s, produce_atom_v, produce_request{1, batch})
        .receive([&](produce_result& r) { BOOST_TEST(r.base_offset == i); },
                 [](caf::error& e) { BOOST_FAIL(describe(e)); });
  }
  running_node again{dir.path};
  caf::scoped_actor self{again.sys};
  self->request(again.n.actor, 10s, describe_atom_v, std::string{"orders"})
    .receive([](topic_description& d) {
               BOOST_REQUIRE_EQUAL(d.partitions.size(), 2u);
               BOOST_TEST(d.partitions[1].log_end_offset == 5);
               BOOST_TEST(d.configs.at("retention.ms") == "60000");
             },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_TEST(again.znode(cluster::topic_config_path("orders")).has_value());
}

namespace {

int64_t next_producer_id(running_node& rn) {
  caf::scoped_actor self{rn.sys};
  int64_t id = -1;
  self->request(rn.n.producer_ids, 10s, next_producer_id_atom::value)
    .receive([&](int64_t got) { id = got; }, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  return id;
}

} // namespace

// A single node's embedded store forgets /latest_producer_id_block at a stop; the block file
// in the log dir brings it back, so that no id of the last run is handed out again.
BOOST_AUTO_TEST_CASE(producer_ids_come_from_blocks_that_survive_a_restart) {
  test::temp_folder dir;
  int64_t last = -1;
  {
    running_node rn{dir.path};
    for (int i = 0; i < 3; ++i) {
      auto id = next_producer_id(rn);
      BOOST_TEST(id > last);
      last = id;
    }
    BOOST_TEST(last < cluster::producer_id_block_size);
    auto block = cluster::decode_producer_id_block(*rn.znode(cluster::producer_id_block_path));
    BOOST_REQUIRE(block);
    BOOST_TEST(block->end == cluster::producer_id_block_size - 1);
  }
  {
    running_node again{dir.path};
    auto id = next_producer_id(again);
    BOOST_TEST(id == cluster::producer_id_block_size); // the next block: nothing of the first reused
  }
  // A block file that does not parse stops the start, naming the file.
  {
    std::ofstream{producer_id_block_file(dir.path)} << "{\"version\":1,";
  }
  caf::actor_system_config cfg;
  register_cafka_types(cfg);
  caf::actor_system sys{cfg};
  config::server_config sc;
  sc.log_dirs = {dir.path};
  std::string error_text;
  auto refused = start_node(sys, sc, error_text);
  BOOST_REQUIRE(!refused);
  BOOST_TEST(error_text.find("cafka-producer-id-block") != std::string::npos, error_text);
}

BOOST_AUTO_TEST_CASE(auto_creates_topics_only_when_allowed) {
  test::temp_folder dir;
  {
    running_node rn{dir.path};
    caf::scoped_actor self{rn.sys};
    // LEADER_NOT_AVAILABLE until the registry file holds the new topic; clients ask again.
    auto not_yet = protocol::wire_code(kafka_error::leader_not_available);
    int16_t error = not_yet;
    size_t partitions = 0;
    for (int attempt = 0; attempt < 500 && error == not_yet; ++attempt) {
      if (attempt > 0)
        std::this_thread::sleep_for(10ms);
      self->request(rn.n.actor, 10s, metadata_atom_v, metadata_request{{"fresh"}, false, true})
        .receive([&](cluster_metadata& md) {
                   error = md.topics.at(0).error;
                   partitions = md.topics.at(0).partitions.size();
                 },
                 [](caf::error& e) { BOOST_FAIL(describe(e)); });
    }
    BOOST_TEST(error == 0);
    BOOST_TEST(partitions == 3u); // num.partitions
    self->request(rn.n.actor, 10s, metadata_atom_v, metadata_request{{"other"}, false, false})
      .receive([](cluster_metadata& md) {
                 BOOST_TEST(md.topics.at(0).error == protocol::wire_code(kafka_error::unknown_topic_or_partition));
               },
               [](caf::error& e) { BOOST_FAIL(describe(e)); });
    self->request(rn.n.actor, 10s, delete_topic_atom_v, std::string{"fresh"})
      .receive([](std::string& name) { BOOST_TEST(name == "fresh"); },
               [](caf::error& e) { BOOST_FAIL(describe(e)); });
    self->request(rn.n.actor, 10s, list_topics_atom_v)
      .receive([](std::vector<std::string>& names) { BOOST_TEST(names.empty()); },
               [](caf::error& e) { BOOST_FAIL(describe(e)); });
  }
  test::temp_folder other;
  running_node strict{other.path, false};
  caf::scoped_actor self{strict.sys};
  self->request(strict.n.actor, 10s, metadata_atom_v, metadata_request{{"fresh"}, false, true})
    .receive([](cluster_metadata& md) {
               BOOST_TEST(md.topics.at(0).error == protocol::wire_code(kafka_error::unknown_topic_or_partition));
             },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
}

BOOST_AUTO_TEST_CASE(a_groups_members_are_registered_in_the_nodes_coordinator) {
  test::temp_folder dir;
  running_node rn{dir.path};
  auto group = rn.n.groups->find_or_spawn("readers");
  BOOST_REQUIRE(group.has_value());
  caf::scoped_actor member{rn.sys};
  cluster::join_request join;
  join.client_id = "reader";
  join.session_timeout_ms = 10000;
  join.rebalance_timeout_ms = 10000;
  join.protocol_type = "consumer";
  join.protocols = {{"range", {}}};
  // Held through group.initial.rebalance.delay.ms (answered NOT_COORDINATOR at shutdown), but
  // registered at once: the describe queued after it sees the member and its node.
  member->request(*group, caf::infinite, join_group_atom_v, join);
  caf::scoped_actor self{rn.sys};
  std::string member_id;
  self->request(*group, 10s, describe_atom_v)
    .receive([&](cluster::group_description& d) {
               BOOST_REQUIRE(d.members.size() == 1u);
               member_id = d.members[0].member_id;
             },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_TEST(rn.children(cluster::consumer_ids_path("readers"))
             == (std::vector<std::string>{cluster::escape_name(member_id)}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(node_topic_limits)

// A CreateTopics for more partitions than the broker could hold open is refused whole; one
// that runs out of descriptors half way leaves nothing behind (both found by the fuzzer).
BOOST_AUTO_TEST_CASE(too_many_partitions_are_refused_and_a_partial_topic_is_removed) {
  test::temp_folder dir;
  running_node rn{dir.path};
  caf::scoped_actor self{rn.sys};
  auto create = [&](const std::string& name, int32_t partitions) {
    caf::expected<topic_description> out{caf::error{}};
    self->request(rn.n.actor, 60s, create_topic_atom_v, topic_spec{name, partitions, 1, {}})
      .receive([&](topic_description& d) { out = std::move(d); }, [&](caf::error& e) { out = std::move(e); });
    return out;
  };
  auto huge = create("huge", 1 << 30);
  BOOST_REQUIRE(!huge);
  BOOST_TEST((to_kafka_error(huge.error()) == kafka_error::invalid_partitions));
  BOOST_TEST(describe(huge.error()).find("file descriptors (RLIMIT_NOFILE)") != std::string::npos, describe(huge.error()));
#if defined(__SANITIZE_ADDRESS__)
  // With every descriptor taken UBSan cannot run its own vptr check (it needs a pipe) and
  // reports a false positive; the release build runs the rest.
  BOOST_TEST_MESSAGE("the partial-topic half runs in the release build only");
  return;
#endif
  // Few descriptors left: 30 partitions pass the check (30 * 3 = 90 <= 200 / 2) but cannot
  // all be opened with the 60 descriptors left free.
  rlimit saved{};
  getrlimit(RLIMIT_NOFILE, &saved);
  rlimit low{200, saved.rlim_max};
  BOOST_REQUIRE(setrlimit(RLIMIT_NOFILE, &low) == 0);
  std::vector<int> fds; // take every descriptor, then free 60
  for (int fd; (fd = ::open("/dev/null", O_RDONLY)) >= 0;)
    fds.push_back(fd);
  for (int i = 0; i < 60 && !fds.empty(); ++i) {
    ::close(fds.back());
    fds.pop_back();
  }
  auto partial = create("partial", 30);
  for (int fd : fds)
    ::close(fd);
  setrlimit(RLIMIT_NOFILE, &saved);
  BOOST_REQUIRE(!partial);
  BOOST_TEST((to_kafka_error(partial.error()) == kafka_error::kafka_storage_error), describe(partial.error()));
  // The removal runs after the answer: wait (bounded) until no folder of it is left.
  bool gone = false;
  for (int i = 0; i < 200 && !gone; ++i) {
    gone = true;
    for (auto& entry : std::filesystem::directory_iterator(dir.path))
      gone = gone && entry.path().filename().string().rfind("partial-", 0) != 0;
    if (!gone)
      std::this_thread::sleep_for(50ms);
  }
  BOOST_TEST(gone);
  // The name is free again once the removal is through ("marked for deletion" until then).
  auto again = create("partial", 2);
  for (int i = 0; i < 100 && !again; ++i) {
    std::this_thread::sleep_for(50ms);
    again = create("partial", 2);
  }
  BOOST_TEST(static_cast<bool>(again), (again ? std::string{} : describe(again.error())));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(node_topic_deletion)

// A topic created again while its folders are still being removed would open its logs in
// those folders and lose their files (the fuzzer found it: a write then failed with ENOENT
// and took the log dir offline). Until the removal is through the name is taken.
BOOST_AUTO_TEST_CASE(a_topic_cannot_be_created_again_while_its_deletion_runs) {
  test::temp_folder dir;
  running_node rn{dir.path};
  caf::scoped_actor self{rn.sys};
  self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"again", 2, 1, {}})
    .receive([](topic_description&) {}, [](caf::error& e) { BOOST_FAIL(describe(e)); });
  self->send(rn.n.actor, delete_topic_atom_v, std::string{"again"}); // answered once removed
  std::optional<caf::error> refused;
  self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"again", 2, 1, {}})
    .receive([](topic_description&) {}, [&](caf::error& e) { refused = e; });
  BOOST_REQUIRE_MESSAGE(refused, "created again while its deletion ran");
  BOOST_TEST((to_kafka_error(*refused) == kafka_error::topic_already_exists));
  BOOST_TEST(describe(*refused).find("marked for deletion") != std::string::npos, describe(*refused));
  self->receive([](std::string& deleted) { BOOST_TEST(deleted == "again"); },
                [](caf::error& e) { BOOST_FAIL(describe(e)); });
  self->request(rn.n.actor, 10s, create_topic_atom_v, topic_spec{"again", 2, 1, {}})
    .receive([](topic_description& d) { BOOST_TEST(d.partitions.size() == 2u); },
             [](caf::error& e) { BOOST_FAIL(describe(e)); });
  BOOST_TEST(std::filesystem::exists(dir.path + "/again-0"));
}

BOOST_AUTO_TEST_SUITE_END()
