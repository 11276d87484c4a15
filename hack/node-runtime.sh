#!/usr/bin/env bash
# Installs an official Node.js release (or npm) from the npm registry into the cache, once per
# version, and prints where it is. The Node.js project publishes its binaries as the npm packages
# node-linux-<arch>@<version> (the `node` binary inside), so no other download site is needed.
# The cache is the Go builds' one: $CDN_OPERATOR_CACHE or ~/.cache/cdn-operator (node/ below it).
#
# Usage: hack/node-runtime.sh lts|oldest|<version>   stdout: `node=<path of the node binary>`
#        hack/node-runtime.sh npm                    stdout: `npm=<npm package directory>`
# Versions: hack/node-versions.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=hack/node-versions
. "$here/node-versions"
cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}/node

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64) arch=arm64 ;;
  *) echo "cannot install Node.js: no official binary package for $(uname -m)" >&2; exit 1 ;;
esac

# install_package SPEC DEST: `npm pack` (integrity checked against the registry) and unpack into
# DEST, atomically: a concurrent install of the same version either wins or finds it done.
install_package() {
  local spec=$1 dest=$2 tmp
  [ -f "$dest/.installed" ] && return 0
  mkdir -p "$(dirname "$dest")"
  tmp=$(mktemp -d "$dest.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' RETURN
  echo "installing $spec from the npm registry into $dest" >&2
  (cd "$tmp" && npm pack --silent --ignore-scripts "$spec" >/dev/null)
  tar -xzf "$tmp"/*.tgz -C "$tmp"
  touch "$tmp/package/.installed"
  mv -T "$tmp/package" "$dest" 2>/dev/null || [ -f "$dest/.installed" ]
}

what=${1:-lts}
case "$what" in
  npm)
    dest="$cache/npm-$NPM_VERSION"
    install_package "npm@$NPM_VERSION" "$dest"
    echo "npm=$dest"
    exit 0
    ;;
  lts) version=$NODE_LTS ;;
  oldest) version=$NODE_OLDEST ;;
  [0-9]*.[0-9]*.[0-9]*) version=$what ;;
  *) echo "usage: $0 lts|oldest|npm|<version>" >&2; exit 2 ;;
esac

dest="$cache/node-v$version-linux-$arch"
install_package "node-linux-$arch@$version" "$dest"
found=$("$dest/bin/node" --version)
[ "$found" = "v$version" ] || { echo "cannot install Node.js $version: $dest/bin/node reports $found" >&2; exit 1; }
echo "node=$dest/bin/node"
