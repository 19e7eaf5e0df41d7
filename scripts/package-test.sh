#!/usr/bin/env bash
# Installs every artefact of scripts/package.sh the way a user would, each in a clean place, and runs a real client
# against it:
#   tarball  sha256sum -c, `tar x` into an empty directory; ldd: "not a dynamic executable"; the
#            AWS CLI against it; and `tar x` + run in a clean debian:12 container (scripts/docker-base.sh's
#            debootstrap image, nothing else installed)
#   .deb     `dpkg -i` in a clean debian:12 container: /usr/bin/dynapage, its man page, the systemd unit (not
#            enabled); the AWS CLI against the server it runs
#   npm      `npm install ./dist/dynapage-V.tgz` into an empty directory; node --test of tests/package/js there
#            (startDynapage() with the SDK v3, its errors, `npx dynapage`, the globalSetup) and of README.md's
#            node:test example; then Jest and Vitest with README.md's jest.config.js and vitest.config.js
#            (js_runners below)
#   wheel    `pip install --no-index` into a fresh virtual environment; pytest of tests/package/python there: the
#            API and its errors, and the plugin's isolation, two xdist workers (one server each, then one shared)
#   image    `docker load`; tests/sdk/python/test_container.py against it; `docker compose up -d` with the
#            repository's docker-compose.yml and the AWS CLI against it (compose_test below)
#
#   bash scripts/package-test.sh        # after bash scripts/package.sh
#
# The container steps say SKIPPED where no Docker engine can start (an error under CI=true). Each step prints the
# seconds since the start. About 3 minutes on two cores, once Jest and Vitest are in their cache. Environment:
# DIST_DIR, DYNAPAGE_JS_RUNNERS (that cache).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
repo=$PWD
version=$(sed -n 's/^project(dynapage VERSION \([0-9.]*\) .*/\1/p' CMakeLists.txt)
dist=$(cd "${DIST_DIR:-dist}" && pwd)
python=/usr/bin/python3
[ -x "$python" ] || python=python3
export AWS_ACCESS_KEY_ID=package-test AWS_SECRET_ACCESS_KEY=package-test AWS_DEFAULT_REGION=us-east-1 \
  AWS_REGION=us-east-1 PYTHONDONTWRITEBYTECODE=1
unset AWS_ENDPOINT_URL_DYNAMODB DYNAPAGE_BIN DYNAPAGE_ENDPOINT

