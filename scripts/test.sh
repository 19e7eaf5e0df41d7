#!/usr/bin/env bash
# Builds dynapage and runs every test. On a fresh Debian 12 machine, run as root: it installs what it needs.
#
#   bash scripts/test.sh
#
# 1. The release build (build/): every ctest label, unit, http, conformance (the suite of conformance/ against a
#    freshly started dynapage) and sdk (boto3 and the AWS CLI with pytest, the JavaScript SDK with node --test).
#    Then the container (scripts/docker-test.sh) and Terraform (scripts/terraform-test.sh) against that build.
# 2. The checked build (build-checked/): Debug, so every DP_DCHECK (REQUIRES: precondition) is enforced, with
#    AddressSanitizer and UndefinedBehaviorSanitizer; the unit and http tests again.
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build), DYNAPAGE_CHECKED_BUILD=0 skips 2.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}" "${DYNAPAGE_TEST_PACKAGES[@]}" "${DYNAPAGE_JS_PACKAGES[@]}"

status=0
# The same build command as scripts/run.sh and the Dockerfile.
JOBS="$JOBS" BUILD_DIR="$BUILD_DIR" bash scripts/build.sh
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" || status=1

# The container (built around the binary above, seconds) and Terraform against dynapage; each says SKIPPED where
# this machine cannot run it (no Docker engine; no terraform or provider).
bash scripts/docker-test.sh "$BUILD_DIR/dynapage" || status=1
bash scripts/terraform-test.sh "$BUILD_DIR/dynapage" || status=1

if [ "${DYNAPAGE_CHECKED_BUILD:-1}" != 0 ]; then
  echo "scripts/test.sh: the checked build (Debug, DP_DCHECK on, ASan + UBSan): unit and http tests"
  JOBS="$JOBS" BUILD_DIR=build-checked CMAKE_BUILD_TYPE=Debug DYNAPAGE_CMAKE_ARGS="-DDYNAPAGE_SANITIZE=ON" \
    bash scripts/build.sh dynapage_unit_tests dynapage_http_tests
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-checked --output-on-failure -j "$JOBS" -L 'unit|http' || status=1
fi

if [ "$status" -ne 0 ]; then
  echo "scripts/test.sh: some tests failed (see above)" >&2
fi
exit "$status"
