#!/usr/bin/env bash
# A local cluster on loopback: one ZooKeeper server (Debian's zookeeper package, in the
# foreground with its own config and data dir) and N cafka brokers, each with its own log dir.
#
#   scripts/cluster.sh start N        ZooKeeper + brokers 1..N (builds first if needed)
#   scripts/cluster.sh stop           stops exactly the processes it started, by PID
#   scripts/cluster.sh status         what runs, with ports and PIDs
#   scripts/cluster.sh stop-broker I  stops broker I (SIGTERM; --kill for SIGKILL)
#   scripts/cluster.sh start-broker I starts broker I again (same log dir, same ports)
#
# Ports: ZooKeeper $CAFKA_ZK_PORT (2181); broker I: Kafka listener $CAFKA_KAFKA_BASE+I
# (9100+I), caf.port $CAFKA_CAF_BASE+I (9200+I), metrics.listener $CAFKA_METRICS_BASE+I (9640+I).
# Everything lives in $CAFKA_CLUSTER_DIR
# (/tmp/cafka-cluster): zk/ (config, data, log), broker-I/ (logs, server.log), *.pid.
# Brokers use zookeeper.connect=127.0.0.1:PORT/cafka (a chroot).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

dir=${CAFKA_CLUSTER_DIR:-/tmp/cafka-cluster}
zk_port=${CAFKA_ZK_PORT:-2181}
kafka_base=${CAFKA_KAFKA_BASE:-9100}
caf_base=${CAFKA_CAF_BASE:-9200}
metrics_base=${CAFKA_METRICS_BASE:-9640}
server_bin=${CAFKA_SERVER_BIN:-$root/build/bin/cafka-server}
zk_server_sh=/usr/share/zookeeper/bin/zkServer.sh

die() { echo "cluster.sh: $*" >&2; exit 1; }

alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# Waits (bounded) until host:port accepts a connection.
wait_port() {
  local port=$1 what=$2 pid_file=$3
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    alive "$pid_file" || die "$what exited during start (see its log in $dir)"
    sleep 0.1
  done
  die "$what does not answer on port $port after 30 s"
}

# SIGTERM (or the given signal), then SIGKILL after 30 s; removes the pid file.
stop_pid_file() {
  local pid_file=$1 signal=${2:-TERM}
  alive "$pid_file" || { rm -f "$pid_file"; return 0; }
  local pid; pid=$(cat "$pid_file")
  kill "-$signal" "$pid"
  for _ in $(seq 1 300); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pid_file"; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pid_file"
}

start_zookeeper() {
  alive "$dir/zk.pid" && return 0
  mkdir -p "$dir/zk/data"
  cat >"$dir/zk/zoo.cfg" <<EOF
tickTime=500
dataDir=$dir/zk/data
clientPort=$zk_port
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=ruok,stat,mntr
minSessionTimeout=1000
maxSessionTimeout=60000
EOF
  # start-foreground execs java, so $! is the server's PID.
  ZOOCFGDIR=$dir/zk ZOO_LOG_DIR=$dir/zk JVMFLAGS="-Xmx256m -XX:+UseSerialGC" \
    setsid "$zk_server_sh" start-foreground "$dir/zk/zoo.cfg" >"$dir/zk/server.log" 2>&1 </dev/null &
  echo $! >"$dir/zk.pid"
  wait_port "$zk_port" "ZooKeeper" "$dir/zk.pid"
  echo "zookeeper: 127.0.0.1:$zk_port (pid $(cat "$dir/zk.pid"))"
}

start_broker() {
  local id=$1
  local pid_file=$dir/broker-$id.pid
  alive "$pid_file" && return 0
  mkdir -p "$dir/broker-$id/logs"
  local kafka_port=$((kafka_base + id)) caf_port=$((caf_base + id)) metrics_port=$((metrics_base + id))
  setsid "$server_bin" "$root/config/server.properties" \
    --override "broker.id=$id" \
    --override "listeners=PLAINTEXT://127.0.0.1:$kafka_port" \
    --override "caf.port=$caf_port" \
    --override "metrics.listener=127.0.0.1:$metrics_port" \
    --override "log.dirs=$dir/broker-$id/logs" \
    --override "zookeeper.connect=127.0.0.1:$zk_port/cafka" \
    >"$dir/broker-$id/server.log" 2>&1 </dev/null &
  echo $! >"$pid_file"
  wait_port "$kafka_port" "broker $id" "$pid_file"
  echo "broker $id: kafka 127.0.0.1:$kafka_port, caf 127.0.0.1:$caf_port, metrics 127.0.0.1:$metrics_port (pid $(cat "$pid_file"))"
}

# The ids of the brokers started here (running or not): one folder each.
brokers() {
  local d
  for d in "$dir"/broker-*/; do
    [[ -d $d ]] || continue
    d=${d%/}
    echo "${d##*/broker-}"
  done | sort -n
}

cmd=${1:-}
case $cmd in
  start)
    n=${2:-3}
    [[ $n =~ ^[1-9][0-9]?$ ]] || die "start N: N must be 1..99, not '$n'"
    [[ -x $zk_server_sh ]] || scripts/setup.sh
    [[ -x $server_bin ]] || scripts/build.sh
    mkdir -p "$dir"
    start_zookeeper
    for id in $(seq 1 "$n"); do start_broker "$id"; done
    bootstrap=$(for id in $(seq 1 "$n"); do printf '127.0.0.1:%d,' $((kafka_base + id)); done)
    echo "bootstrap.servers=${bootstrap%,}"
    ;;
  stop)
    for id in $(brokers); do stop_pid_file "$dir/broker-$id.pid"; done
    stop_pid_file "$dir/zk.pid"
    echo "stopped"
    ;;
  status)
    if alive "$dir/zk.pid"; then
      echo "zookeeper: 127.0.0.1:$zk_port (pid $(cat "$dir/zk.pid"))"
    else
      echo "zookeeper: not running"
    fi
    for id in $(brokers); do
      if alive "$dir/broker-$id.pid"; then
        echo "broker $id: kafka 127.0.0.1:$((kafka_base + id)), caf 127.0.0.1:$((caf_base + id)) (pid $(cat "$dir/broker-$id.pid"))"
      else
        echo "broker $id: not running"
      fi
    done
    ;;
  stop-broker)
    id=${2:-}
    [[ $id =~ ^[0-9]+$ ]] || die "stop-broker I: I must be a broker id"
    signal=TERM
    [[ ${3:-} == --kill ]] && signal=KILL
    stop_pid_file "$dir/broker-$id.pid" "$signal"
    echo "broker $id stopped ($signal)"
    ;;
  start-broker)
    id=${2:-}
    [[ $id =~ ^[0-9]+$ ]] || die "start-broker I: I must be a broker id"
    alive "$dir/zk.pid" || die "ZooKeeper is not running: scripts/cluster.sh start N first"
    start_broker "$id"
    ;;
  *)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    [[ -z $cmd ]] || exit 2
    ;;
esac
