// The pod sandbox ("pause") program of the local node, built here because no registry is
// reachable; see hack/image/make-pause.sh.
module cdn-operator.local/hack/image/pause

go 1.24.0
