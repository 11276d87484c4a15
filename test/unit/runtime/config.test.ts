import test from 'ava';
import { ConfigError, helpText, parseConfig, type OperatorConfig } from '../../../src/config.js';

function run(argv: string[], env: Record<string, string> = {}): OperatorConfig {
  const p = parseConfig(argv, env);
  if (p.command !== 'run') throw new Error('expected run');
  return p.config;
}

test('defaults', (t) => {
  const c = run([]);
  t.like(c, {
    namespaces: [],
    workers: 8,
    pollIntervalMs: 600_000,
    logLevel: 'info',
    apiUrl: 'https://api.bunny.net',
    metricsBindAddress: ':8080',
    healthProbeBindAddress: ':8081',
    leaderElect: false,
    leaseDurationMs: 15_000,
    renewDeadlineMs: 10_000,
    retryPeriodMs: 2_000,
    shutdownTimeoutMs: 30_000,
    leaderElectionNamespace: 'default',
  });
  t.is(c.defaultAccount, undefined);
  t.is(c.operatorNamespace, 'default');
});

test('namespaces: repeatable and comma-separated, deduplicated', (t) => {
  t.deepEqual(run(['--namespace', 'a,b', '--namespace', 'c', '--namespace', 'a']).namespaces, [
    'a',
    'b',
    'c',
  ]);
});

test('environment variables fill in flags; flags win', (t) => {
  const c = run(['--workers', '3'], {
    CDN_OPERATOR_WORKERS: '5',
    CDN_OPERATOR_POLL_INTERVAL: '30s',
    CDN_OPERATOR_LEADER_ELECT: 'true',
    CDN_OPERATOR_NAMESPACE: 'x,y',
    POD_NAMESPACE: 'ops',
  });
  t.is(c.workers, 3);
  t.is(c.pollIntervalMs, 30_000);
  t.true(c.leaderElect);
  t.deepEqual(c.namespaces, ['x', 'y']);
  t.is(c.leaderElectionNamespace, 'ops');
});

test('passes in flight per kind: unset by default (4 × --workers), settable by flag', (t) => {
  t.is(run([]).maxConcurrentReconciles, undefined);
  t.is(run(['--max-concurrent-reconciles', '16']).maxConcurrentReconciles, 16);
  t.is(run([], { CDN_OPERATOR_MAX_CONCURRENT_RECONCILES: '3' }).maxConcurrentReconciles, 3);
});

test('default account and operator namespace', (t) => {
  t.like(run(['--default-account', 'default', '--operator-namespace', 'ops']), {
    defaultAccount: 'default',
    operatorNamespace: 'ops',
  });
  t.is(run([], { POD_NAMESPACE: 'cdn' }).operatorNamespace, 'cdn');
});

const bad: Array<[string[], RegExp, string]> = [
  [['--workers', '0'], /invalid --workers "0": expected an integer >= 1/, 'zero workers'],
  [
    ['--max-concurrent-reconciles', '0'],
    /invalid --max-concurrent-reconciles "0": expected an integer >= 1/,
    'zero passes',
  ],
  [
    ['--poll-interval', '10'],
    /invalid --poll-interval "10": missing unit/,
    'duration without unit',
  ],
  [['--log-level', 'loud'], /invalid --log-level "loud"/, 'unknown level'],
  [['--namespace', 'Bad_NS'], /invalid --namespace "Bad_NS"/, 'namespace name'],
  [
    ['--default-credentials-secret', 'ops/bunny'],
    /--default-credentials-secret was removed: .*CdnAccount.*--default-account/,
    'removed default credentials flag',
  ],
  [['--default-account', 'Bad_Name'], /invalid --default-account "Bad_Name"/, 'account name'],
  [['--operator-namespace', 'a/b'], /invalid --operator-namespace "a\/b"/, 'operator namespace'],
  [
    ['--metrics-bind-address', 'nonsense'],
    /invalid --metrics-bind-address "nonsense"/,
    'bind address',
  ],
  [['--api-url', 'ftp://x'], /invalid --api-url/, 'scheme'],
  [
    ['--leader-election-renew-deadline', '20s'],
    /retry-period < renew-deadline < lease-duration/,
    'lease timing order',
  ],
  [['--frobnicate'], /Unknown option '--frobnicate'.*see --help/, 'unknown flag'],
];
for (const [argv, message, why] of bad) {
  test(`bad input is a ConfigError: ${why}`, (t) => {
    t.throws(() => parseConfig(argv, {}), { instanceOf: ConfigError, message });
  });
}

test('--help lists every flag; --version', (t) => {
  const p = parseConfig(['--help'], {});
  t.is(p.command, 'help');
  for (const flag of [
    '--namespace',
    '--label-selector',
    '--workers',
    '--poll-interval',
    '--log-level',
    '--api-url',
    '--default-account',
    '--operator-namespace',
    '--metrics-bind-address',
    '--health-probe-bind-address',
    '--leader-elect',
    '--shutdown-timeout',
    '--rate-limit',
    '--api-rate-limit-max',
  ]) {
    t.true(helpText().includes(flag), flag);
  }
  t.is(parseConfig(['--version'], {}).command, 'version');
});