work=$(mktemp -d "${TMPDIR:-/tmp}/dynapage-package-test.XXXXXX")
servers=()
containers=()
compose=()  # the compose command of compose_test, with its project
cleanup() {
  local pid name
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null || true; done
  for name in "${containers[@]}"; do docker rm -f "$name" >/dev/null 2>&1 || true; done
  if [ "${#compose[@]}" -gt 0 ]; then "${compose[@]}" down -v >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
status=0
failed() {
  echo "scripts/package-test.sh: FAILED: $*" >&2
  status=1
}
step() { echo "scripts/package-test.sh: [${SECONDS} s] $*"; }

# start_server LOG BINARY ARGS...: starts a server on a free port; sets $port.
start_server() {
  local log=$1
  shift
  "$@" --port 0 >"$log" 2>&1 &
  servers+=($!)
  for _ in $(seq 1 200); do
    if grep -q 'listening on' "$log"; then
      port=$(sed -n 's|.*listening on http://[^:]*:\([0-9]*\).*|\1|p' "$log" | head -1)
      return 0
    fi
    sleep 0.01
  done
  echo "no ready line: $(cat "$log")" >&2
  return 1
}

# free_port: a loopback port nothing listens on now (for servers whose port cannot be 0).
free_port() {
  "$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# aws_cli_round_trip ENDPOINT: a table, an item written and read back with the AWS CLI.
aws_cli_round_trip() {
  local endpoint=$1
  aws dynamodb create-table --endpoint-url "$endpoint" --table-name cli --billing-mode PAY_PER_REQUEST \
    --attribute-definitions AttributeName=k,AttributeType=S --key-schema AttributeName=k,KeyType=HASH >/dev/null &&
  aws dynamodb put-item --endpoint-url "$endpoint" --table-name cli --item '{"k": {"S": "v"}}' &&
  [ "$(aws dynamodb get-item --endpoint-url "$endpoint" --table-name cli --key '{"k": {"S": "v"}}' \
        --query Item.k.S --output text)" = v ]
}

# js_runners: the README's jest.config.js and vitest.config.js, in a user's project (tests/package/js-runners:
# Jest, Vitest, TypeScript, the SDK v3) with the dynapage just installed from the tarball ($work/npm). Two test
# files, one per worker, each with its own access key and the same table name; both must reach the one server of
# the globalSetup through AWS_ENDPOINT_URL_DYNAMODB, and that server must be gone when the runner exits. Then tsc
# checks types.ts against the package's index.d.ts. The project's node_modules is installed once per
# package-lock.json into a cache outside the checkout, which later runs on this machine reuse
# ($DYNAPAGE_JS_RUNNERS, default ~/.cache/dynapage/js-runners); the first install takes ~45 s, a run ~25 s.
js_runners() {
  local source=tests/package/js-runners
  local cache="${DYNAPAGE_JS_RUNNERS:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/dynapage/js-runners}"
  if ! cmp -s "$source/package-lock.json" "$cache/.installed-lock"; then
    step "npm: installing Jest and Vitest into $cache (once per tests/package/js-runners/package-lock.json)"
    rm -rf "$cache/node_modules" "$cache/.installed-lock" && mkdir -p "$cache" &&
      cp "$source/package.json" "$source/package-lock.json" "$cache/" &&
      npm ci --prefix "$cache" --ignore-scripts --no-audit --no-fund --loglevel=error --prefer-offline >/dev/null &&
      cp "$source/package-lock.json" "$cache/.installed-lock" || return 1
  fi
  local project="$work/js-runners" entry runner endpoints
  mkdir -p "$project/node_modules"
  cp "$source"/package.json "$source"/*.cjs "$source"/*.test.* "$source"/types.ts "$project/" || return 1
  "$python" tests/package/readme_snippets.py README.md "$project" jest.config.js vitest.config.js || return 1
  for entry in "$cache"/node_modules/* "$cache"/node_modules/.bin; do ln -s "$entry" "$project/node_modules/"; done
  ln -sfn "$work/npm/node_modules/dynapage" "$project/node_modules/dynapage"
  for runner in jest vitest; do
    step "npm: $runner with the README's $runner.config.js"
    endpoints="$work/$runner.endpoints"
    local command=(node node_modules/jest/bin/jest.js --ci --maxWorkers=2 --cacheDirectory "$work/jest-cache" jest-)
    [ "$runner" = vitest ] && command=(node node_modules/vitest/vitest.mjs run --maxWorkers=2 vitest-)
    (cd "$project" && DYNAPAGE_RUNNER_ENDPOINTS="$endpoints" "${command[@]}") || return 1
    # One server (one endpoint), two workers (two pids), and nothing listening once the runner has exited.
    if [ "$(cut -d' ' -f1 "$endpoints" | sort -u | wc -l)" -ne 1 ] ||
       [ "$(cut -d' ' -f2 "$endpoints" | sort -u | wc -l)" -ne 2 ]; then
      echo "$runner: want one server and two workers; the tests saw: $(cat "$endpoints")" >&2
      return 1
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$(sed -n '1s|.*:\([0-9]*\) .*|\1|p' "$endpoints")") 2>/dev/null; then
      echo "$runner: the globalSetup's server still listens after the run" >&2
      return 1
    fi
  done
  step "npm: tsc --strict against the package's types"
  (cd "$project" && node node_modules/typescript/bin/tsc --noEmit --strict --skipLibCheck --module node16 \
    --target es2022 --types node types.ts)
}

# compose_test: the repository's docker-compose.yml as a user runs it, on the image just loaded (--no-build), on a
# free port (DYNAPAGE_PORT): `up -d`, the AWS CLI writes an item, `down` and `up -d` again, and the item is still
# there (the named volume; read with another access key: -sharedDb), then `down -v`. `docker compose` (v2) where
# the CLI has it, else Debian's docker-compose (v1), installed if need be. ~40 s with v1 (~2.5 s a call).
compose_test() {
  compose=(docker compose)
  if ! docker compose version >/dev/null 2>&1; then
    command -v docker-compose >/dev/null 2>&1 || install_packages docker-compose >/dev/null || return 1
    compose=(docker-compose)
  fi
  step "image: $("${compose[@]}" version 2>/dev/null | head -1): up -d with docker-compose.yml"
  compose+=(--file docker-compose.yml --project-name "dynapage-package-test-$$")
  local compose_port container
  compose_port=$(free_port)
  compose_up() {
    DYNAPAGE_PORT=$compose_port "${compose[@]}" up -d --no-build >"$work/compose.log" 2>&1 ||
      { cat "$work/compose.log" >&2; return 1; }
    for _ in $(seq 1 100); do
      "${compose[@]}" logs dynapage 2>&1 | grep -q 'listening on' && return 0
      sleep 0.1
    done
    echo "compose: no ready line: $("${compose[@]}" logs dynapage 2>&1 | tail -5)" >&2
    return 1
  }
  compose_up || return 1
  container=$("${compose[@]}" ps -q dynapage)
  [ "$(docker inspect -f '{{.Image}}' "$container")" = "$(docker image inspect -f '{{.Id}}' "dynapage:$version")" ] ||
    { echo "compose: the container does not run dynapage:$version" >&2; return 1; }
  aws_cli_round_trip "http://127.0.0.1:$compose_port" || return 1
  "${compose[@]}" down >/dev/null 2>&1 && compose_up || return 1
  [ "$(AWS_ACCESS_KEY_ID=another aws dynamodb get-item --endpoint-url "http://127.0.0.1:$compose_port" \
        --table-name cli --key '{"k": {"S": "v"}}' --query Item.k.S --output text)" = v ] ||
    { echo "compose: the item did not survive down and up" >&2; return 1; }
  "${compose[@]}" down -v >/dev/null 2>&1 || return 1
  compose=()
}

# --- the tarball ------------------------------------------------------------------------------------------------
tarball="dynapage-$version-linux-x86_64.tar.gz"
step "tarball: $tarball"
(cd "$dist" && sha256sum --quiet -c "$tarball.sha256") || failed "the tarball's SHA-256 does not match"
mkdir "$work/tar"
tar -C "$work/tar" -xzf "$dist/$tarball"
unpacked="$work/tar/dynapage-$version-linux-x86_64"
[ "$(ls "$unpacked" | tr '\n' ' ')" = "LICENSE README.md dynapage " ] || failed "the tarball holds: $(ls "$unpacked")"
ldd_says=$(ldd "$unpacked/dynapage" 2>&1 || true)
[[ "$ldd_says" == *"not a dynamic executable"* ]] || failed "the binary is not static: ldd says $ldd_says"
if start_server "$work/tar.log" "$unpacked/dynapage"; then
  aws_cli_round_trip "http://127.0.0.1:$port" || failed "the AWS CLI against the tarball's binary"
else
  failed "the tarball's binary did not start"
fi

# README.md's GitHub Actions step, its shell run as the runner would (on a free port instead of 8000), in a
# directory holding the tarball; then the AWS CLI at the endpoint it put in $GITHUB_ENV.
step "tarball: README.md's GitHub Actions step"
github_step() {
  local dir="$work/github-step" script port_for_8000
  mkdir "$dir" && cp "$dist/$tarball" "$dir/" || return 1
  "$python" tests/package/readme_snippets.py README.md "$dir" github-step.yml || return 1
  port_for_8000=$(free_port)
  script=$("$python" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))[0]["run"])' "$dir/github-step.yml" |
           sed "s/8000/$port_for_8000/g") || return 1
  (cd "$dir" && GITHUB_ENV="$dir/github.env" bash -e -c "$script"$'\n''echo $! >server.pid' >"$dir/run.log" 2>&1) ||
    { cat "$dir/run.log" >&2; return 1; }
  servers+=("$(cat "$dir/server.pid")")
  local endpoint
  endpoint=$(sed -n 's/^AWS_ENDPOINT_URL_DYNAMODB=//p' "$dir/github.env")
  [ "$endpoint" = "http://127.0.0.1:$port_for_8000" ] ||
    { echo "GITHUB_ENV has: $(cat "$dir/github.env")" >&2; return 1; }
  for _ in $(seq 1 100); do grep -q 'listening on' "$dir/run.log" && break; sleep 0.05; done
  aws_cli_round_trip "$endpoint"
}
github_step || failed "README.md's GitHub Actions step"

# --- npm ---------------------------------------------------------------------------------------------------------
step "npm: npm install ./dynapage-$version.tgz"
mkdir "$work/npm"
cp tests/package/js/*.test.js "$work/npm/"
js_sdk="$repo/tests/sdk/js"
if ! cmp -s "$js_sdk/package-lock.json" "$js_sdk/node_modules/.dynapage-installed-lock"; then
  npm ci --prefix "$js_sdk" --ignore-scripts --no-audit --no-fund --loglevel=error
  cp "$js_sdk/package-lock.json" "$js_sdk/node_modules/.dynapage-installed-lock"
fi
if (cd "$work/npm" && echo '{"private": true}' >package.json &&
    npm install --no-audit --no-fund --loglevel=error "$dist/dynapage-$version.tgz" >/dev/null); then
  "$python" tests/package/readme_snippets.py README.md "$work/npm" readme.test.js ||
    failed "README.md's node:test example"
  (cd "$work/npm" && NODE_PATH="$js_sdk/node_modules" node --test ./*.test.js) || failed "npm: node --test"
  js_runners || failed "npm: the README's Jest and Vitest globalSetup"
else
  failed "npm install of dynapage-$version.tgz"
fi

# --- the wheel ---------------------------------------------------------------------------------------------------
wheel=$(ls "$dist"/dynapage-"$version"-*.whl)
step "wheel: pip install --no-index $(basename "$wheel")"
# Debian's boto3, pytest and pytest-xdist come from the system's packages; dynapage only from the wheel.
"$python" -m venv --system-site-packages "$work/venv"
venv="$work/venv/bin"
if "$venv/pip" install -q --no-index --disable-pip-version-check "$wheel"; then
  # The tests in a directory of their own, as a user's project (outside the checkout, whose sources the venv
  # must not see).
  mkdir "$work/pytests"
  cp tests/package/python/*.py "$work/pytests/"
  pytest=("$venv/python" -m pytest -q --tb=short -p no:cacheprovider --rootdir "$work/pytests" -c /dev/null)
  (cd "$work/pytests" && "${pytest[@]}" test_api.py) || failed "wheel: the API"
  isolation() {  # two xdist workers, one test file each, meeting at the rendezvous points
    local meet
    meet=$(mktemp -d "$work/meet.XXXXXX")
    (cd "$work/pytests" && DYNAPAGE_RENDEZVOUS="$meet" "${pytest[@]}" -n 2 --dist loadfile \
      test_isolation_a.py test_isolation_b.py)
  }
  isolation || failed "wheel: isolation with a server per worker"
  if start_server "$work/shared.log" "$venv/dynapage"; then
    DYNAPAGE_ENDPOINT="http://127.0.0.1:$port" isolation || failed "wheel: isolation of two workers on one server"
  else
    failed "the wheel's dynapage command did not start"
  fi
else
  failed "pip install of $(basename "$wheel")"
fi

# --- the containers: the .deb and the tarball on a clean Debian 12, and the image ------------------------------
# shellcheck source=scripts/docker-engine.sh
source scripts/docker-engine.sh
if ! ensure_docker_engine; then
  if [ "${CI:-}" = true ]; then failed "no Docker engine: $DOCKER_ENGINE_PROBLEM"; else
    step "the .deb and the image SKIPPED: $DOCKER_ENGINE_PROBLEM"; fi
else
  bash scripts/docker-base.sh >/dev/null
  deb="dynapage_${version}_amd64.deb"
  step "deb: dpkg -i $deb in a clean debian:12"
  name="dynapage-package-test-$$"
  containers+=("$name")
  docker run -d --name "$name" -p 127.0.0.1::8000 -v "$dist:/dist:ro" debian:12 sh -c "
      dpkg -i /dist/$deb >/tmp/dpkg.log 2>&1 || { cat /tmp/dpkg.log; exit 1; }
      test -x /usr/bin/dynapage && test -s /usr/share/man/man1/dynapage.1.gz &&
      test -f /lib/systemd/system/dynapage.service && ! test -e /etc/systemd/system/multi-user.target.wants/dynapage.service &&
      /usr/bin/dynapage --help | grep -q -- --db-path || { echo 'the .deb installed the wrong files'; exit 1; }
      exec /usr/bin/dynapage --host 0.0.0.0 --port 8000" >/dev/null
  deb_port=$(docker port "$name" 8000/tcp | head -1 | sed 's/.*://')
  for _ in $(seq 1 100); do
    docker logs "$name" 2>&1 | grep -q 'listening on' && break
    [ "$(docker inspect -f '{{.State.Running}}' "$name")" = true ] || break
    sleep 0.1
  done
  if docker logs "$name" 2>&1 | grep -q 'listening on'; then
    aws_cli_round_trip "http://127.0.0.1:$deb_port" || failed "the AWS CLI against the .deb's dynapage"
  else
    failed "the .deb's dynapage did not start: $(docker logs "$name" 2>&1 | tail -5)"
  fi

  step "tarball: tar x and run in a clean debian:12"
  docker run --rm -v "$dist:/dist:ro" debian:12 sh -c "cd /tmp && tar -xzf /dist/$tarball &&
      dynapage-$version-linux-x86_64/dynapage --version" | grep -q "^dynapage $version" ||
    failed "the tarball's binary in a clean debian:12"

  step "image: docker load -i dynapage-$version-image.tar"
  docker load -q -i "$dist/dynapage-$version-image.tar" >/dev/null
  DYNAPAGE_IMAGE="dynapage:$version" "$python" -m pytest -q --tb=short -p no:cacheprovider \
    tests/sdk/python/test_container.py || failed "the image"
  compose_test || failed "docker compose with the repository's docker-compose.yml"
fi

if [ "$status" -eq 0 ]; then step "every artefact installed and served its client"; fi
exit "$status"
