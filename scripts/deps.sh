# shellcheck shell=bash
# The Debian 12 packages dynapage needs, and a function that installs the missing ones. Sourced by the other
# scripts; installs nothing when everything is already there, so repeated runs are fast.

# shellcheck disable=SC2034  # used by the scripts that source this file
# RocksDB's compression libraries (libsnappy-dev ... libzstd-dev) are linked statically, from their -dev packages;
# libzstd-dev also decompresses ZSTD imports.
# cpp-httplib is compiled header-only from Debian 13's cpp-httplib source package (fetch_httplib_source below);
# libcpp-httplib-dev is for the conformance suite, which needs the library's TLS support.
# lld links the dynapage executable with its functions in start-up order (bench/code_order.py).
DYNAPAGE_BUILD_PACKAGES=(
  build-essential dpkg-dev cmake pkg-config lld
  libcpp-httplib-dev rapidjson-dev librocksdb-dev libgtest-dev libssl-dev zlib1g-dev libdeflate-dev
  libsnappy-dev libbz2-dev liblz4-dev libzstd-dev
)
# chromium and python3-websocket: the console's test in a real browser (tests/console/console_browser_test.py).
# shellcheck disable=SC2034
DYNAPAGE_TEST_PACKAGES=(python3-boto3 python3-pytest python3-pytest-xdist python3-yaml awscli valgrind chromium
  python3-websocket)
# clang and its libFuzzer runtime, for scripts/fuzz.sh (Debian 12's clang is 14).
# shellcheck disable=SC2034
DYNAPAGE_FUZZ_PACKAGES=(clang libclang-rt-14-dev)
# Node.js and npm for the JavaScript SDK tests (tests/sdk/js; Debian 12's Node.js 18 runs the pinned SDK versions). Only
# when `node` or `npm` is missing: a Node.js installed otherwise is used as it is (NodeSource's nodejs package, for
# one, carries its own npm and conflicts with Debian's npm package).
# shellcheck disable=SC2034
DYNAPAGE_JS_PACKAGES=()
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  DYNAPAGE_JS_PACKAGES=(nodejs npm)
fi

# install_packages PKG...: apt-get installs whichever of PKG are not installed yet (as root, or through sudo).
install_packages() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; make sure these are installed: $*" >&2
    return 0
  fi
  local missing=() pkg
  for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}\n' "$pkg" 2>/dev/null | grep -q '^install ok installed$'; then
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    echo "deps: all ${#} packages already installed"
    return 0
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "deps: need root to install: ${missing[*]}" >&2
      return 1
    fi
  fi
  echo "deps: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# fetch_debian_source PACKAGE SUITE DEST: unpacks Debian's source package PACKAGE of suite SUITE (empty: the
# machine's own suite; Debian's patches applied) into DEST, replacing what is there. Fetched with apt-get from the
# Debian archives the machine already uses (the same mirrors, with the suite SUITE instead of the machine's own), read through a sources list of its
# own: the machine's apt configuration is left as it is. Returns non-zero, with apt's output, on failure.
fetch_debian_source() {
  local package=$1 suite=$2 dest=$3
  if ! command -v apt-get >/dev/null 2>&1 || ! command -v dpkg-source >/dev/null 2>&1; then
    echo "deps: no apt-get/dpkg-source to fetch Debian's $package source package" >&2
    return 1
  fi
  local codename=""
  if [ -r /etc/os-release ]; then codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}"); fi
  local work
  work=$(mktemp -d)
  mkdir -p "$work/sources" "$work/lists/partial" "$work/unpack"
  # The machine's Debian archives as source archives of the suite (for trixie, bookworm-security becomes
  # trixie-security, and so on). Repositories without sources (third-party ones) fail to update; the Debian ones
  # are what apt-get source needs.
  local rename=()  # sed arguments; none where the codename is unknown (sources that name "stable", say)
  if [ -n "$suite" ] && [ -n "$codename" ] && [ "$codename" != "$suite" ]; then
    rename=(-e "s/\b$codename\b/$suite/g")
  fi
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    if [ -f "$f" ]; then
      sed -e 's/^Types:.*/Types: deb-src/' "${rename[@]}" "$f" >"$work/sources/$(basename "$f")"
    fi
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    if [ -f "$f" ]; then
      sed -n "${rename[@]}" -e 's/^deb\([[:space:]]\)/deb-src\1/p' "$f" >"$work/sources/$(basename "$f")"
    fi
  done
  local apt=(apt-get -qq -o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$work/sources"
             -o Dir::State::Lists="$work/lists" -o APT::Sandbox::User=root)
  "${apt[@]}" update >"$work/update.log" 2>&1 || true
  local status=0
  if (cd "$work/unpack" && "${apt[@]}" source "$package" >"$work/source.log" 2>&1); then
    mkdir -p "$(dirname "$dest")"
    rm -rf "$dest"
    mv "$work"/unpack/"$package"-*/ "$dest"
  else
    echo "deps: could not fetch Debian's $package source package" >&2
    cat "$work/update.log" "$work/source.log" >&2
    status=1
  fi
  rm -rf "$work"
  return "$status"
}

