#!/usr/bin/env bash
# Lays out a build context for the image around a built binary, for a `docker build` that compiles nothing
# (seconds): DIR/rootfs (scripts/docker-rootfs.sh) and DIR/Dockerfile, the runtime stage of the Dockerfile (after
# "# --- runtime") taking its files from the context instead of the build stage. One runtime stage for both images:
# the source build's and the release one's.
#
#   bash scripts/docker-context.sh BINARY DIR       # then: docker build -t TAG DIR
# Used by scripts/package.sh (the release image, from the static binary) and scripts/docker-test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=$1
context=$2
rm -rf "$context/rootfs"
mkdir -p "$context"
bash scripts/docker-rootfs.sh "$binary" "$context/rootfs"
sed -n '/^# --- runtime/,$p' Dockerfile | sed -e 's|COPY --from=build |COPY |' -e 's| /rootfs/| rootfs/|' \
  >"$context/Dockerfile"
