# cdn-operator developer entry points. `make help` lists them.
SHELL := /bin/bash
NODE_BIN := node_modules/.bin
export GOWORK := off

.PHONY: help install build generate lint typecheck test test-unit test-unit-plain test-e2e binaries cluster-up cluster-down demo demo-down bench bench-admission bench-sim chaos clean kind-lines

help: ## List targets
	@grep -E '^[a-z-]+:.*## ' Makefile | sed 's/:.*## /\t/'

# A symlinked node_modules is an install shared with another checkout (a git worktree): npm ci
# would replace the shared tree through the link, so it is left alone.
node_modules: package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a symlink (a shared install): not running npm ci"; else npm ci && touch node_modules; fi

install: node_modules ## Install npm dependencies

build: node_modules ## Compile TypeScript to dist/
	$(NODE_BIN)/tsc -p tsconfig.build.json

# Needs the official documents (../shared/reference/openapi, or CDN_SIM_OPENAPI_DIR=DIR); nothing
# else does: build, run and test read the committed outputs.
generate: node_modules ## Regenerate the API wire types and the API model from the official OpenAPI documents
	node --import tsx hack/generate-types.ts
	node --import tsx hack/generate-api-model.ts

lint: node_modules ## ESLint + Prettier check
	$(NODE_BIN)/eslint .
	$(NODE_BIN)/prettier --check .

typecheck: node_modules ## tsc --noEmit over src, test, bench
	$(NODE_BIN)/tsc -p tsconfig.json --noEmit

binaries: ## Build (or reuse cached) etcd and kube-apiserver
	hack/build-binaries.sh etcd kube-apiserver >/dev/null

test-unit: node_modules build ## Unit tests (TAP in .tmp/unit.tap)
	@mkdir -p .tmp
	set -o pipefail; $(NODE_BIN)/ava --config ava.unit.config.js --tap | tee .tmp/unit.tap

# The unit suite from a copy of the checkout under /tmp, where no ../shared exists (a plain
# clone), optionally on another Node.js (UNIT_NODE=path/to/node; .ci/run: the oldest supported).
test-unit-plain: node_modules ## Unit tests from a plain copy of the checkout in /tmp (TAP in .tmp/unit-plain.tap; UNIT_NODE=path runs them on that node)
	hack/test-unit-plain.sh .tmp/unit-plain.tap "$(UNIT_NODE)"

test-e2e: node_modules build binaries ## E2E tests on a real local kube-apiserver + etcd (TAP in .tmp/e2e.tap)
	@mkdir -p .tmp
	set -o pipefail; node --import tsx test/cluster/with-cluster.ts -- $(NODE_BIN)/ava --config ava.e2e.config.js --tap | tee .tmp/e2e.tap

# The in-cluster suite (real node, image built here; needs root) is part of `make test`;
# CDN_E2E_INCLUSTER=0 is the explicit opt-out, and says so.
test: lint typecheck test-unit test-e2e $(if $(filter 0,$(CDN_E2E_INCLUSTER)),test-incluster-skipped,test-incluster) ## Lint, typecheck, unit, e2e and in-cluster tests (CDN_E2E_INCLUSTER=0 skips in-cluster)

cluster-up: node_modules binaries ## Start a local control plane and print its KUBECONFIG (NODE=1: a real single-node cluster, hack/node/cluster.sh)
ifeq ($(NODE),1)
	hack/node/cluster.sh up
else
	node --import tsx test/cluster/cli.ts up
endif

cluster-down: node_modules ## Stop the local control plane started by cluster-up (NODE=1: the single-node cluster)
ifeq ($(NODE),1)
	hack/node/cluster.sh down
else
	node --import tsx test/cluster/cli.ts down
endif

kind-lines: node_modules ## Hand-written files and lines per kind folder and the places outside it that name the kind (BASE=rev compares)
	node --import tsx hack/kind-lines.ts $(if $(BASE),--base $(BASE),)

clean: ## Remove build outputs (not the binary cache)
	rm -rf dist .tmp

# --- Packaging and first run (deploy/, hack/demo.sh) ---
.PHONY: helm-binary test-tools e2e-tools helm-lint sync-chart-crds

helm-binary: ## Build (or reuse cached) helm from hack/helm/go.mod
	hack/build-binaries.sh helm >/dev/null

