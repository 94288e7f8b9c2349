#!/usr/bin/env bash
# The README's test command: set up, build, and run every test through ctest; then the
# same tests again in an AddressSanitizer + UndefinedBehaviorSanitizer build.
# Non-zero exit on any failure.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

scripts/build.sh
ctest --test-dir build --output-on-failure -j "$jobs"

CAFKA_BUILD_DIR=build-sanitize scripts/build.sh -DCAFKA_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
# UBSan reports are fatal (halt_on_error); scripts/ubsan.supp and scripts/lsan.supp list
# third-party findings.
# The end-to-end suite (real server processes, timing-dependent volumes) runs in the
# optimized build only.
ASAN_OPTIONS=detect_leaks=1 \
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan.supp" \
  ctest --test-dir build-sanitize --output-on-failure -j "$jobs" -E integration_tests
# Two end-to-end suites run there too, against the sanitizer build's server with ASan/UBSan
# watching: hostile bytes to every port (docs/security.md) and 20,000 fuzzed requests
# (scripts/fuzz.sh N runs more).
ASAN_OPTIONS=detect_leaks=1 \
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan.supp" \
  build-sanitize/bin/integration_tests --run_test=hostile_bytes:fuzz_requests --log_level=message --report_level=short
