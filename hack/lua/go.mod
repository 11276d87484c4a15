// Builds argocd-lua, the gopher-lua runner of the Argo CD health checks; see hack/build-binaries.sh.
module cdn-operator.local/hack/lua

go 1.24.0

// The version Argo CD v2.x and v3.x embed.
require github.com/yuin/gopher-lua v1.1.1
