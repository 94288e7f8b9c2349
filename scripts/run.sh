#!/usr/bin/env bash
# The README's run command: set up, build, and start a single node with
# config/server.properties on the embedded coordinator. Extra arguments are passed to
# the server (e.g. --override log.dirs=/tmp/x).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
if [ -x build/bin/cafka-server ]; then
  exec build/bin/cafka-server config/server.properties "$@"
fi
# Until the server exists (issue 3), the run command checks the configuration and the
# storage engine: it validates config/server.properties and runs the storage benchmark.
build/bin/cafka-check-config config/server.properties "$@"
exec build/bin/storage_bench --quick
