#!/usr/bin/env bash
# Builds the local control plane binaries (etcd, kube-apiserver, and optionally helm) from Go
# modules and caches them outside the repository. A binary already in the cache is reused.
#
# Usage: hack/build-binaries.sh [etcd] [kube-apiserver] [helm] [argocd-lua] [rulecheck] [node] [actionlint] [kubectl]
#                               [cert-manager] [cert-manager-manifests] [pebble]
#        (default: etcd kube-apiserver)
# `cert-manager`, `cert-manager-manifests` and `pebble` are the certificates e2e's cert-manager
# controllers, cert-manager's CRDs and RBAC (a directory, rendered from its chart) and the ACME
# test server (a directory: the binary and its test certificates).
# `node` builds kubelet, kube-controller-manager, kube-scheduler and kube-proxy in one `go build`
# (they share compilation) into one directory; `actionlint` lints .github/workflows.
# Progress goes to stderr; stdout gets one line per target: `<target>=<absolute path of the binary>`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=v1.33.13
ETCD_VERSION=v3.5.21
HELM_VERSION=v3.18.6
cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}/bin

export GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod

# Linker flags that stamp a Kubernetes version (v1.X.Y) into component-base and client-go, as
# the upstream release build does (`kubectl version`, the apiserver's /version).
k8s_version_ldflags() {
  local minor=${1#v1.}; minor=${minor%%.*}
  local ld="-s -w" pkg
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $pkg.gitVersion=$1 -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ld="$ld -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
  echo "$ld"
}

build_etcd() {
  local out="$cache/etcd-$ETCD_VERSION/etcd"
  [ -x "$out" ] && return 0
  echo "building etcd $ETCD_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/etcd" && go build -trimpath \
    -ldflags "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$ETCD_VERSION" \
    -o "$out.tmp" go.etcd.io/etcd/server/v3) && mv "$out.tmp" "$out"
}

build_apiserver() {
  local out="$cache/kube-apiserver-$K8S_VERSION/kube-apiserver"
  [ -x "$out" ] && return 0
  echo "building kube-apiserver $K8S_VERSION (cached at $out; takes several minutes cold)" >&2
  mkdir -p "$(dirname "$out")"
  local ld
  ld=$(k8s_version_ldflags "$K8S_VERSION")
  (cd "$here/apiserver" && go build -trimpath -ldflags "$ld" \
    -o "$out.tmp" k8s.io/kubernetes/cmd/kube-apiserver) && mv "$out.tmp" "$out"
}

# Released helm binaries carry the Kubernetes version of their client-go (major + 1, as helm's
# Makefile computes it) so `helm template` without --kube-version checks kubeVersion against it;
# without these flags helm assumes v1.20 and refuses our chart. The cache path names the flavour
# so a binary built without the flags is never reused.
HELM_K8S_MINOR=33
build_helm() {
  local out="$cache/helm-$HELM_VERSION-k8s1.$HELM_K8S_MINOR/helm"
  [ -x "$out" ] && return 0
  echo "building helm $HELM_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  local ld="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION"
  for pkg in helm.sh/helm/v3/pkg/lint/rules helm.sh/helm/v3/pkg/chartutil; do
    ld="$ld -X $pkg.k8sVersionMajor=1 -X $pkg.k8sVersionMinor=$HELM_K8S_MINOR"
  done
  (cd "$here/helm" && go build -trimpath -ldflags "$ld" \
    -o "$out.tmp" helm.sh/helm/v3/cmd/helm) && mv "$out.tmp" "$out"
}

