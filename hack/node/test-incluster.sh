#!/usr/bin/env bash
# `make test-incluster`: the in-cluster suite (test/e2e/incluster) on a fresh single-node cluster
# (hack/node/cluster.sh run), its TAP on stdout and in $1 (default .tmp/incluster.tap).
#
# A suite that cannot run is a failed test, never a silent pass: when the machine cannot run the
# node (not root, no namespaces or cgroups, a missing tool), a build fails, the node never gets
# Ready, or ava dies before its summary, the TAP gets one `not ok` naming the reason, so
# `.ci/run` counts it in `N passed, N failed`. Opting out is explicit: CDN_E2E_INCLUSTER=0 keeps
# `make test` from calling this at all.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1

tap=${1:-.tmp/incluster.tap}
mkdir -p "$(dirname "$tap")"
: >"$tap"
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT

# stderr goes to the terminal and, for the reason line, to $errors.
exec 3>&2
status=0
ran=0
if ! hack/node/cluster.sh check 2>>"$errors"; then
  status=1
  cat "$errors" >&3
elif ! hack/build-binaries.sh helm >/dev/null 2>>"$errors"; then
  echo "cannot build helm" | tee -a "$errors" >&3
  status=1
else
  idfile=$(mktemp)
  CDN_NODE_ID_FILE=$idfile hack/node/cluster.sh run -- \
    node_modules/.bin/ava --config ava.incluster.config.js --tap 2> >(tee -a "$errors" >&3) | tee "$tap"
  status=${PIPESTATUS[0]}
  # Whether ava wrote its summary: read before the teardown check appends its own `# pass`, or
  # a node that never ran the suite (a failed image build) would count as 1 passed, 0 failed.
  grep -qE '^# pass ' "$tap" && ran=1
  # Let the stderr tee finish writing before the reason is read (bash may not expose its pid).
  sleep 1
  id=$(cat "$idfile"); rm -f "$idfile"
  # The cluster is gone: it must have left nothing behind (a test of `cluster.sh` teardown).
  if [ -n "$id" ]; then
    left=$(hack/node/cluster.sh leftovers "$id")
    if [ -z "$left" ]; then
      printf 'ok 1 - teardown of %s left no process, mount, namespace, cgroup or iptables rule\n# pass 1\n# fail 0\n' "$id" | tee -a "$tap"
    else
      printf 'not ok 1 - teardown of %s left: %s\n# pass 0\n# fail 1\n' "$id" "$(paste -sd ';' <<<"$left")" | tee -a "$tap"
      status=1
    fi
  fi
fi

if [ "$ran" = 0 ]; then
  reason=$(grep -E '^(\[node\] )?cannot ' "$errors" | tail -n 1 | sed 's/^\[node\] //')
  [ -n "$reason" ] || reason="exited with status $status before any test result (see the log above)"
  printf 'TAP version 13\nnot ok 1 - in-cluster suite did not run: %s\n1..1\n# tests 1\n# pass 0\n# fail 1\n' \
    "$reason" | tee -a "$tap"
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
