#!/usr/bin/env bash
# Soak test of the in-process cluster simulation (docs/simulation.md, issue 7): builds
# cafka (scripts/build.sh) and runs N randomized scenarios (tests/client/sim_runner_test.cpp),
# seeds FIRST .. FIRST+N-1. FIRST defaults to a random start, printed so that the run can
# be repeated. Stops at the first failing seed and prints its report and replay command.
#
#   scripts/soak.sh 1000          # 1000 seeds from a random start
#   scripts/soak.sh 500 123456    # seeds 123456 .. 123955
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || $# -gt 2 || ! $1 =~ ^[0-9]+$ || ( $# -eq 2 && ! ${2:-} =~ ^[0-9]+$ ) ]]; then
  echo "usage: scripts/soak.sh N [FIRST]   (N seeds, from FIRST or a random start; both non-negative numbers)" >&2
  exit 2
fi
count=$1
first=${2:-$(( (RANDOM << 15 | RANDOM) + 1000 ))}
echo "soak: seeds $first .. $((first + count - 1))"
scripts/build.sh
build_dir=${CAFKA_BUILD_DIR:-build}
CAFKA_SIM_FIRST_SEED=$first CAFKA_SIM_SEEDS=$count \
  "$build_dir/bin/client_tests" --run_test=sim_runner/random_seeds --log_level=message --report_level=short
