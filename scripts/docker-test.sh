#!/usr/bin/env bash
# The container in CI: builds the image's runtime stage (the Dockerfile's, after "# --- runtime") around the binary
# CI already built, so it costs seconds, then runs tests/sdk/python/test_container.py against containers of it:
# the SDK smoke calls, DynamoDB Local's command lines, persistence across a restart with a volume, size, user and
# start-up time.
#
#   bash scripts/docker-test.sh [BINARY]        # default build/dynapage
#
# Starts Docker's engine if none answers (installing Debian's docker.io if need be). Where no engine can start
# (no privileges for it, say), it says so and skips: exit 0, with "SKIPPED" in the output.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-${BUILD_DIR:-build}/dynapage}"

skip() {
  echo "scripts/docker-test.sh: SKIPPED: the container tests did not run: $*"
  exit 0
}

# shellcheck source=scripts/docker-engine.sh
source scripts/docker-engine.sh
ensure_docker_engine || skip "$DOCKER_ENGINE_PROBLEM"

context=$(mktemp -d "${TMPDIR:-/tmp}/dynapage-docker.XXXXXX")
trap 'rm -rf "$context"' EXIT
bash scripts/docker-context.sh "$binary" "$context"
image=dynapage:ci
docker build -q -t "$image" "$context" >"$context/build.log" 2>&1 || { cat "$context/build.log"; exit 1; }
echo "scripts/docker-test.sh: built $image ($(docker image inspect -f '{{.Size}}' "$image") bytes)"

python=/usr/bin/python3
[ -x "$python" ] || python=python3
DYNAPAGE_IMAGE="$image" PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q --tb=short -p no:cacheprovider \
  tests/sdk/python/test_container.py
