#!/usr/bin/env bash
# Terraform against dynapage, with no drift: applies tests/terraform/main.tf (a table with a GSI, an LSI, TTL, tags,
# point-in-time recovery, a stream, table class, encryption, on-demand throughput and deletion protection), checks
# that `terraform plan` then reports no changes and that a second apply changes nothing, turns deletion protection
# off, and destroys it.
#
#   bash scripts/terraform-test.sh [BINARY]       # default build/dynapage
#
# No registry is reachable: the hashicorp/aws provider must be in a local mirror (TERRAFORM_PROVIDER_MIRROR, else
# /opt/tf-plugins, ~/.terraform.d/plugins or /usr/share/terraform/plugins). Without terraform or the provider,
# it says so and skips: exit 0, with "SKIPPED" in the output.
set -euo pipefail
cd "$(dirname "$0")/.."
binary="$(realpath "${1:-${BUILD_DIR:-build}/dynapage}")"

skip() {
  echo "scripts/terraform-test.sh: SKIPPED: the Terraform test did not run: $*"
  exit 0
}

command -v terraform >/dev/null 2>&1 || skip "terraform is not installed"
mirror=""
for candidate in "${TERRAFORM_PROVIDER_MIRROR:-}" /opt/tf-plugins "$HOME/.terraform.d/plugins" /usr/share/terraform/plugins; do
  if [ -n "$candidate" ] && [ -d "$candidate/registry.terraform.io/hashicorp/aws" ]; then
    mirror=$candidate
    break
  fi
done
[ -n "$mirror" ] || skip "no hashicorp/aws provider in a local mirror (set TERRAFORM_PROVIDER_MIRROR)"

work=$(mktemp -d "${TMPDIR:-/tmp}/dynapage-terraform.XXXXXX")
server=""
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$binary" --port 0 >"$work/dynapage.log" 2>&1 &
server=$!
port=""
for _ in $(seq 1 200); do
  port=$(sed -n 's/.*listening on http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/dynapage.log")
  [ -n "$port" ] && break
  sleep 0.05
done
[ -n "$port" ] || { cat "$work/dynapage.log"; echo "scripts/terraform-test.sh: dynapage did not start" >&2; exit 1; }

cat >"$work/terraformrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/hashicorp/aws"]
  }
}
RC
cp tests/terraform/main.tf "$work/"
export TF_CLI_CONFIG_FILE="$work/terraformrc" TF_IN_AUTOMATION=1 TF_INPUT=0 CHECKPOINT_DISABLE=1
export TF_VAR_endpoint="http://127.0.0.1:$port"
timings=""
tf() {
  local started=$SECONDS
  terraform -chdir="$work" "$@" -no-color
  local code=$?
  timings+="$1 $((SECONDS - started)) s, "
  return $code
}

tf init >"$work/init.log" 2>&1 || { cat "$work/init.log"; exit 1; }
tf apply -auto-approve >"$work/apply.log" 2>&1 || { cat "$work/apply.log"; exit 1; }
status=0
tf plan -detailed-exitcode >"$work/plan.log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  cat "$work/plan.log"
  echo "scripts/terraform-test.sh: FAILED: terraform plan after apply exited $status (2: it found drift)" >&2
  exit 1
fi
tf apply -auto-approve >"$work/apply2.log" 2>&1 || { cat "$work/apply2.log"; exit 1; }
if ! grep -q "0 added, 0 changed, 0 destroyed" "$work/apply2.log"; then
  cat "$work/apply2.log"
  echo "scripts/terraform-test.sh: FAILED: the second apply changed something" >&2
  exit 1
fi
tf apply -auto-approve -var deletion_protection=false >"$work/unprotect.log" 2>&1 ||
  { cat "$work/unprotect.log"; exit 1; }
tf destroy -auto-approve -var deletion_protection=false >"$work/destroy.log" 2>&1 ||
  { cat "$work/destroy.log"; exit 1; }
echo "scripts/terraform-test.sh: applied, no drift in plan, applied again unchanged, unprotected, destroyed (${timings%, }; $(terraform version | head -1))"
