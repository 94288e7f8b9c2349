// Packaging (docs/packaging.md): `cmake --install` of this build into a fresh prefix, then the
// stand-alone project examples/standalone configured with find_package(cafka CONFIG) against
// that prefix, built, and its test (a consumer actor against cafka::sim) run; and `cpack -G
// DEB` of this build: the package holds the server, the tools, the systemd unit and
// /etc/cafka/server.properties as a conffile. Child processes with bounded waits only.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>

#include "tests/integration/child_process.hpp"
#include "tests/integration/server_process.hpp"

using namespace std::chrono_literals;
using cafka::test::run;
using cafka::test::run_result;

namespace {

std::string show(const run_result& r) {
  return "exit " + std::to_string(r.code) + "\nstdout:\n" + r.out + "stderr:\n" + r.err;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

} // namespace

BOOST_AUTO_TEST_SUITE(packaging)

BOOST_AUTO_TEST_CASE(a_standalone_project_builds_against_the_installed_tree_and_its_sim_test_passes) {
  cafka::test::scratch_dir dir;
  auto prefix = dir.path + "/prefix";
  auto installed = run({"/usr/bin/cmake", "--install", CAFKA_BINARY_DIR, "--prefix", prefix}, "", 300s);
  BOOST_REQUIRE_MESSAGE(installed.code == 0, show(installed));
  for (auto* file : {"/bin/cafka-server", "/bin/cafka-topics", "/bin/cafka-configs", "/etc/cafka/server.properties",
                     "/include/cafka/client/producer.hpp", "/include/cafka/sim/cluster.hpp",
                     "/lib/libcafka_client.a", "/lib/libcafka_sim.a", "/lib/cmake/cafka/cafkaConfig.cmake"})
    BOOST_TEST(std::filesystem::exists(prefix + file), file);
  BOOST_TEST(!has(installed.out, "cafka.service"), "a plain install wrote the package-only systemd unit");

  auto build = dir.path + "/standalone";
  auto configured = run({"/usr/bin/cmake", "-S", CAFKA_SOURCE_DIR "/examples/standalone", "-B", build, "-G", "Ninja",
                         "-DCMAKE_PREFIX_PATH=" + prefix},
                        "", 300s);
  BOOST_REQUIRE_MESSAGE(configured.code == 0, show(configured));
  auto built = run({"/usr/bin/ninja", "-C", build}, "", 600s);
  BOOST_REQUIRE_MESSAGE(built.code == 0, show(built));
  auto tested = run({build + "/key_counter_test"}, "", 300s);
  BOOST_TEST(tested.code == 0, show(tested));
  BOOST_TEST(has(tested.out, "ok: 30 records over 4 keys counted"), show(tested));
}

BOOST_AUTO_TEST_CASE(cpack_builds_a_debian_package_with_the_server_tools_unit_and_etc_config) {
  cafka::test::scratch_dir dir;
  auto packaged = run({"/usr/bin/cpack", "-G", "DEB", "--config", CAFKA_BINARY_DIR "/CPackConfig.cmake", "-B", dir.path},
                      "", 600s);
  BOOST_REQUIRE_MESSAGE(packaged.code == 0, show(packaged));
  std::string deb;
  for (auto& e : std::filesystem::directory_iterator(dir.path))
    if (e.path().extension() == ".deb")
      deb = e.path().string();
  BOOST_REQUIRE_MESSAGE(!deb.empty(), show(packaged));
  auto contents = run({"/usr/bin/dpkg-deb", "-c", deb}, "", 60s);
  BOOST_REQUIRE(contents.code == 0);
  for (auto* path : {"./usr/bin/cafka-server", "./usr/bin/cafka-topics", "./usr/bin/cafka-consumer-groups",
                     "./usr/bin/cafka-console-producer", "./usr/bin/cafka-console-consumer", "./usr/bin/cafka-configs",
                     "./lib/systemd/system/cafka.service", "./etc/cafka/server.properties",
                     "./usr/lib/cmake/cafka/cafkaConfig.cmake"})
    BOOST_TEST(has(contents.out, std::string(path) + "\n"), path);
  BOOST_TEST(!has(contents.out, "./usr/etc/"), "the configuration belongs in /etc/cafka only");
  auto control = run({"/usr/bin/dpkg-deb", "-I", deb}, "", 60s);
  BOOST_TEST(has(control.out, "Package: cafka"), control.out);
  BOOST_TEST(has(control.out, "libcaf-core0.17"), control.out);
  auto conffiles = run({"/usr/bin/dpkg-deb", "-I", deb, "conffiles"}, "", 60s);
  BOOST_TEST(conffiles.out == "/etc/cafka/server.properties\n", show(conffiles));
}

BOOST_AUTO_TEST_SUITE_END()