test('--api-rate-limit-max: ceiling of the adaptive CDN API rate per account, 0 = none', (t) => {
  t.is(run([]).apiRateLimitMax, 0, 'no ceiling by default');
  t.is(run(['--api-rate-limit-max', '25']).apiRateLimitMax, 25);
  t.is(run([], { CDN_OPERATOR_API_RATE_LIMIT_MAX: '40' }).apiRateLimitMax, 40);
  for (const bad of ['-1', '2.5', 'fast'])
    t.throws(() => run([`--api-rate-limit-max=${bad}`]), {
      instanceOf: ConfigError,
      message: new RegExp(`invalid --api-rate-limit-max "${bad.replace('.', '\\.')}"`),
    });
});

test('bind address 0 disables a server', (t) => {
  t.is(run(['--metrics-bind-address', '0']).metricsBindAddress, '0');
});

test('--sweep-read-share and --sweep-interval: observe by pages, on by default with a fifth of the rate', (t) => {
  t.like(run([]), { sweepReadShare: 0.2, sweepIntervalMs: 60_000 }, 'the defaults');
  t.is(run(['--sweep-read-share', '0']).sweepReadShare, 0, '0 turns the sweeps off');
  t.is(run(['--sweep-read-share', '.5']).sweepReadShare, 0.5);
  t.is(run([], { CDN_OPERATOR_SWEEP_INTERVAL: '2m' }).sweepIntervalMs, 120_000);
  const cases: Array<[string, string]> = [
    ['1.5', 'above the whole rate'],
    ['-0.1', 'negative'],
    ['much', 'not a number'],
  ];
  for (const [bad, why] of cases)
    t.throws(
      () => run([`--sweep-read-share=${bad}`]),
      {
        instanceOf: ConfigError,
        message: /invalid --sweep-read-share .*expected a number from 0 to 1/,
      },
      why,
    );
});

test('--dns01-solver: off by default, nothing of the solver configured', (t) => {
  t.is(run([]).dns01Solver, undefined);
  t.is(run(['--dns01-solver-listen', '127.0.0.1:0']).dns01Solver, undefined, 'settings alone');
});

test('--dns01-solver: the defaults of the interface (0.0.0.0:8443, the tls dir, the group)', (t) => {
  t.deepEqual(run(['--dns01-solver']).dns01Solver, {
    host: '0.0.0.0',
    port: 8443,
    tlsDir: '/var/run/cdn-operator/dns01-tls',
    group: 'acme.cdn.operator.io',
  });
});

test('--dns01-solver settings by flag and environment; port 0 lets the OS pick', (t) => {
  const c = run(['--dns01-solver', '--dns01-solver-listen', '127.0.0.1:0'], {
    CDN_OPERATOR_DNS01_SOLVER_TLS_DIR: '/certs',
    CDN_OPERATOR_DNS01_SOLVER_GROUP: 'acme.example.com',
  });
  t.deepEqual(c.dns01Solver, {
    host: '127.0.0.1',
    port: 0,
    tlsDir: '/certs',
    group: 'acme.example.com',
  });
  t.deepEqual(run([], { CDN_OPERATOR_DNS01_SOLVER: 'true' }).dns01Solver?.port, 8443);
  t.is(run(['--dns01-solver', '--dns01-solver-listen', ':9443']).dns01Solver?.host, '0.0.0.0');
});

const BAD_SOLVER: Array<[string[], RegExp, string]> = [
  [['--dns01-solver', '--dns01-solver-listen', '0'], /--dns01-solver-listen "0"/, 'cannot be off'],
  [['--dns01-solver', '--dns01-solver-listen', 'host'], /expected HOST:PORT/, 'no port'],
  [['--dns01-solver', '--dns01-solver-listen', ':70000'], /--dns01-solver-listen/, 'port range'],
  [['--dns01-solver', '--dns01-solver-group', 'acme'], /--dns01-solver-group "acme"/, 'no dot'],
  [['--dns01-solver', '--dns01-solver-group', 'Acme.X'], /DNS subdomain/, 'upper case'],
  [['--dns01-solver', '--dns01-solver-tls-dir', ''], /--dns01-solver-tls-dir/, 'empty tls dir'],
  [['--dns01-solver-group', 'acme'], /--dns01-solver-group/, 'a bad setting with the solver off'],
];

for (const [argv, message, why] of BAD_SOLVER)
  test(`bad --dns01-solver settings are a ConfigError: ${why}`, (t) => {
    t.throws(() => parseConfig(argv, {}), { instanceOf: ConfigError, message });
  });

test('--help lists the solver flags with their defaults', (t) => {
  const help = helpText();
  for (const flag of ['--dns01-solver ', '--dns01-solver-listen', '--dns01-solver-tls-dir'])
    t.true(help.includes(flag), flag);
  t.regex(help, /--dns01-solver-group <value>.*\(default acme\.cdn\.operator\.io\)/);
});

test('--disable-url-sources: off by default, on by flag or environment', (t) => {
  t.false(run([]).disableUrlSources, 'URL sources work unless refused');
  t.true(run(['--disable-url-sources']).disableUrlSources);
  t.true(run([], { CDN_OPERATOR_DISABLE_URL_SOURCES: 'true' }).disableUrlSources);
  t.regex(helpText(), /--disable-url-sources/);
});
