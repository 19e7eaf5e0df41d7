#!/usr/bin/env bash
# Installs the Debian build packages and builds with CMake: the one build command, shared by scripts/run.sh,
# scripts/test.sh (so CI) and the Dockerfile's build stage, so that the image is built exactly as CI builds.
# Arguments are CMake targets (default: all, tests included).
#
#   bash scripts/build.sh              # everything
#   bash scripts/build.sh dynapage     # the server only (scripts/run.sh, Dockerfile)
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build), CMAKE_BUILD_TYPE (default
# RelWithDebInfo), DYNAPAGE_ROCKSDB: "debian" (default) links Debian's librocksdb-dev as it is; "release" first
# builds the same RocksDB from Debian's source package without assertions, once, into .deps/rocksdb (10-15 minutes
# on two cores; batch writes ~17% and Query pages ~6% cheaper), as the Docker image and bench/run.py do.
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
release_rocksdb=OFF
if [ "${DYNAPAGE_ROCKSDB:-debian}" = release ]; then
  build_rocksdb
  release_rocksdb=ON
fi
# ccache, where the machine has it, makes a rebuild of unchanged sources (a fresh clone, the checked build of the
# same tree) a matter of seconds.
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout, so that another clone of the same sources hits the same entries.
  export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi
cmake -S . -B "$BUILD_DIR" -DDYNAPAGE_BUILD_TESTS=ON -DDYNAPAGE_RELEASE_ROCKSDB="$release_rocksdb" "${launcher[@]}" \
  ${CMAKE_BUILD_TYPE:+-DCMAKE_BUILD_TYPE="$CMAKE_BUILD_TYPE"} ${DYNAPAGE_CMAKE_ARGS:-}
cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
