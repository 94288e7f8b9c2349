#!/usr/bin/env bash
# The README's run command: set up, build, and start a single node with
# config/server.properties on the embedded coordinator (no ZooKeeper). Extra arguments
# go to the server, e.g. --override log.dirs=/tmp/elsewhere. Stop it with Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
exec build/bin/cafka-server config/server.properties "$@"
