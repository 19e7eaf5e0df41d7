# shellcheck shell=bash
# The Debian 12 packages dynapage needs, and a function that installs the missing ones. Sourced by the other
# scripts; installs nothing when everything is already there, so repeated runs are fast.

# shellcheck disable=SC2034  # used by the scripts that source this file
# RocksDB's compression libraries (libsnappy-dev ... libzstd-dev) are linked statically, from their -dev packages.
DYNAPAGE_BUILD_PACKAGES=(
  build-essential cmake pkg-config
  libcpp-httplib-dev rapidjson-dev librocksdb-dev libgtest-dev libssl-dev zlib1g-dev libdeflate-dev
  libsnappy-dev libbz2-dev liblz4-dev libzstd-dev
)
# shellcheck disable=SC2034
DYNAPAGE_TEST_PACKAGES=(python3-boto3 python3-pytest python3-yaml awscli)
# Node.js and npm for the JavaScript SDK tests (tests/js; Debian 12's Node.js 18 runs the pinned SDK versions). Only
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
