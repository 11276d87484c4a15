// End-to-end tests: run by test/cluster/with-cluster.ts, which starts one real
// kube-apiserver + etcd for the whole run and exports KUBECONFIG to every test file.
export default {
  files: ['test/e2e/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  concurrency: 2,
  timeout: '180s',
};
