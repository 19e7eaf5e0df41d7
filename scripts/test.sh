#!/usr/bin/env bash
# Builds dynapage and runs every test. On a fresh Debian 12 machine, run as root: it installs what it needs.
#
#   bash scripts/test.sh
#
# 1. The release build (build/): every ctest label, unit, http, conformance (the suite of conformance/ against a
#    freshly started dynapage) and sdk (boto3 and the AWS CLI with pytest, the JavaScript SDK with node --test), and
#    the instruction guard (bench/instruction_guard.py).
#    Then the container (scripts/docker-test.sh) and Terraform (scripts/terraform-test.sh) against that build;
#    then every release artefact, installed and used (scripts/package.sh, scripts/package-test.sh).
# 2. The checked build (build-checked/): Debug, so every DP_DCHECK (REQUIRES: precondition) is enforced, with
#    AddressSanitizer and UndefinedBehaviorSanitizer; every test again (those measuring memory skip themselves).
#    Each layer's sources are compiled in batches (CMakeLists.txt, DYNAPAGE_UNITY_LAYERS): ~3 instead of ~7 minutes.
#
# 3. Fuzzing: every libFuzzer target of fuzz/ for a fixed time (below).
#
# Environment: JOBS (parallel build jobs, default 2), BUILD_DIR (default build), DYNAPAGE_PACKAGE=0 skips the
# artefacts, DYNAPAGE_CHECKED_BUILD=0 skips 2,
# DYNAPAGE_FUZZ=0 skips 3, FUZZ_SECONDS (per fuzz target, default 30).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

JOBS="${JOBS:-2}"
BUILD_DIR="${BUILD_DIR:-build}"

# Each part's time, for the CI log: "scripts/test.sh: <part> took N s".
part_start=$SECONDS
part_took() {
  echo "scripts/test.sh: $1 took $((SECONDS - part_start)) s"
  part_start=$SECONDS
}
install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}" "${DYNAPAGE_TEST_PACKAGES[@]}" "${DYNAPAGE_JS_PACKAGES[@]}"
part_took "installing packages"

status=0
# The same build command as scripts/run.sh and the Dockerfile.
JOBS="$JOBS" BUILD_DIR="$BUILD_DIR" bash scripts/build.sh
part_took "the build"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" || status=1
part_took "the tests"
# The per-request cost in instructions (valgrind, so a busy machine cannot make it flake): a no-op request, a Query
# page and a loaded item against bench/instruction_baseline.json; more than 5% worse fails (about two minutes).
python3 bench/instruction_guard.py --binary "$BUILD_DIR/dynapage" || status=1
# Start-up's functions laid out together (scripts/code_order.txt; bench/README.md, "Code layout"): the link took the
# order (seconds).
python3 bench/code_order.py --check "$BUILD_DIR/dynapage" || status=1
part_took "the instruction guard and the code order"

# The container (built around the binary above, seconds) and Terraform against dynapage; each says SKIPPED where
# this machine cannot run it (no Docker engine; no terraform or provider).
bash scripts/docker-test.sh "$BUILD_DIR/dynapage" || status=1
bash scripts/terraform-test.sh "$BUILD_DIR/dynapage" || status=1
part_took "the container and Terraform"

# --- packaging (issue #34) ---------------------------------------------------------------------------------------
# Every release artefact (scripts/package.sh: the static binary built above, the packs and the image take
# seconds), then each installed the way a user would, in a clean place, with a client against it
# (scripts/package-test.sh). About 4 minutes on two cores (package.sh ~45 s, package-test.sh ~3 minutes; the
# first run on a machine adds ~40 s to install Jest and Vitest into ~/.cache). DYNAPAGE_PACKAGE=0 skips both. The
# figures README.md and docs/ quote must match bench/results/latest.json and the artefacts' sizes
# (scripts/readme_figures.py).
if [ "${DYNAPAGE_PACKAGE:-1}" != 0 ]; then
  BUILD_DIR="$BUILD_DIR" JOBS="$JOBS" bash scripts/package.sh || status=1
  bash scripts/package-test.sh || status=1
  python3 scripts/readme_figures.py --check --sizes dist/sizes.json || status=1
else
  python3 scripts/readme_figures.py --check || status=1
fi
part_took "the packages"
# --- end of packaging ------------------------------------------------------------------------------------------

if [ "${DYNAPAGE_CHECKED_BUILD:-1}" != 0 ]; then
  echo "scripts/test.sh: the checked build (Debug, DP_DCHECK on, ASan + UBSan): every test"
  JOBS="$JOBS" BUILD_DIR=build-checked CMAKE_BUILD_TYPE=Debug \
    DYNAPAGE_CMAKE_ARGS="-DDYNAPAGE_SANITIZE=ON -DDYNAPAGE_UNITY_LAYERS=ON" \
    bash scripts/build.sh
  part_took "the checked build"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-checked --output-on-failure -j "$JOBS" || status=1
  part_took "the checked build's tests"
fi

# 3. Fuzzing (scripts/fuzz.sh): the libFuzzer targets of fuzz/, FUZZ_SECONDS each (default 30; about 5 minutes
#    in all with their build). DYNAPAGE_FUZZ=0 skips it; without clang it is skipped with a message, except under
#    CI=true, where that is a failure.
if [ "${DYNAPAGE_FUZZ:-1}" != 0 ]; then
  if [ "${CI:-}" = true ]; then
    install_packages "${DYNAPAGE_FUZZ_PACKAGES[@]}" || true
  fi
  if command -v clang++ >/dev/null 2>&1 && compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" \
    >/dev/null; then
    echo "scripts/test.sh: fuzzing, ${FUZZ_SECONDS:-30} s per target (scripts/fuzz.sh)"
    JOBS="$JOBS" bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}" || status=1
    part_took "fuzzing"
  elif [ "${CI:-}" = true ]; then
    echo "scripts/test.sh: cannot fuzz: clang or libFuzzer missing (apt-get install -y ${DYNAPAGE_FUZZ_PACKAGES[*]})" >&2
    status=1
  else
    echo "scripts/test.sh: fuzzing SKIPPED: clang or libFuzzer missing (apt-get install -y ${DYNAPAGE_FUZZ_PACKAGES[*]})"
  fi
fi

if [ "$status" -ne 0 ]; then
  echo "scripts/test.sh: some tests failed (see above)" >&2
fi
exit "$status"
