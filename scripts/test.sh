#!/usr/bin/env bash
# Builds dynapage and runs every test: the GoogleTest unit and HTTP tests (ctest), the conformance suite against a
# fresh server, then the boto3 / AWS CLI tests against the built binary (pytest), then the JavaScript SDK tests
# (node --test). On a fresh Debian 12 machine, run as
# root: it installs what it needs.
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

install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}" "${DYNAPAGE_TEST_PACKAGES[@]}" "${DYNAPAGE_JS_PACKAGES[@]}"

# The same build command as scripts/run.sh and the Dockerfile.
JOBS="$JOBS" BUILD_DIR="$BUILD_DIR" bash scripts/build.sh

status=0
(cd "$BUILD_DIR" && ctest --output-on-failure -j "$JOBS") || status=1

# --- The conformance suite (conformance/) against a freshly started dynapage: the same binary that runs against
# real DynamoDB with credentials. The server takes a free port and prints it in its ready line.
conformance_log="$(mktemp)"
"$BUILD_DIR/dynapage" --port 0 >"$conformance_log" 2>&1 &
conformance_pid=$!
port=""
for _ in $(seq 1 200); do
  port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$conformance_log")"
  [ -n "$port" ] && break
  sleep 0.05
done
if [ -n "$port" ]; then
  DYNAPAGE_ENDPOINT="http://127.0.0.1:$port" "$BUILD_DIR/conformance/dynapage_conformance" || status=1
else
  echo "scripts/test.sh: dynapage did not start for the conformance suite" >&2
  cat "$conformance_log" >&2
  status=1
fi
kill "$conformance_pid" 2>/dev/null || true
wait "$conformance_pid" 2>/dev/null || true
rm -f "$conformance_log"

# Debian's python3 has python3-boto3 and python3-pytest; a python3 earlier on PATH (pyenv, venv) may not.
PYTHON="${PYTHON:-}"
if [ -z "$PYTHON" ]; then
  if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi
PYTHONDONTWRITEBYTECODE=1 DYNAPAGE_BIN="$PWD/$BUILD_DIR/dynapage" "$PYTHON" -m pytest -q --tb=short -p no:cacheprovider tests/python || status=1

# --- JavaScript SDK tests (tests/js): the pinned npm packages into tests/js/node_modules (ignored by git; reinstalled
# only when tests/js/package-lock.json changes), then node's test runner. Each test file starts its own dynapage.
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  if cmp -s tests/js/package-lock.json tests/js/node_modules/.dynapage-installed-lock ||
     { npm ci --prefix tests/js --ignore-scripts --no-audit --no-fund --loglevel=error &&
       cp tests/js/package-lock.json tests/js/node_modules/.dynapage-installed-lock; }; then
    DYNAPAGE_BIN="$PWD/$BUILD_DIR/dynapage" node --test tests/js/*.test.js || status=1
  else
    echo "scripts/test.sh: npm ci in tests/js failed" >&2
    status=1
  fi
else
  echo "scripts/test.sh: node/npm not found: JavaScript SDK tests (tests/js) NOT run" >&2
  if [ -n "${CI:-}" ]; then status=1; fi
fi

if [ "$status" -ne 0 ]; then
  echo "scripts/test.sh: some tests failed (see above)" >&2
fi
exit "$status"
