#!/usr/bin/env bash
# Builds the pod sandbox image the local node's containerd runs for every pod (its config names
# it $PAUSE_IMAGE): a static Go program in an otherwise empty image, committed with buildah.
#
# Usage: hack/image/make-pause.sh        stdout: `pause=<image name>`
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PAUSE_IMAGE=${PAUSE_IMAGE:-localhost/cdn-operator-pause:3.10}
if ! buildah inspect --type image "$PAUSE_IMAGE" >/dev/null 2>&1; then
  work=$(mktemp -d)
  ctr=""
  trap 'rm -rf "$work"; [ -z "$ctr" ] || buildah rm "$ctr" >/dev/null 2>&1 || true' EXIT
  (cd "$here/pause" && GOWORK=off CGO_ENABLED=0 nice -n 10 go build -trimpath -ldflags "-s -w" -o "$work/pause" .)
  ctr=$(buildah from scratch)
  buildah copy --quiet --chmod 0755 "$ctr" "$work/pause" /pause >/dev/null
  buildah config --entrypoint '["/pause"]' --user 65535:65535 "$ctr"
  buildah commit --quiet "$ctr" "$PAUSE_IMAGE" >/dev/null
fi
echo "pause=$PAUSE_IMAGE"
