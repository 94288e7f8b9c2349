#!/usr/bin/env bash
# Replication benchmark: three local brokers (scripts/cluster.sh in a folder and on ports of
# its own), cafka-perf (librdkafka) producing 100-byte records, in one run:
#   1. acks=1   to replication factor 1
#   2. acks=1   to replication factor 3
#   3. acks=all to replication factor 3, min.insync.replicas=2
# then produce-to-consume latency at 20,000 records/s with acks=all to replication factor 3.
# Each topic has one partition, led by broker 1's neighbours as placement decides.
#
#   bench/replication_bench.sh [RECORDS]      (default 2,000,000)
#
# Prints cafka-perf's lines; stops every process it started. Figures, never assertions.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-2000000}
export CAFKA_CLUSTER_DIR=${CAFKA_CLUSTER_DIR:-/tmp/cafka-replication-bench}
export CAFKA_ZK_PORT=${CAFKA_ZK_PORT:-2191}
export CAFKA_KAFKA_BASE=${CAFKA_KAFKA_BASE:-9310}
export CAFKA_CAF_BASE=${CAFKA_CAF_BASE:-9410}
perf=build/bin/cafka-perf
[[ -x $perf ]] || scripts/build.sh
rm -rf "$CAFKA_CLUSTER_DIR"
trap 'scripts/cluster.sh stop >/dev/null' EXIT
scripts/cluster.sh start 3 >/dev/null
bootstrap=127.0.0.1:$((CAFKA_KAFKA_BASE + 1)),127.0.0.1:$((CAFKA_KAFKA_BASE + 2)),127.0.0.1:$((CAFKA_KAFKA_BASE + 3))

run() {
  local label=$1
  shift
  echo "### $label"
  "$perf" --bootstrap-server "$bootstrap" --record-size 100 "$@" | grep -v '^==' || true
}

run "acks=1, replication factor 1" --topic rf1 --records "$records" --acks 1 --phases produce
run "acks=1, replication factor 3" --topic rf3-acks1 --replication-factor 3 --records "$records" --acks 1 \
  --phases produce
run "acks=all, replication factor 3, min.insync.replicas=2" --topic rf3-acksall --replication-factor 3 \
  --topic-config min.insync.replicas=2 --records "$records" --acks all --phases produce
run "latency: acks=all, replication factor 3, min.insync.replicas=2, 20000 records/s" --topic rf3-latency \
  --replication-factor 3 --topic-config min.insync.replicas=2 --acks all --phases latency --rate 20000 \
  --seconds 10 --linger-ms 0
