#!/usr/bin/env bash
# Builds every release artefact into dist/, named with the version of CMakeLists.txt (the one source of it):
#
#   dynapage-V-linux-x86_64.tar.gz (+ .sha256)   the static binary, LICENSE and README.md
#   dynapage_V_amd64.deb                         /usr/bin/dynapage, its man page, a systemd unit (not enabled)
#   dynapage-V.tgz                               the npm package (startDynapage(), `npx dynapage`; packaging/npm)
#   dynapage-V-py3-none-manylinux…whl            the Python package and pytest plugin (packaging/python)
#   dynapage-V-image.tar                         the image (`docker load -i`), FROM scratch around the static
#                                                binary, tagged dynapage:V and dynapage:latest; image-context/ is its
#                                                build context (docker-compose.yml builds from it if need be)
#   SHA256SUMS, sizes.json                       checksums; the sizes README.md quotes (scripts/readme_figures.py)
#
#   bash scripts/package.sh
#
# Every artefact holds the same static binary (build/dynapage, linked with `-static` in every build but the
# sanitized one): it runs on any x86-64 Linux. After scripts/test.sh's build there is nothing to build. On a fresh
# machine this installs what it needs and builds those objects first (DYNAPAGE_ROCKSDB=release links the faster
# RocksDB; scripts/build.sh). Where no Docker engine can start, the image is skipped with a message (an error under
# CI=true). Environment: BUILD_DIR, DIST_DIR (default dist), JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh

BUILD_DIR="${BUILD_DIR:-build}"
DIST_DIR="${DIST_DIR:-dist}"
version=$(sed -n 's/^project(dynapage VERSION \([0-9.]*\) .*/\1/p' CMakeLists.txt)
[ -n "$version" ] || { echo "scripts/package.sh: no version in CMakeLists.txt" >&2; exit 1; }
install_packages "${DYNAPAGE_BUILD_PACKAGES[@]}" "${DYNAPAGE_JS_PACKAGES[@]}" python3

JOBS="${JOBS:-2}" BUILD_DIR="$BUILD_DIR" bash scripts/build.sh dynapage
binary="$BUILD_DIR/dynapage"
if ldd "$binary" >/dev/null 2>&1; then
  echo "scripts/package.sh: $binary is not static: $(ldd "$binary" | tr '\n' ' ')" >&2
  exit 1
fi

mkdir -p "$DIST_DIR"
DIST_DIR=$(cd "$DIST_DIR" && pwd)
rm -rf "${DIST_DIR:?}"/dynapage[-_]"$version"* "$DIST_DIR/SHA256SUMS"
stage=$(mktemp -d "${TMPDIR:-/tmp}/dynapage-package.XXXXXX")
trap 'rm -rf "$stage"' EXIT
strip --strip-all -o "$stage/dynapage" "$binary"

# The tarball.
name="dynapage-$version-linux-x86_64"
mkdir "$stage/$name"
cp "$stage/dynapage" LICENSE README.md "$stage/$name/"
tar -C "$stage" --owner=0 --group=0 -czf "$DIST_DIR/$name.tar.gz" "$name"
(cd "$DIST_DIR" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")

# The .deb: dpkg-deb of a tree. The man page is the binary's own --help, so it cannot drift from the flags.
deb="$stage/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin" "$deb/usr/share/man/man1" "$deb/usr/share/doc/dynapage" "$deb/lib/systemd/system"
install -m 0755 "$stage/dynapage" "$deb/usr/bin/dynapage"
{
  printf '.TH DYNAPAGE 1 "" "dynapage %s" "User Commands"\n.SH NAME\ndynapage \\- a local DynamoDB\n' "$version"
  printf '.SH DESCRIPTION\n.nf\n'
  "$stage/dynapage" --help | sed -e 's/\\/\\e/g' -e 's/^[.'\'']/\\\&&/'
  printf '.fi\n.SH SEE ALSO\nhttps://github.com/dynapage/dynapage\n'
} | gzip -9n >"$deb/usr/share/man/man1/dynapage.1.gz"
install -m 0644 LICENSE "$deb/usr/share/doc/dynapage/copyright"
install -m 0644 packaging/deb/dynapage.service "$deb/lib/systemd/system/dynapage.service"
cat >"$deb/DEBIAN/control" <<CONTROL
Package: dynapage
Version: $version
Architecture: amd64
Maintainer: dynapage developers <dynapage@localhost>
Section: database
Priority: optional
Installed-Size: $(du -ks "$deb/usr" "$deb/lib" | awk '{s += $1} END {print s}')
Homepage: https://github.com/dynapage/dynapage
Description: local DynamoDB-compatible server
 One static binary that speaks DynamoDB's protocol, for development and CI:
 AWS SDKs and the AWS CLI work against it unchanged. The systemd unit it
 installs is not enabled (systemctl enable --now dynapage).