# The Argo CD health checks run in gopher-lua, the Lua engine Argo CD embeds (hack/lua).
GOPHER_LUA_VERSION=v1.1.1
# Keyed by the content of the small main programs (not their mtime: every fresh checkout is
# newer than the cache, and CI would rebuild them on every run).
src_key() { cat "$@" | sha256sum | cut -c1-12; }
argocd_lua_path() { echo "$cache/argocd-lua-gopher-lua-$GOPHER_LUA_VERSION-$(src_key "$here/lua/main.go" "$here/lua/go.sum")/argocd-lua"; }
build_argocd_lua() {
  local out
  out=$(argocd_lua_path)
  [ -x "$out" ] && return 0
  echo "building argocd-lua with gopher-lua $GOPHER_LUA_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/lua" && go build -trimpath -ldflags "-s -w" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

# Prometheus rule / PromQL validation of the chart's alerts and dashboard (hack/rulecheck):
# only model/rulefmt and promql/parser, not all of promtool.
PROMETHEUS_VERSION=v0.316.0
rulecheck_path() { echo "$cache/rulecheck-prometheus-$PROMETHEUS_VERSION-$(src_key "$here/rulecheck/main.go" "$here/rulecheck/go.sum")/rulecheck"; }
build_rulecheck() {
  local out
  out=$(rulecheck_path)
  [ -x "$out" ] && return 0
  echo "building rulecheck with prometheus $PROMETHEUS_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/rulecheck" && go build -trimpath -ldflags "-s -w" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

# The opt-in local node (hack/node/): one `go build` of the four commands shares compilation.
# kubelet needs no cgo for what the node uses (containerd over CRI, cgroupfs).
build_node() {
  local dir="$cache/node-$K8S_VERSION"
  local cmd
  for cmd in kubelet kube-controller-manager kube-scheduler kube-proxy; do
    [ -x "$dir/$cmd" ] || break
    cmd=""
  done
  [ -z "$cmd" ] && return 0
  echo "building kubelet, kube-controller-manager, kube-scheduler, kube-proxy $K8S_VERSION (cached in $dir; takes several minutes cold)" >&2
  mkdir -p "$dir.tmp"
  local ld
  ld=$(k8s_version_ldflags "$K8S_VERSION")
  (cd "$here/node" && nice -n 10 go build -trimpath -ldflags "$ld" -o "$dir.tmp/" \
    k8s.io/kubernetes/cmd/kubelet k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kube-proxy)
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# A current kubectl for the bench (hack/kubectl): KUBECTL=<path> makes the bench and the e2e
# helpers use it instead of the kubectl on PATH.
KUBECTL_VERSION=v1.35.4
kubectl_path() { echo "$cache/kubectl-$KUBECTL_VERSION-$(src_key "$here/kubectl/main.go" "$here/kubectl/go.sum")/kubectl"; }
build_kubectl() {
  local out
  out=$(kubectl_path)
  [ -x "$out" ] && return 0
  echo "building kubectl $KUBECTL_VERSION (cached at $out; takes a few minutes cold)" >&2
  mkdir -p "$(dirname "$out")"
  local ld
  ld=$(k8s_version_ldflags "$KUBECTL_VERSION")
  (cd "$here/kubectl" && nice -n 10 go build -trimpath -ldflags "$ld" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

ACTIONLINT_VERSION=v1.7.7
build_actionlint() {
  local out="$cache/actionlint-$ACTIONLINT_VERSION/actionlint"
  [ -x "$out" ] && return 0
  echo "building actionlint $ACTIONLINT_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/actionlint" && nice -n 10 go build -trimpath -ldflags "-s -w" \
    -o "$out.tmp" github.com/rhysd/actionlint/cmd/actionlint) && mv "$out.tmp" "$out"
}

# cert-manager's controllers for the certificates e2e (hack/cert-manager/main.go: its own command
# cannot be fetched as a Go module, see there). Keyed by the main program's content.
CERT_MANAGER_VERSION=v1.21.2
cert_manager_path() { echo "$cache/cert-manager-$CERT_MANAGER_VERSION-$(src_key "$here/cert-manager/main.go" "$here/cert-manager/go.sum")/cert-manager"; }
build_cert_manager() {
  local out
  out=$(cert_manager_path)
  [ -x "$out" ] && return 0
  echo "building cert-manager $CERT_MANAGER_VERSION controllers (cached at $out; takes a few minutes cold)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/cert-manager" && nice -n 10 go build -trimpath \
    -ldflags "-s -w -X main.version=$CERT_MANAGER_VERSION" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

# The directory of module $2 as the go.mod in hack/$1 pins it (downloaded if needed): where the
# files a build takes from a module's source (a chart, test certificates) are read.
module_dir() {
  (cd "$here/$1" && go mod download -json "$2" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
}

# cert-manager's CRDs and the controller's RBAC (crds.yaml, rbac.yaml), rendered by helm from the
# chart in the same module: what `helm install --set crds.enabled=true` applies for them.
cert_manager_manifests_path() { echo "$cache/cert-manager-$CERT_MANAGER_VERSION-manifests"; }
build_cert_manager_manifests() {
  local dir
  dir=$(cert_manager_manifests_path)
  [ -s "$dir/crds.yaml" ] && [ -s "$dir/rbac.yaml" ] && return 0
  build_helm
  echo "rendering cert-manager $CERT_MANAGER_VERSION CRDs and RBAC (cached in $dir)" >&2
  local chart
  chart=$(module_dir cert-manager github.com/cert-manager/cert-manager)/deploy/charts/cert-manager
  [ -d "$chart" ] || { echo "cannot render cert-manager manifests: no chart at $chart" >&2; return 1; }
  local helm="$cache/helm-$HELM_VERSION-k8s1.$HELM_K8S_MINOR/helm" crds=() t
  for t in "$chart"/templates/crd-*.yaml; do crds+=(--show-only "templates/$(basename "$t")"); done
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  "$helm" template cert-manager "$chart" --namespace cert-manager --set crds.enabled=true \
    "${crds[@]}" >"$dir.tmp/crds.yaml" &&
    "$helm" template cert-manager "$chart" --namespace cert-manager \
      --show-only templates/rbac.yaml >"$dir.tmp/rbac.yaml" || return 1
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

# Pebble, Let's Encrypt's ACME test server, with the test certificates of its module: it serves
# HTTPS with test/certs/localhost and issues from a CA it creates at start.
PEBBLE_VERSION=v2.10.3
build_pebble() {
  local dir="$cache/pebble-$PEBBLE_VERSION"
  [ -x "$dir/pebble" ] && return 0
  echo "building pebble $PEBBLE_VERSION (cached in $dir)" >&2
  rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
  (cd "$here/pebble" && go build -trimpath -ldflags "-s -w" \
    -o "$dir.tmp/pebble" github.com/letsencrypt/pebble/v2/cmd/pebble) || return 1
  local src
  src=$(module_dir pebble github.com/letsencrypt/pebble/v2)
  mkdir -p "$dir.tmp/certs"
  cp "$src/test/certs/pebble.minica.pem" "$src/test/certs/localhost/cert.pem" \
    "$src/test/certs/localhost/key.pem" "$dir.tmp/certs/" && chmod u+w "$dir.tmp/certs/"*
  rm -rf "$dir" && mv "$dir.tmp" "$dir"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(etcd kube-apiserver)
# One build at a time per cache: two processes (CI and an e2e run started beside it, or two
# checkouts) building the same binary wrote the same .tmp path, and the slower one's `mv`
# failed after minutes of work. The second waits here, then finds the binary built.
mkdir -p "$cache"
exec 9>"$cache/.build.lock"
flock 9
for t in "${targets[@]}"; do
  case "$t" in
    etcd) build_etcd; echo "etcd=$cache/etcd-$ETCD_VERSION/etcd" ;;
    kube-apiserver) build_apiserver; echo "kube-apiserver=$cache/kube-apiserver-$K8S_VERSION/kube-apiserver" ;;
    helm) build_helm; echo "helm=$cache/helm-$HELM_VERSION-k8s1.$HELM_K8S_MINOR/helm" ;;
    rulecheck) build_rulecheck; echo "rulecheck=$(rulecheck_path)" ;;
    argocd-lua) build_argocd_lua; echo "argocd-lua=$(argocd_lua_path)" ;;
    node) build_node; echo "node=$cache/node-$K8S_VERSION" ;;
    kubectl) build_kubectl; echo "kubectl=$(kubectl_path)" ;;
    cert-manager) build_cert_manager; echo "cert-manager=$(cert_manager_path)" ;;
    cert-manager-manifests) build_cert_manager_manifests; echo "cert-manager-manifests=$(cert_manager_manifests_path)" ;;
    pebble) build_pebble; echo "pebble=$cache/pebble-$PEBBLE_VERSION" ;;
    actionlint) build_actionlint; echo "actionlint=$cache/actionlint-$ACTIONLINT_VERSION/actionlint" ;;
    *) echo "cannot build unknown target: $t" >&2; exit 2 ;;
  esac
done
