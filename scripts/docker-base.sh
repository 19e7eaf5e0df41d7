#!/usr/bin/env bash
# Makes the debian:12 image the Dockerfile's build stage starts from, where no image registry is reachable:
# debootstrap lays out a minimal Debian 12 from Debian's package mirror, and `docker import` makes it an image.
#
#   bash scripts/docker-base.sh          # then: docker build -t dynapage .
set -euo pipefail
cd "$(dirname "$0")/.."
if docker image inspect debian:12 >/dev/null 2>&1; then
  echo "scripts/docker-base.sh: debian:12 is already there"
  exit 0
fi
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
install_packages debootstrap
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
tar -C "$root" -c . | docker import - debian:12
echo "scripts/docker-base.sh: made debian:12"
