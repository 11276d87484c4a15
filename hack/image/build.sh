#!/usr/bin/env bash
# Builds the operator image from the repository's Dockerfile with buildah, on a base image made
# here (no registry needed), plus the pod sandbox image the local node needs.
#
# Usage: hack/image/build.sh [image]      (default image: localhost/cdn-operator:dev)
# stdout: `image=<name>`, `pause=<name>`; progress on stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
image=${1:-${IMAGE:-localhost/cdn-operator:dev}}

base=$("$here/make-base.sh" | sed -n 's/^base=//p')
pause=$("$here/make-pause.sh" | sed -n 's/^pause=//p')
echo "building $image from $repo/Dockerfile on $base" >&2
# Host network: the build stage's `npm ci` reaches the npm registry the same way the host does,
# trusting the same extra CAs (a TLS-inspecting proxy), mounted for the build steps only.
ca_args=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  ca_args=(-v "$NODE_EXTRA_CA_CERTS:/run/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt)
fi
nice -n 10 buildah bud --quiet --layers --network host --isolation chroot "${ca_args[@]}" \
  --build-arg NODE_IMAGE="$base" -t "$image" -f "$repo/Dockerfile" "$repo" >&2
echo "image=$image"
echo "pause=$pause"