# fetch_httplib_source: unpacks Debian 13's cpp-httplib source package (0.18) into .deps/cpp-httplib (ignored by
# git), for CMakeLists.txt to compile header-only without TLS. Debian 12's own package is 0.11, which costs ~10%
# more CPU a request and lacks the 2025 security fixes; Debian's shared library is built with OpenSSL, which costs
# dynapage ~3 ms of start-up and ~3.6 MB of memory. Nothing to do when a tree of 0.18 or later is there. On
# failure the build falls back to an installed shared library of 0.18 or later, if there is one.
DYNAPAGE_HTTPLIB_SUITE=trixie
fetch_httplib_source() {
  local dest=.deps/cpp-httplib
  local have
  have=$(sed -n 's/^#define CPPHTTPLIB_VERSION "\(.*\)"/\1/p' "$dest/httplib.h" 2>/dev/null || true)
  if [ -n "$have" ] && [ "$(printf '%s\n' 0.18 "$have" | sort -V | head -1)" = 0.18 ]; then return 0; fi
  if fetch_debian_source cpp-httplib "$DYNAPAGE_HTTPLIB_SUITE" "$dest"; then
    echo "deps: cpp-httplib $(sed -n 's/^#define CPPHTTPLIB_VERSION "\(.*\)"/\1/p' "$dest/httplib.h") source unpacked into $dest"
  else
    echo "deps: cpp-httplib comes from its shared library" >&2
  fi
}

# build_rocksdb: builds the machine's own Debian RocksDB (the source package of the installed librocksdb-dev,
# Debian's patches applied) as a release build into .deps/rocksdb (ignored by git), for CMakeLists.txt to link
# instead of librocksdb-dev's archive. Debian builds RocksDB without NDEBUG, so its assertions run: after every
# memtable insert InlineSkipList::Insert re-checks its whole splice, some 20 key comparisons, and the checks and
# test sync points along reads and writes cost dynapage 17% of the CPU of a batch write and 6% of a Query page.
# Only the library is built, without compression (dynapage stores uncompressed) and with RTTI (dynapage's
# in-memory file system derives from RocksDB's). Takes ~15 minutes on two cores, once: nothing to do when
# .deps/rocksdb was built from the installed version. On failure the build falls back to librocksdb-dev.
build_rocksdb() {
  local dest=.deps/rocksdb
  local version
  version=$(dpkg-query -W -f='${Version}' librocksdb-dev 2>/dev/null || true)
  if [ -z "$version" ]; then
    echo "deps: librocksdb-dev is not installed; RocksDB is not built" >&2
    return 0
  fi
  local stamp="librocksdb-dev $version, release, RTTI, no compression, function sections"
  if [ -f "$dest/lib/librocksdb.a" ] && [ "$(cat "$dest/BUILT_FROM" 2>/dev/null)" = "$stamp" ]; then return 0; fi
  local src=.deps/rocksdb-source
  rm -rf "$dest"
  if ! fetch_debian_source rocksdb "" "$src"; then
    echo "deps: RocksDB comes from librocksdb-dev (with its assertions)" >&2
    return 0
  fi
  echo "deps: building RocksDB $version without assertions into $dest (once; ~15 minutes on two cores)"
  # -ffunction-sections: each function in a section of its own, for the linker to lay out in start-up order.
  if cmake -S "$src" -B "$src/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$PWD/$dest" \
      -DCMAKE_CXX_FLAGS=-ffunction-sections \
      -DCMAKE_INSTALL_LIBDIR=lib -DROCKSDB_BUILD_SHARED=OFF -DUSE_RTTI=1 -DPORTABLE=ON -DFAIL_ON_WARNINGS=OFF \
      -DWITH_TESTS=OFF -DWITH_TOOLS=OFF -DWITH_CORE_TOOLS=OFF -DWITH_BENCHMARK_TOOLS=OFF -DWITH_GFLAGS=OFF \
      -DWITH_SNAPPY=OFF -DWITH_LZ4=OFF -DWITH_ZLIB=OFF -DWITH_ZSTD=OFF -DWITH_BZ2=OFF -DWITH_JEMALLOC=OFF \
      -DWITH_LIBURING=OFF >"$src/configure.log" 2>&1 &&
     cmake --build "$src/build" -j "${JOBS:-2}" --target install >"$src/build.log" 2>&1; then
    echo "$stamp" >"$dest/BUILT_FROM"
    rm -rf "$src"
    echo "deps: RocksDB built into $dest"
  else
    echo "deps: building RocksDB failed; RocksDB comes from librocksdb-dev (with its assertions)" >&2
    tail -20 "$src/configure.log" "$src/build.log" >&2 2>/dev/null || true
    rm -rf "$dest"
  fi
}
