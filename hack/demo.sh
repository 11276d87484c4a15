#!/usr/bin/env bash
# `make demo` / `make demo-down`: see hack/demo/demo.ts.
#   hack/demo.sh up|down|status
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx hack/demo/demo.ts "$@"
