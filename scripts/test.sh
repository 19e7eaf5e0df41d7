#!/usr/bin/env bash
# Builds dynapage and runs every test: the GoogleTest unit and HTTP tests (ctest), then the boto3 / AWS CLI smoke
# tests against the built binary (pytest). On a fresh Debian 12 machine, run as root: it installs what it needs.
#
#   bash scripts/test.sh
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}" "${DYNAPAGE_TEST_PACKAGES[@]}"

cmake -S . -B "$BUILD_DIR" -DDYNAPAGE_BUILD_TESTS=ON
cmake --build "$BUILD_DIR" -j "$JOBS"

status=0
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS") || status=1

# Debian's python3 has python3-boto3 and python3-pytest; a python3 earlier on PATH (pyenv, venv) may not.
PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
  if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
PYTHONDONTWRITEBYTECODE=1 DYNAPAGE_BIN="$PWD/$BUILD_DIR/dynapage" "$PYTHON" -m pytest -q --tb=short -p no:cacheprovider tests/python || status=1

if [ "$status" -ne 0 ]; then
  echo "scripts/test.sh: some tests failed (see above)" >&2
fi
exit "$status"
