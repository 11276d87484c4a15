#!/usr/bin/env bash
# Makes the operator's base image here, without any image registry: a minimal Debian bookworm
# root filesystem (debootstrap, Debian's own packages) plus the active LTS Node.js and npm of
# hack/node-versions, installed from the npm registry by hack/node-runtime.sh (the official
# binaries), committed with buildah as $BASE_IMAGE. The Dockerfile takes it as NODE_IMAGE.
# The root filesystem is cached as a tarball in ~/.cache/cdn-operator/images, keyed by its
# inputs, so a warm run (or a fresh CI machine with that cache restored) only re-imports it when
# buildah's storage lacks the image. Tarballs of older keys are left for their own checkouts.
#
# Usage: hack/image/make-base.sh        stdout: `base=<image name>`
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=hack/node-versions
. "$here/../node-versions"
cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}/images
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
node_bin=$("$here/../node-runtime.sh" lts | sed -n 's/^node=//p')
npm_dir=$("$here/../node-runtime.sh" npm | sed -n 's/^npm=//p')
node_version=$("$node_bin" --version)
# Keyed by its inputs: the Debian suite, the Node and npm versions and this script.
key=$(cat "$0" "$here/../node-versions" | sha256sum | cut -c1-12)
BASE_IMAGE=${BASE_IMAGE:-localhost/cdn-operator-base:node${node_version#v}-$suite-$key}
tarball="$cache/base-$suite-node${node_version#v}-$key.tar"

# A failed step must not leave a half-made tree (it may hold mounts of /proc): removed on return
# and, as errexit leaves without returning, on exit.
root=""
remove_rootfs() {
  [ -n "$root" ] || return 0
  umount -R "$root/proc" "$root/sys" 2>/dev/null || true
  rm -rf --one-file-system "$root"
  root=""
}
trap remove_rootfs EXIT

make_rootfs() {
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  echo "debootstrap $suite (minbase) into $root" >&2
  # libatomic1: the official Node 26 binary links libatomic.so.1 (Node 22's does not); minbase lacks it.
  nice -n 10 debootstrap --variant=minbase --include=ca-certificates,libatomic1 "$suite" "$root" "$mirror" >&2
  install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  rm -f "$root/usr/local/lib/node_modules/npm/.installed"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # uid/gid 1000 `node`, as in the official Node images the Dockerfile was written against.
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /usr/sbin/nologin --home-dir /home/node --create-home node
  [ "$(chroot "$root" node --version)" = "$node_version" ] || { echo "cannot make the base image: node in it is not $node_version" >&2; return 1; }
  chroot "$root" npm --version >/dev/null
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/log/* "$root"/tmp/*
  tar --numeric-owner -C "$root" -cf "$tarball.$$.tmp" . && mv "$tarball.$$.tmp" "$tarball"
  remove_rootfs
}

mkdir -p "$cache"
# Not `[ -s ] || make_rootfs`: errexit is off inside a function called from an || list.
if [ ! -s "$tarball" ]; then make_rootfs; fi
if ! buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  ctr=$(buildah from scratch)
  trap 'buildah rm "$ctr" >/dev/null 2>&1 || true; remove_rootfs' EXIT
  buildah add --quiet "$ctr" "$tarball" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="${node_version#v}" --workingdir / --cmd node "$ctr"
  buildah commit --quiet "$ctr" "$BASE_IMAGE" >/dev/null
fi
echo "base=$BASE_IMAGE"