CONTROL
dpkg-deb --root-owner-group -Zxz --build "$deb" "$DIST_DIR/dynapage_${version}_amd64.deb" >/dev/null

# The npm package.
npm_stage="$stage/npm"
cp -r packaging/npm "$npm_stage"
mkdir -p "$npm_stage/native"
install -m 0755 "$stage/dynapage" "$npm_stage/native/dynapage"
cp LICENSE "$npm_stage/"
node -e 'const f = process.argv[1], p = require(f); p.version = process.argv[2]; delete p["//"];
         require("fs").writeFileSync(f, JSON.stringify(p, null, 2) + "\n")' "$npm_stage/package.json" "$version"
(cd "$npm_stage" && npm pack --silent --pack-destination "$DIST_DIR" >/dev/null)

# The wheel.
python3 packaging/python/build_wheel.py "$version" "$stage/dynapage" LICENSE "$DIST_DIR" >/dev/null

# The image: a build context around the static binary (no compile: seconds), built and saved for `docker load`.
bash scripts/docker-context.sh "$stage/dynapage" "$DIST_DIR/image-context"
# shellcheck source=scripts/docker-engine.sh
source scripts/docker-engine.sh
if ensure_docker_engine; then
  docker build -q -t "dynapage:$version" -t dynapage:latest "$DIST_DIR/image-context" >/dev/null
  # Both tags: docker-compose.yml runs dynapage:latest.
  docker save "dynapage:$version" dynapage:latest -o "$DIST_DIR/dynapage-$version-image.tar"
elif [ "${CI:-}" = true ]; then
  echo "scripts/package.sh: cannot build the image: $DOCKER_ENGINE_PROBLEM" >&2
  exit 1
else
  echo "scripts/package.sh: the image SKIPPED: $DOCKER_ENGINE_PROBLEM"
fi

(cd "$DIST_DIR" && sha256sum dynapage[-_]"$version"* | grep -v '\.sha256$' >SHA256SUMS)
# The sizes README.md quotes (scripts/readme_figures.py compares them with packaging/sizes.json), in MB (10^6).
image_bytes=$(docker image inspect -f '{{.Size}}' "dynapage:$version" 2>/dev/null || echo 0)
python3 - "$DIST_DIR" "$version" "$image_bytes" <<'SIZES'
import glob, json, os, sys
dist, version, image = sys.argv[1], sys.argv[2], int(sys.argv[3])
def size(pattern):
    return round(os.path.getsize(glob.glob(os.path.join(dist, pattern))[0]) / 1e6, 2)
sizes = {"tarball": size(f"dynapage-{version}-linux-x86_64.tar.gz"), "deb": size(f"dynapage_{version}_amd64.deb"),
         "npm": size(f"dynapage-{version}.tgz"), "wheel": size(f"dynapage-{version}-*.whl")}
if image:
    sizes["image"] = round(image / 1e6, 2)
with open(os.path.join(dist, "sizes.json"), "w") as f:
    json.dump(sizes, f, indent=1, sort_keys=True)
SIZES
echo "scripts/package.sh: dynapage $version in $DIST_DIR:"
(cd "$DIST_DIR" && ls -l dynapage[-_]"$version"* | awk '{printf "  %-72s %6.1f MB\n", $9, $5 / 1e6}')
