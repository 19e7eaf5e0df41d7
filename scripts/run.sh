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
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}"
cmake -S . -B "$BUILD_DIR"
cmake --build "$BUILD_DIR" -j "$JOBS" --target dynapage
exec "$BUILD_DIR/dynapage" --port 8000 "$@"
