#!/usr/bin/env bash
# Makes the operator's base image here, without any registry: a minimal Debian bookworm root
# filesystem (debootstrap, Debian's own packages) plus the Node.js 20 binary and npm already on
# this machine, committed with buildah as $BASE_IMAGE. The Dockerfile takes it as NODE_IMAGE.
# The root filesystem is cached as a tarball in ~/.cache/cdn-operator/images, keyed by its
# inputs, so a warm run (or a fresh CI machine with that cache restored) only re-imports it when
# buildah's storage lacks the image. Tarballs of older keys are left for their own checkouts.
#
# Usage: hack/image/make-base.sh        stdout: `base=<image name>`
set -euo pipefail

cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}/images
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
node_bin=$(command -v node)
node_version=$("$node_bin" --version)
case "$node_version" in v20.*) ;; *) echo "cannot make the base image: need Node.js 20, found $node_version" >&2; exit 1 ;; esac
npm_dir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
# Keyed by its inputs: the Debian suite, the Node version and this script (what goes in).
key=$(sha256sum "$0" | cut -c1-12)
BASE_IMAGE=${BASE_IMAGE:-localhost/cdn-operator-base:node${node_version#v}-$suite-$key}
tarball="$cache/base-$suite-node${node_version#v}-$key.tar"

make_rootfs() {
  local root
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  # A failed debootstrap must not leave a half-made tree (it may hold mounts of /proc).
  trap 'umount -R "$root/proc" "$root/sys" 2>/dev/null || true; rm -rf --one-file-system "$root"' RETURN
  echo "debootstrap $suite (minbase) into $root" >&2
  nice -n 10 debootstrap --variant=minbase --include=ca-certificates "$suite" "$root" "$mirror" >&2
  install -D -m 0755 "$node_bin" "$root/usr/local/bin/node"
  mkdir -p "$root/usr/local/lib/node_modules"
  cp -a "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # uid/gid 1000 `node`, as in the official Node images the Dockerfile was written against.
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /usr/sbin/nologin --home-dir /home/node --create-home node
  chroot "$root" node --version >/dev/null
  rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb \
    "$root"/var/log/* "$root"/tmp/*
  tar --numeric-owner -C "$root" -cf "$tarball.$$.tmp" . && mv "$tarball.$$.tmp" "$tarball"
}

mkdir -p "$cache"
[ -s "$tarball" ] || make_rootfs
if ! buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1; then
  ctr=$(buildah from scratch)
  trap 'buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
  buildah add --quiet "$ctr" "$tarball" / >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env NODE_VERSION="${node_version#v}" --workingdir / --cmd node "$ctr"
  buildah commit --quiet "$ctr" "$BASE_IMAGE" >/dev/null
fi
echo "base=$BASE_IMAGE"
