// End-to-end tests: run by test/cluster/with-cluster.ts, which starts one real
// kube-apiserver + etcd for the whole run and exports KUBECONFIG to every test file.
export default {
  // test/e2e/incluster needs the real node: ava.incluster.config.js, make test-incluster.
  files: ['test/e2e/**/*.test.ts', '!test/e2e/incluster/**'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  concurrency: 2,
  timeout: '180s',
};
