#!/usr/bin/env bash
# Fetches the Gateway API CRDs (standard channel) the routes e2e tests install (issue 51), from
# the Go module sigs.k8s.io/gateway-api: `go mod download -json` (checksummed against the Go
# checksum database like every module) and its Dir's config/crd/standard. Cached outside the
# repository in $CDN_OPERATOR_CACHE/gateway-api-<version>/ (default ~/.cache/cdn-operator);
# idempotent. Prints the directory holding the CRD files.
#   hack/fetch-gateway-api-crds.sh            # GATEWAY_API_VERSION defaults to v1.6.3
set -euo pipefail
version=${GATEWAY_API_VERSION:-v1.6.3}
cache=${CDN_OPERATOR_CACHE:-$HOME/.cache/cdn-operator}
dest="$cache/gateway-api-$version"
if [ -f "$dest/.complete" ]; then
  echo "$dest"
  exit 0
fi
# Outside any module: the download needs no go.mod, and a go.work above must not apply.
json=$(cd "$(mktemp -d)" && GOWORK=off GOFLAGS= go mod download -json "sigs.k8s.io/gateway-api@$version")
dir=$(printf '%s\n' "$json" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",\{0,1\}$/\1/p')
if [ -z "$dir" ] || [ ! -d "$dir/config/crd/standard" ]; then
  echo "cannot fetch the Gateway API CRDs: go mod download gave no module directory" >&2
  printf '%s\n' "$json" >&2
  exit 1
fi
tmp="$dest.tmp.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
# The CRDs only: the validating admission policy in the same folder needs an API the e2e
# apiserver may not serve, and the tests need the kinds alone.
cp "$dir"/config/crd/standard/gateway.networking.k8s.io_*.yaml "$tmp/"
rm -f "$tmp"/gateway.networking.k8s.io_vap_*.yaml
chmod -R u+w "$tmp"
touch "$tmp/.complete"
rm -rf "$dest"
mv "$tmp" "$dest"
echo "$dest"
