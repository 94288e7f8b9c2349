#!/usr/bin/env bash
# Installs every Debian package cafka needs to build, test and benchmark. Idempotent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcaf-dev            # C++ Actor Framework 0.17
  libzookeeper-mt-dev   # ZooKeeper C client
  zookeeper             # ZooKeeper server for integration tests
  liblz4-dev            # LZ4 frame codec
  zlib1g-dev            # gzip record codec
  libsnappy-dev         # snappy record codec
  libzstd-dev           # zstd record codec
  libssl-dev            # OpenSSL libcrypto: HMAC-SHA-256 of caf.port's handshake
  libboost-test-dev     # Boost.Test
  kcat librdkafka-dev python3-kafka   # real Kafka clients for compatibility tests
  nodejs                # runs kafkajs (from npm, below) in the integration tests
  curl                  # scrapes the metrics endpoint in the integration tests
  iproute2              # ss -K: the integration tests reset client connections with it
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm comes with some nodejs builds; Debian's own nodejs needs its npm package.
command -v npm >/dev/null 2>&1 || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
else
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -q
  "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# kafkajs, the fourth client family of the integration tests (tests/integration/kafkajs_test.cpp),
# pinned, into .node/ of the source tree.
kafkajs_version=2.2.4
node_dir="$(cd "$(dirname "$0")/.." && pwd)/.node"
installed=$(sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' "$node_dir/node_modules/kafkajs/package.json" 2>/dev/null || true)
if [ "$installed" != "$kafkajs_version" ]; then
  mkdir -p "$node_dir"
  npm install --prefix "$node_dir" --no-audit --no-fund --no-save --silent "kafkajs@$kafkajs_version"
  echo "setup: kafkajs $kafkajs_version installed in $node_dir"
fi
