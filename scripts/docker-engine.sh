# shellcheck shell=bash
# ensure_docker_engine: makes sure a Docker engine answers, starting dockerd (installing Debian's docker.io if need
# be) when none does. Returns non-zero, with the reason in $DOCKER_ENGINE_PROBLEM, where none can start (no
# privileges for it, say). Sourced by scripts/docker-test.sh and scripts/package.sh.
ensure_docker_engine() {
  DOCKER_ENGINE_PROBLEM=""
  docker info >/dev/null 2>&1 && return 0
  if ! command -v dockerd >/dev/null 2>&1; then
    # shellcheck source=scripts/deps.sh
    source "$(dirname "${BASH_SOURCE[0]}")/deps.sh"
    install_packages docker.io >/dev/null || { DOCKER_ENGINE_PROBLEM="Debian's docker.io could not be installed"; return 1; }
  fi
  command -v dockerd >/dev/null 2>&1 || { DOCKER_ENGINE_PROBLEM="no dockerd"; return 1; }
  echo "starting dockerd (log in /tmp/dynapage-dockerd.log)"
  (dockerd >/tmp/dynapage-dockerd.log 2>&1 &)
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  DOCKER_ENGINE_PROBLEM="Docker's engine did not start: $(tail -3 /tmp/dynapage-dockerd.log | tr '\n' ' ')"
  return 1
}