# The Go tools both suites run (BUILT_TOOLS in test/unit/packaging/tools.ts): helm for the chart
# and values-schema checks, argocd-lua for the Argo CD health check (gopher-lua, the engine
# Argo CD embeds) and rulecheck for the alert rules. Built from Go here, so the suites need
# nothing the README's prerequisites do not name (test/unit/packaging/prerequisites.test.ts).
test-tools: ## Build (or reuse cached) helm, argocd-lua and rulecheck, the Go tools the tests run
	hack/build-binaries.sh helm argocd-lua rulecheck >/dev/null

test-unit test-e2e: test-tools

# The certificates e2e's components (test/e2e/certificates, E2E_TOOLS in
# test/unit/packaging/tools.ts): cert-manager's controllers, its CRDs and RBAC rendered from its
# chart, and Pebble, the ACME test server, each from its Go module.
e2e-tools: ## Build (or reuse cached) cert-manager's controllers, its CRDs and RBAC, and Pebble, for the certificates e2e
	hack/build-binaries.sh cert-manager cert-manager-manifests pebble >/dev/null

test-e2e: e2e-tools

helm-lint: helm-binary ## helm lint --strict the chart
	"$$(hack/build-binaries.sh helm | sed -n 's/^helm=//p')" lint --strict deploy/helm/cdn-operator

sync-chart-crds: ## Copy crds/ into the chart and kustomize base; regenerate the Argo CD snippet
	deploy/sync.sh

demo: node_modules binaries ## Local control plane + cdn-sim + operator + examples, waits until Ready
	hack/demo.sh up

demo-down: ## Stop what `make demo` started (operator, cdn-sim, control plane)
	hack/demo.sh down

bench-sim: node_modules ## cdn-sim requests/second on loopback, mixed workload (~10 s; BENCH_SECONDS=, BENCH_CLIENTS=)
	node --import tsx bench/sim-bench.ts --seconds $${BENCH_SECONDS:-10} --clients $${BENCH_CLIENTS:-32}

# --- Benchmarks and fault injection (bench/, docs/bench.md) ---
bench: node_modules binaries ## Benchmarks on a private control plane + cdn-sim; writes bench/results/<date>.{json,md}, latest.md (BENCH_QUICK=1 short run, BENCH_ARGS= flags)
	node --import tsx bench/run.ts $(BENCH_ARGS)

bench-admission: node_modules binaries ## Admission cost of our CRDs vs a minimal CRD (no operator): kubectl apply create/update and status writes of N objects per kind; writes bench/results/admission-<date>.{json,md} (ADMISSION_ARGS='--n 500 --runs 2')
	node --import tsx bench/admission.ts $(ADMISSION_ARGS)

chaos: node_modules binaries ## Fault-injection suite, full size; writes bench/results/chaos-<date>.{json,md}, chaos-latest.md (CHAOS_ARGS= e.g. --group faults)
	node --import tsx bench/chaos/run.ts $(CHAOS_ARGS)

# --- Soak (bench/soak): heap slope and watch restarts under long load ---
.PHONY: soak
soak: node_modules build ## Soak: >=1M CDN requests + >=100k faulty watch events (heap after GC), then the operator under a watch fault mix for 10 min (SOAK_QUICK=1: small; SOAK_ARGS='--phase runtime|operator')
	nice node --expose-gc --import tsx bench/soak/run.ts $(SOAK_ARGS)

# --- A real node: kubelet + containerd, the image built here (hack/node, hack/image) ---
.PHONY: node-binaries image test-incluster test-incluster-skipped actionlint

node-binaries: ## Build (or reuse cached) kubelet, kube-controller-manager, kube-scheduler, kube-proxy
	hack/build-binaries.sh node >/dev/null

image: ## Build the operator image with buildah on a base made here (IMAGE=localhost/cdn-operator:dev)
	hack/image/build.sh $(IMAGE)

# Builds what it needs itself: a machine that cannot run the node, or a failed build, is a
# failed test with its reason in .tmp/incluster.tap (hack/node/test-incluster.sh).
test-incluster: node_modules ## Helm install on a real single-node cluster: probes, leader, failover, upgrade, uninstall, token rotation (TAP in .tmp/incluster.tap)
	hack/node/test-incluster.sh .tmp/incluster.tap

test-incluster-skipped:
	@echo "in-cluster suite skipped (CDN_E2E_INCLUSTER=0)"

actionlint: ## Lint .github/workflows with actionlint (built and cached from its Go module)
	"$$(hack/build-binaries.sh actionlint | sed -n 's/^actionlint=//p')" -no-color
