#!/usr/bin/env bash
# Installs the Debian build packages and builds with CMake: the one build command, shared by scripts/run.sh,
# scripts/test.sh (so CI) and the Dockerfile's build stage, so that the image is built exactly as CI builds.
# Arguments are CMake targets (default: all, tests included).
#
#   bash scripts/build.sh              # everything
#   bash scripts/build.sh dynapage     # the server only (scripts/run.sh, Dockerfile)
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

targets=()
for target in "$@"; do targets+=(--target "$target"); done

install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}"
fetch_httplib_source
build_rocksdb
cmake -S . -B "$BUILD_DIR" -DDYNAPAGE_BUILD_TESTS=ON
cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
