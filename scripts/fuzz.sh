#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ in build-fuzz/ (clang, AddressSanitizer, UndefinedBehaviorSanitizer) and
# runs each for a fixed time, starting from its seed corpus fuzz/corpus/<target>/. Fails on any crash, sanitizer
# report, timeout or broken property; the input that did it is kept as build-fuzz/artifacts/<target>-crash-….
#
#   bash scripts/fuzz.sh          # 30 s per target
#   bash scripts/fuzz.sh 300      # 5 minutes per target
#
# Inputs the fuzzer finds go to build-fuzz/corpus/<target>/ (the seeds in the repository are left as they are).
# Environment: JOBS (parallel build jobs, default 2), FUZZ_TARGETS (default: all of them).
# Needs clang and its libFuzzer runtime (Debian: apt-get install -y clang libclang-rt-14-dev).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-30}"
JOBS="${JOBS:-2}"
targets=(${FUZZ_TARGETS:-http_request attribute_value number expression key_codec})

if ! command -v clang++ >/dev/null 2>&1; then
  echo "scripts/fuzz.sh: clang++ not found; install clang and libFuzzer (apt-get install -y clang libclang-rt-14-dev)" >&2
  exit 2
fi
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
fetch_httplib_source
release_rocksdb=OFF
[ -f .deps/rocksdb/lib/librocksdb.a ] && release_rocksdb=ON
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# -O1 without NDEBUG: quick enough to fuzz, with every DP_DCHECK (REQUIRES:) and RapidJSON assertion on. Each
# layer's sources compiled in batches (CMakeLists.txt, DYNAPAGE_UNITY_LAYERS): half the compile time.
cmake -S . -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DDYNAPAGE_FUZZ=ON -DDYNAPAGE_BUILD_TESTS=OFF \
  -DDYNAPAGE_BUILD_CONFORMANCE=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DDYNAPAGE_UNITY_LAYERS=ON -DDYNAPAGE_RELEASE_ROCKSDB="$release_rocksdb" "${launcher[@]}" >/dev/null
cmake --build build-fuzz -j "$JOBS" $(printf -- '--target %s_fuzzer ' "${targets[@]}")

status=0
mkdir -p build-fuzz/artifacts
for target in "${targets[@]}"; do
  echo "scripts/fuzz.sh: $target for ${seconds}s"
  mkdir -p "build-fuzz/corpus/$target"
  log="build-fuzz/$target.log"
  # Bodies may nest deep (up to ~100,000 levels in 300 KB); an expression is at most 4 KB, a number or key short.
  case "$target" in
    http_request | attribute_value) max_len=300000 ;;
    *) max_len=8192 ;;
  esac
  if ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "build-fuzz/fuzz/${target}_fuzzer" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=3072 -max_len="$max_len" \
      -print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$target-" \
      "build-fuzz/corpus/$target" "fuzz/corpus/$target" >"$log" 2>&1; then
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$log" | tr '\n' ' '
    echo
  else
    echo "scripts/fuzz.sh: $target FAILED (log: $log):" >&2
    tail -n 60 "$log" >&2
    status=1
  fi
done
exit "$status"
