// Unit tests: pure code and in-process servers (cdn-sim on loopback); no Kubernetes.
export default {
  files: ['test/unit/**/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  workerThreads: false,
  concurrency: 2,
  timeout: '60s',
};
