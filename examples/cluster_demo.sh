#!/usr/bin/env bash
# A 3-broker cluster on one machine with scripts/cluster.sh: creates a 6-partition topic,
# produces 600 keyed records with kcat through one broker's address, shows Metadata (brokers,
# controller, leaders), kills one broker with SIGKILL and shows its partitions unavailable
# (leader -1, "Leader not available") once its ZooKeeper session has expired, restarts it,
# consumes every record back and stops the cluster (also on failure or Ctrl-C).
#
#   examples/cluster_demo.sh
#
# It uses its own folder and ports, so it does not disturb a cluster started by hand:
# CAFKA_CLUSTER_DIR (/tmp/cafka-cluster-demo), CAFKA_ZK_PORT (2281), CAFKA_KAFKA_BASE (9500:
# brokers on 9501..9503), CAFKA_CAF_BASE (9600: caf.port 9601..9603). The brokers use
# config/server.properties, so the killed broker disappears after zookeeper.session.timeout.ms
# (18 s there). Every wait is bounded; the script exits non-zero if a step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

export CAFKA_CLUSTER_DIR=${CAFKA_CLUSTER_DIR:-/tmp/cafka-cluster-demo}
export CAFKA_ZK_PORT=${CAFKA_ZK_PORT:-2281}
export CAFKA_KAFKA_BASE=${CAFKA_KAFKA_BASE:-9500}
export CAFKA_CAF_BASE=${CAFKA_CAF_BASE:-9600}
topics_bin=${CAFKA_TOPICS_BIN:-build/bin/cafka-topics}
topic=demo
records=600
victim=3
bootstrap=127.0.0.1:$((CAFKA_KAFKA_BASE + 1))

step() { printf '\n== %s\n' "$*"; }
die() { echo "cluster_demo.sh: $*" >&2; exit 1; }

# Polls "$@" (quietly) twice a second for at most $limit seconds.
wait_for() {
  local limit=$1; shift
  for _ in $(seq 1 $((limit * 2))); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  return 1
}
metadata() { kcat -b "$bootstrap" -L -t "$topic"; }
all_led() { metadata | grep -c 'leader [0-9]' | grep -qx 6; }
victim_gone() { ! kcat -b "$bootstrap" -L | grep -q "broker $victim at"; }
victim_unavailable() { metadata | grep -q 'leader -1'; }

[[ -d $CAFKA_CLUSTER_DIR ]] && scripts/cluster.sh status | grep -q 'pid' \
  && die "a cluster already runs in $CAFKA_CLUSTER_DIR (scripts/cluster.sh stop with that CAFKA_CLUSTER_DIR)"
rm -rf "$CAFKA_CLUSTER_DIR" # a fresh cluster: no topic left from an earlier run
trap 'step "stopping the cluster"; scripts/cluster.sh stop' EXIT

step "starting ZooKeeper and 3 brokers"
scripts/cluster.sh start 3
scripts/cluster.sh status

step "creating topic $topic (6 partitions) through broker 1's Kafka listener"
"$topics_bin" --bootstrap-server "127.0.0.1:$((CAFKA_KAFKA_BASE + 1))" --create --topic "$topic" \
  --partitions 6 --replication-factor 1
wait_for 60 all_led || die "not every partition has a leader"

step "producing $records keyed records with kcat through $bootstrap only"
for i in $(seq 1 "$records"); do echo "key-$((i % 17)):value-$i"; done \
  | kcat -b "$bootstrap" -P -t "$topic" -K: -X message.timeout.ms=60000

step "Metadata through $bootstrap: every broker, the controller, the leaders (2 per broker)"
metadata

step "kill -9 of broker $victim; waiting for its ZooKeeper session to expire"
scripts/cluster.sh stop-broker "$victim" --kill
wait_for 90 victim_gone || die "broker $victim still listed"
wait_for 30 victim_unavailable || die "broker $victim's partitions still have a leader"
metadata

step "restarting broker $victim (same broker.id, same log dir)"
scripts/cluster.sh start-broker "$victim"
wait_for 60 all_led || die "broker $victim's partitions did not come back"
metadata

step "consuming everything back"
count=$(kcat -b "$bootstrap" -C -t "$topic" -e -o beginning -q -f '%s\n' | wc -l)
echo "consumed $count of $records records"
[[ $count -eq $records ]] || die "expected $records records, got $count"
echo "cluster demo ok"
