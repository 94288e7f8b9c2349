#!/usr/bin/env bash
# Fuzzes a running server built with AddressSanitizer + UndefinedBehaviorSanitizer:
# scripts/fuzz.sh [N] [SEED] drives N mutated requests (default 1,000,000) of every served
# API through it with cafka-fuzz-client, beside checked librdkafka traffic, and fails if
# the server crashes, reports an error, stops answering or loses a record.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-1000000}
seed=${2:-1}
scripts/setup.sh
CAFKA_BUILD_DIR=build-sanitize scripts/build.sh -DCAFKA_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
CAFKA_FUZZ_REQUESTS=$requests CAFKA_FUZZ_SEED=$seed \
ASAN_OPTIONS=detect_leaks=1 \
LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$PWD/scripts/ubsan.supp" \
  build-sanitize/bin/integration_tests --run_test=fuzz_requests --log_level=message --report_level=short
