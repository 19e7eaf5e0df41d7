#!/usr/bin/env bash
# Builds dynapage and starts it in memory on http://127.0.0.1:8000. On a fresh Debian 12 machine, run as root: it
# installs what it needs. Extra arguments go to dynapage and win over the defaults, e.g.
#
#   bash scripts/run.sh
#   bash scripts/run.sh --port 9000 --db-path /var/lib/dynapage
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

# The same build command as scripts/test.sh (CI) and the Dockerfile.
JOBS="$JOBS" BUILD_DIR="$BUILD_DIR" bash scripts/build.sh dynapage
exec "$BUILD_DIR/dynapage" --port 8000 "$@"
