#!/usr/bin/env bash
# Chaos test of replication with real processes (issue point 8): builds the integration
# tests (CAFKA_BUILD_DIR picks the build folder, default build/) and runs the
# integration test replication/chaos (tests/integration/replication_test.cpp): ZooKeeper and
# three cafka-server brokers on 127.0.0.1 (free ports, a scratch folder, every process stopped
# by PID), a topic of 3 partitions with replication factor 3 and min.insync.replicas=2, and a
# librdkafka producer (acks=all) producing all along while N rounds of random faults hit the
# cluster: kill -9 of a partition's leader or of a follower, SIGTERM of a leader, ZooKeeper
# stopped for 2-5 s, a broker killed while ZooKeeper is down, a leader and then its successor
# killed (the last in-sync replica leads alone for a while). After each fault it waits
# (bounded) for the fail-over, restarts the broker and waits until every replica is back in
# the ISR. Then kcat and kafka-python read everything back and every replica's segments are
# compared.
#
#   scripts/chaos.sh 30            # 30 rounds from a random seed (printed, to repeat the run)
#   scripts/chaos.sh 30 12345      # the same fault schedule again (timing still varies)
#
# Prints every step, then the summary: rounds, acknowledged, lost (must be 0), duplicates
# (allowed: the producer is not idempotent), offset gaps, divergent replicas and the longest
# time a partition went without an acknowledgement. Exit status non-zero on a lost
# acknowledged record or any other failed check. Each round takes about 10 s.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ $# -lt 1 || $# -gt 2 || ! $1 =~ ^[1-9][0-9]*$ || ( $# -eq 2 && ! ${2:-} =~ ^[0-9]+$ ) ]]; then
  echo "usage: scripts/chaos.sh N [SEED]   (N >= 1 rounds of faults; SEED a non-negative number)" >&2
  exit 2
fi
rounds=$1
seed=${2:-$(( (RANDOM << 15 | RANDOM) ))}
echo "chaos: $rounds rounds, seed $seed"
build_dir=${CAFKA_BUILD_DIR:-build}
# The test binary and what it runs (cafka-server, cafka-topics: its build dependencies) only.
cmake -S . -B "$build_dir" -G Ninja >/dev/null
ninja -C "$build_dir" integration_tests
log=$(mktemp /tmp/cafka-chaos-XXXXXX.log)
status=0
CAFKA_CHAOS_ROUNDS=$rounds CAFKA_CHAOS_SEED=$seed \
  "$build_dir/bin/integration_tests" --run_test=replication/chaos --log_level=message --report_level=short --color_output=false \
  2>&1 | tee "$log" || status=$?
echo
if summary=$(grep -m1 'replication summary:' "$log"); then
  echo "${summary#*replication summary: }"
else
  echo "chaos: no summary (the run stopped early; see above)"
fi
if [[ $status -ne 0 ]]; then
  echo "chaos: FAILED (seed $seed; log $log)"
  exit "$status"
fi
rm -f "$log"
echo "chaos: ok"
