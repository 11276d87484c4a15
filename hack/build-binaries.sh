#!/usr/bin/env bash
# Builds the local control plane binaries (etcd, kube-apiserver, and optionally helm) from Go
# modules and caches them outside the repository. A binary already in the cache is reused.
#
# Usage: hack/build-binaries.sh [etcd] [kube-apiserver] [helm] [argocd-lua] [rulecheck]
#        (default: etcd kube-apiserver)
# Progress goes to stderr; stdout gets one line per target: `<target>=<absolute path of the binary>`.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
K8S_VERSION=v1.33.13
ETCD_VERSION=v3.5.21
HELM_VERSION=v3.18.6
cache=${CDN_OPERATOR_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cdn-operator}/bin

export GOWORK=off CGO_ENABLED=0 GOFLAGS=-mod=mod

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
  local minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
  local ld="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld="$ld -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    ld="$ld -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
  done
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
build_argocd_lua() {
  local out="$cache/argocd-lua-gopher-lua-$GOPHER_LUA_VERSION/argocd-lua"
  [ -x "$out" ] && [ "$out" -nt "$here/lua/main.go" ] && return 0
  echo "building argocd-lua with gopher-lua $GOPHER_LUA_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/lua" && go build -trimpath -ldflags "-s -w" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

# Prometheus rule / PromQL validation of the chart's alerts and dashboard (hack/rulecheck):
# only model/rulefmt and promql/parser, not all of promtool.
PROMETHEUS_VERSION=v0.316.0
build_rulecheck() {
  local out="$cache/rulecheck-prometheus-$PROMETHEUS_VERSION/rulecheck"
  [ -x "$out" ] && [ "$out" -nt "$here/rulecheck/main.go" ] && return 0
  echo "building rulecheck with prometheus $PROMETHEUS_VERSION (cached at $out)" >&2
  mkdir -p "$(dirname "$out")"
  (cd "$here/rulecheck" && go build -trimpath -ldflags "-s -w" -o "$out.tmp" .) && mv "$out.tmp" "$out"
}

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(etcd kube-apiserver)
for t in "${targets[@]}"; do
  case "$t" in
    etcd) build_etcd; echo "etcd=$cache/etcd-$ETCD_VERSION/etcd" ;;
    kube-apiserver) build_apiserver; echo "kube-apiserver=$cache/kube-apiserver-$K8S_VERSION/kube-apiserver" ;;
    helm) build_helm; echo "helm=$cache/helm-$HELM_VERSION-k8s1.$HELM_K8S_MINOR/helm" ;;
    rulecheck) build_rulecheck; echo "rulecheck=$cache/rulecheck-prometheus-$PROMETHEUS_VERSION/rulecheck" ;;
    argocd-lua) build_argocd_lua; echo "argocd-lua=$cache/argocd-lua-gopher-lua-$GOPHER_LUA_VERSION/argocd-lua" ;;
    *) echo "cannot build unknown target: $t" >&2; exit 2 ;;
  esac
done
