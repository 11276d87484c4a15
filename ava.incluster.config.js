// In-cluster tests: run by hack/node/cluster.sh inside the namespaces of a real single-node
// cluster (kubelet + containerd) with the operator image built here; see `make test-incluster`.
export default {
  files: ['test/e2e/incluster/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  // Files install their own releases; two at once fit the node and the 2-core CI machine.
  concurrency: 2,
  timeout: '1200s',
};
