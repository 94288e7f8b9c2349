#!/usr/bin/env bash
# Installs every Debian package cafka needs to build, test and benchmark. Idempotent.
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config
  libcaf-dev            # C++ Actor Framework 0.17
  libzookeeper-mt-dev   # ZooKeeper C client
  zookeeper             # ZooKeeper server for integration tests
  liblz4-dev            # LZ4 frame codec
  libssl-dev            # OpenSSL libcrypto: HMAC-SHA-256 of caf.port's handshake
  libboost-test-dev     # Boost.Test
  kcat librdkafka-dev python3-kafka   # real Kafka clients for compatibility tests
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
