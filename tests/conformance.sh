#!/usr/bin/env bash
# Runs the conformance suite (conformance/) against a freshly started dynapage (ctest's conformance test):
#
#   bash tests/conformance.sh DYNAPAGE_BINARY CONFORMANCE_BINARY
#
# The server takes a free port and prints it in its ready line; the suite reads DYNAPAGE_ENDPOINT.
set -euo pipefail
server=$1
suite=$2
log="$(mktemp)"
"$server" --port 0 >"$log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
port=""
for _ in $(seq 1 200); do
  port="$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log")"
  [ -n "$port" ] && break
  sleep 0.05
done
if [ -z "$port" ]; then
  echo "tests/conformance.sh: dynapage did not start" >&2
  cat "$log" >&2
  exit 1
fi
DYNAPAGE_ENDPOINT="http://127.0.0.1:$port" "$suite"
