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

if ! docker info >/dev/null 2>&1; then
  if ! command -v dockerd >/dev/null 2>&1; then
    # shellcheck source=scripts/deps.sh
    source scripts/deps.sh
    install_packages docker.io >/dev/null || skip "Debian's docker.io could not be installed"
  fi
  command -v dockerd >/dev/null 2>&1 || skip "no dockerd"
  echo "scripts/docker-test.sh: starting dockerd (log in /tmp/dynapage-dockerd.log)"
  (dockerd >/tmp/dynapage-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 0.5
  done
  docker info >/dev/null 2>&1 || skip "Docker's engine did not start: $(tail -3 /tmp/dynapage-dockerd.log | tr '\n' ' ')"
fi

context=$(mktemp -d "${TMPDIR:-/tmp}/dynapage-docker.XXXXXX")
trap 'rm -rf "$context"' EXIT
bash scripts/docker-rootfs.sh "$binary" "$context/rootfs"
# The runtime stage, taking its files from the context instead of the build stage.
sed -n '/^# --- runtime/,$p' Dockerfile | sed -e 's|COPY --from=build |COPY |' -e 's| /rootfs/| rootfs/|' \
  >"$context/Dockerfile"
image=dynapage:ci
docker build -q -t "$image" "$context" >"$context/build.log" 2>&1 || { cat "$context/build.log"; exit 1; }
echo "scripts/docker-test.sh: built $image ($(docker image inspect -f '{{.Size}}' "$image") bytes)"

python=/usr/bin/python3
[ -x "$python" ] || python=python3
DYNAPAGE_IMAGE="$image" PYTHONDONTWRITEBYTECODE=1 "$python" -m pytest -q --tb=short -p no:cacheprovider \
  tests/sdk/python/test_container.py
