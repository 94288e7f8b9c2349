#!/usr/bin/env bash
# Reassignment benchmark: how fast a partition's data moves to another broker. Two local
# brokers (scripts/cluster.sh in a folder and on ports of its own); cafka-perf produces
# RECORDS records of 1,000 bytes (acks=1) into a one-partition topic on broker 1;
# cafka-reassign-partitions then moves the partition to broker 2, and --verify is polled
# every 100 ms until it is complete. Prints the size moved, the time and the rate: the copy
# is as fast as the new replica fetches, or (THROTTLE=bytes/s) as --throttle allows.
#
#   bench/reassignment_bench.sh [RECORDS]      (default 300,000: about 300 MB)
#   THROTTLE=20000000 bench/reassignment_bench.sh 100000
#
# Stops every process it started. Figures, never assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-300000}
export CAFKA_CLUSTER_DIR=${CAFKA_CLUSTER_DIR:-/tmp/cafka-reassignment-bench}
export CAFKA_ZK_PORT=${CAFKA_ZK_PORT:-2192}
export CAFKA_KAFKA_BASE=${CAFKA_KAFKA_BASE:-9510}
export CAFKA_CAF_BASE=${CAFKA_CAF_BASE:-9610}
[[ -x build/bin/cafka-perf && -x build/bin/cafka-reassign-partitions ]] || scripts/build.sh
rm -rf "$CAFKA_CLUSTER_DIR"
trap 'scripts/cluster.sh stop >/dev/null' EXIT
scripts/cluster.sh start 2 >/dev/null
kafka=127.0.0.1:$((CAFKA_KAFKA_BASE + 1))
build/bin/cafka-topics --bootstrap-server "$kafka" --create --topic moving \
  --replica-assignment 1 >/dev/null
build/bin/cafka-perf --bootstrap-server "$kafka" --topic moving --records "$records" --record-size 1000 --acks 1 \
  --phases produce | grep -E '^produce'
bytes=$(du -sb "$CAFKA_CLUSTER_DIR/broker-1/logs/moving-0" | cut -f1)
plan=$CAFKA_CLUSTER_DIR/plan.json
echo '{"version":1,"partitions":[{"topic":"moving","partition":0,"replicas":[2]}]}' > "$plan"
start=$(date +%s.%N)
throttle=()
[[ -n "${THROTTLE:-}" ]] && throttle=(--throttle "$THROTTLE")
build/bin/cafka-reassign-partitions --bootstrap-server "$kafka" --execute --reassignment-json-file "$plan" \
  "${throttle[@]}" >/dev/null
for _ in $(seq 1 6000); do
  if build/bin/cafka-reassign-partitions --bootstrap-server "$kafka" --verify --reassignment-json-file "$plan" |
    grep -q 'is complete'; then
    end=$(date +%s.%N)
    awk -v b="$bytes" -v s="$start" -v e="$end" \
      'BEGIN { t = e - s; printf "reassignment: %.1f MB moved from broker 1 to broker 2 in %.2f s: %.1f MB/s\n", b / 1e6, t, b / 1e6 / t }'
    [[ -z "${THROTTLE:-}" ]] || echo "reassignment: with --throttle ${THROTTLE} B/s"
    exit 0
  fi
  sleep 0.1
done
echo "reassignment: not complete after 600 s" >&2
exit 1
