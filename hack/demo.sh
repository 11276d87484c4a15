#!/usr/bin/env bash
# `make demo` / `make demo-down`: see hack/demo/demo.ts.
#   hack/demo.sh up|down|status
# It runs on the active LTS Node.js of hack/node-versions, the release the image ships
# (installed from the npm registry into ~/.cache/cdn-operator/node on first use, like the Go
# builds), so the operator and cdn-sim it starts run as they do in the image.
# DEMO_NODE=/path/to/node runs it on another Node.js (22 or newer), e.g. the one on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
node=${DEMO_NODE:-}
[ -n "$node" ] || node=$(hack/node-runtime.sh lts | sed -n 's/^node=//p')
[ -x "$node" ] || { echo "cannot run the demo: no Node.js at '$node'" >&2; exit 1; }
exec "$node" --import tsx hack/demo/demo.ts "$@"
