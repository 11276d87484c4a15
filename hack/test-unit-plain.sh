#!/usr/bin/env bash
# Runs the unit suite (`make test-unit`) from a copy of this checkout placed where nothing but
# the repository exists: a fresh directory under /tmp, with no ../shared (no official OpenAPI
# documents) anywhere above it, and CDN_SIM_OPENAPI_DIR unset. This is what a plain clone gets,
# so a test, a generator or the simulator that starts needing a file outside the repository
# fails here (the drift test, which alone reads the documents, is reported as skipped).
#
# The copy is the working tree as git sees it (tracked and untracked files, not the ignored
# dist/ or .tmp/), plus a copy of node_modules (its self-link `cdn-operator -> ..` then points
# at the copy, not back here). The optional NODE runs the suite (its directory goes first on
# PATH); .ci/run passes the oldest supported Node.js, so this one run also proves that line.
#
# Usage: hack/test-unit-plain.sh TAP [NODE]    TAP: where the copy's unit TAP report is written
set -euo pipefail

tap=${1:?usage: hack/test-unit-plain.sh TAP [NODE]}
node=${2:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
case "$tap" in /*) ;; *) tap="$PWD/$tap" ;; esac

work=$(mktemp -d "${TMPDIR_PLAIN:-/tmp}/cdn-operator-plain.XXXXXX")
trap 'rm -rf "$work"' EXIT
copy="$work/cdn-operator"

# The proof is void if the documents are reachable the way a checkout beside them reaches them.
dir=$work
while :; do
  if [ -e "$dir/shared/reference/openapi" ]; then
    echo "cannot run the plain-clone unit suite: $dir/shared/reference/openapi exists above $copy" >&2
    exit 1
  fi
  [ "$dir" = / ] && break
  dir=$(dirname "$dir")
done

mkdir -p "$copy"
(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
  tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$copy"
[ -e "$repo/node_modules" ] || { echo "cannot run the plain-clone unit suite: no node_modules in $repo (npm ci)" >&2; exit 1; }
cp -a "$repo/node_modules" "$copy/node_modules"
echo "unit suite from a plain copy at $copy${node:+ on $("$node" --version)}" >&2

env_args=(-u CDN_SIM_OPENAPI_DIR)
[ -n "$node" ] && env_args+=("PATH=$(dirname "$node"):$PATH")
rc=0
env "${env_args[@]}" make -C "$copy" --no-print-directory test-unit || rc=$?
mkdir -p "$(dirname "$tap")"
if [ -f "$copy/.tmp/unit.tap" ]; then cp "$copy/.tmp/unit.tap" "$tap"; else rm -f "$tap"; fi
exit "$rc"
