#!/usr/bin/env bash
# Replication benchmark: three local brokers (scripts/cluster.sh in a folder and on ports of
# its own), cafka-perf (librdkafka) producing 100-byte records, in one run:
#   1. acks=1   to replication factor 1
#   2. acks=1   to replication factor 3
#   3. acks=all to replication factor 3, min.insync.replicas=2
# then produce-to-consume latency at 20,000 records/s with acks=all to replication factor 3.
# Each topic has one partition, led by broker 1's neighbours as placement decides.
# Each run is preceded by a warm-up of 20,000 acks=all records to its topic (created then),
# not measured: the figures are those of a topic whose followers already fetch. A new
# partition's followers start fetching only when their fetcher's long poll to that leader
# comes back (up to replica.fetch.wait.max.ms, 500 ms; Kafka's fetcher threads do the same),
# which a short run would otherwise count as replication time.
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

# run LABEL "TOPIC OPTIONS" MEASURED-OPTIONS...: the warm-up, then the measured run.
run() {
  local label=$1 topic_options=$2
  shift 2
  echo "### $label"
  # shellcheck disable=SC2086 # the topic options are words
  "$perf" --bootstrap-server "$bootstrap" --record-size 100 $topic_options --records 20000 --acks all \
    --phases produce >/dev/null
  # shellcheck disable=SC2086
  "$perf" --bootstrap-server "$bootstrap" --record-size 100 $topic_options "$@" | grep -v '^==' || true
}

run "acks=1, replication factor 1" "--topic rf1" --records "$records" --acks 1 --phases produce
run "acks=1, replication factor 3" "--topic rf3-acks1 --replication-factor 3" --records "$records" --acks 1 \
  --phases produce
run "acks=all, replication factor 3, min.insync.replicas=2" \
  "--topic rf3-acksall --replication-factor 3 --topic-config min.insync.replicas=2" --records "$records" \
  --acks all --phases produce
sync # the throughput runs' dirty pages: written back now, not during the latency run
run "latency: acks=all, replication factor 3, min.insync.replicas=2, 20000 records/s" \
  "--topic rf3-latency --replication-factor 3 --topic-config min.insync.replicas=2" --acks all \
  --phases latency --rate 20000 --seconds 10 --linger-ms 0
