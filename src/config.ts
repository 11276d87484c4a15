/**
 * `cdn-operator` configuration from flags and environment variables. Every flag `--foo-bar`
 * can also be given as `CDN_OPERATOR_FOO_BAR`; a flag wins over the environment. Bad input
 * raises a {@link ConfigError} naming the flag, the value and the reason (exit code 2).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { LevelWithSilent } from 'pino';
import { API_DOMAIN, groupKey } from './api-group.js';
import { parseDuration } from './runtime/duration.js';
import { parseBindAddress } from './runtime/health.js';
import { MAX_POLL_INTERVAL_MS, MIN_POLL_INTERVAL_MS } from './runtime/poll-interval.js';

/** The parsed configuration. */
export interface OperatorConfig {
  kubeconfig?: string;
  /** Namespaces to watch; empty means all namespaces. */
  namespaces: string[];
  /**
   * Namespaces whose Secrets and ConfigMaps are watched (where RBAC lets the operator list
   * them); unset: the watched namespaces. Reads elsewhere are GETs.
   */
  secretNamespaces?: string[];
  labelSelector?: string;
  /** Platform calls in flight per kind (platform slots). */
  workers: number;
  /** Reconcile passes in flight per kind; unset: 4 × workers. */
  maxConcurrentReconciles?: number;
  pollIntervalMs: number;
  logLevel: LevelWithSilent;
  apiUrl: string;
  /** CdnAccount used by objects without `spec.accountRef` and `spec.credentialsRef`. */
  defaultAccount?: string;
  /** Namespace holding CdnAccount credentials Secrets (the operator's own namespace). */
  operatorNamespace: string;
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  leaderElectionId: string;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  shutdownTimeoutMs: number;
  /** Global limit of reconcile starts per second (0 = unlimited) and its burst. */
  rateLimit: number;
  rateLimitBurst: number;
  /**
   * Ceiling of each account's adaptive CDN API request rate (requests per second; 0 = no
   * ceiling: the rate follows the platform's 429 answers alone).
   */
  apiRateLimitMax: number;
  /** Reopen a watch that delivered no event or bookmark for this long. */
  watchStallTimeoutMs: number;
  /** Share of each account's request rate the list sweeps may use (0: observe by id only). */
  sweepReadShare: number;
  /** Least time between the starts of two sweeps of one account and resource type. */
  sweepIntervalMs: number;
  /**
   * Compose CdnPolicies (docs/routes.md): watch Ingresses and the Gateway API routes and make
   * PullZoneConfig, DnsRecord and ShieldPolicy objects. Off by default: it needs RBAC the
   * operator does not otherwise have (read on routes, create and delete on those kinds).
   */
  routes: boolean;
  /**
   * Refuse specs that make the operator fetch a URL (VideoLibrary `spec.watermark.image.url`):
   * for clusters whose tenants must not make the operator send requests anywhere.
   */
  disableUrlSources: boolean;
  /** The cert-manager DNS-01 solver (`--dns01-solver`); unset: off, nothing of it starts. */
  dns01Solver?: Dns01SolverConfig;
}

/** Settings of the DNS-01 solver webhook (docs/certificates.md). */
export interface Dns01SolverConfig {
  /** Where it listens (`--dns01-solver-listen`); port 0: the OS picks one. */
  host: string;
  port: number;
  /** Directory of `tls.crt` and `tls.key`, the serving certificate (`--dns01-solver-tls-dir`). */
  tlsDir: string;
  /** The API group of its APIService (`--dns01-solver-group`). */
  group: string;
}

/** A configuration problem (exit code 2). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Result of {@link parseConfig}. */
export type ParsedCommand =
  | { command: 'run'; config: OperatorConfig }
  | { command: 'help'; text: string }
  | { command: 'version' };

interface FlagDoc {
  type: 'string' | 'boolean';
  multiple?: boolean;
  def?: string;
  help: string;
}

const FLAGS: Record<string, FlagDoc> = {
  kubeconfig: {
    type: 'string',
    help: 'Path to a kubeconfig (default: KUBECONFIG, ~/.kube/config, then in-cluster)',
  },
  namespace: {
    type: 'string',
    multiple: true,
    help: 'Namespace to watch; repeatable or comma-separated (default: all namespaces)',
  },
  'secret-namespace': {
    type: 'string',
    multiple: true,
    help: 'Namespace whose Secrets/ConfigMaps are watched (where RBAC allows listing them); repeatable or comma-separated (default: the watched namespaces)',
  },
  'label-selector': { type: 'string', help: 'Only manage objects matching this label selector' },
  workers: {
    type: 'string',
    def: '8',
    help: 'Platform calls in flight per kind (a pass holds one only during its platform calls)',
  },
  'max-concurrent-reconciles': {
    type: 'string',
    help: 'Reconcile passes in flight per kind (default: 4 × --workers)',
  },
  'poll-interval': {
    type: 'string',
    def: '10m',
    help: `Default drift-check interval (jittered ±10 %); per object: annotation ${groupKey('poll-interval')}`,
  },
  'log-level': {
    type: 'string',
    def: 'info',
    help: 'trace, debug, info, warn, error, fatal or silent',
  },
  'api-url': {
    type: 'string',
    def: 'https://api.bunny.net',
    help: 'Base URL of the CDN management API',
  },
  'default-account': {
    type: 'string',
    help: 'CdnAccount for objects without spec.accountRef or spec.credentialsRef (only in namespaces its namespaceSelector matches)',
  },
  'operator-namespace': {
    type: 'string',
    help: 'Namespace of the CdnAccount credentials Secrets (default: POD_NAMESPACE, the in-cluster namespace, or default)',
  },
  'default-credentials-secret': {
    type: 'string',
    help: 'Removed: create a CdnAccount and pass --default-account (docs/install.md, Accounts)',
  },
  'default-credentials-key': {
    type: 'string',
    help: 'Removed together with --default-credentials-secret',
  },
  'metrics-bind-address': {
    type: 'string',
    def: ':8080',
    help: 'Address of the Prometheus /metrics endpoint; 0 disables it',
  },
  'health-probe-bind-address': {
    type: 'string',
    def: ':8081',
    help: 'Address of /healthz and /readyz; 0 disables it',
  },
  routes: {
    type: 'boolean',
    help: 'Compose CdnPolicies: put the CDN in front of Ingresses, Gateways and HTTPRoutes (docs/routes.md; needs the chart value routes.enabled for its RBAC)',
  },
  'leader-elect': {
    type: 'boolean',
    help: 'Enable leader election (a coordination.k8s.io Lease) for running several replicas',
  },
  'leader-election-namespace': {
    type: 'string',
    help: 'Namespace of the Lease (default: POD_NAMESPACE, the in-cluster namespace, or default)',
  },
  'leader-election-id': {
    type: 'string',
    def: `cdn-operator.${API_DOMAIN}`,
    help: 'Name of the Lease',
  },
  'leader-election-lease-duration': {
    type: 'string',
    def: '15s',
    help: 'How long a standby waits before taking over an unrenewed lease',
  },
  'leader-election-renew-deadline': {
    type: 'string',
    def: '10s',
    help: 'How long the leader retries renewing before it gives up',
  },
  'leader-election-retry-period': {
    type: 'string',
    def: '2s',
    help: 'Interval between acquire/renew attempts',
  },
  'shutdown-timeout': {
    type: 'string',
    def: '30s',
    help: 'On SIGTERM, how long in-flight reconciles may take to finish',
  },
  'rate-limit': {
    type: 'string',
    // Above workers ÷ latency of a fast platform (8 ÷ 50 ms = 160/s): the CDN side is paced per
    // account by the adaptive client limiter, so this only guards the process and the apiserver.
    def: '200',
    help: 'Global limit of reconcile starts per second across all kinds (0 = unlimited)',
  },
  'rate-limit-burst': { type: 'string', def: '100', help: 'Burst of the global rate limit' },
  'api-rate-limit-max': {
    type: 'string',
    def: '0',
    help: 'Ceiling of the CDN API request rate per account, in requests/s (the rate adapts to the platform below it, bursts stay within one second of it; 0 = no ceiling)',
  },
  'watch-stall-timeout': {
    type: 'string',
    def: '5m',
    help: 'Reopen a watch that delivered no event or bookmark for this long',
  },
  'sweep-read-share': {
    type: 'string',
    def: '0.2',
    help: "Observe by pages: share of each account's CDN API request rate (0 to 1) the list sweeps that answer drift checks may use (0 = every drift check reads its resource by id)",
  },
  'sweep-interval': {
    type: 'string',
    def: '60s',
    help: 'Observe by pages: least time between the starts of two sweeps of one account and resource type',
  },
  'dns01-solver': {
    type: 'boolean',
    help: "Serve cert-manager's DNS-01 webhook solver (docs/certificates.md) beside the operator, on every replica",
  },
  'dns01-solver-listen': {
    type: 'string',
    def: '0.0.0.0:8443',
    help: 'HOST:PORT of the DNS-01 solver (HTTPS; port 0: the OS picks one)',
  },
  'dns01-solver-tls-dir': {
    type: 'string',
    def: '/var/run/cdn-operator/dns01-tls',
    help: "Directory of the DNS-01 solver's serving certificate (tls.crt and tls.key, PEM; re-read when they change)",
  },
  'dns01-solver-group': {
    type: 'string',
    def: `acme.${API_DOMAIN}`,
    help: "API group of the DNS-01 solver's APIService (the Issuer's webhook.groupName)",
  },
  'disable-url-sources': {
    type: 'boolean',
    help: 'Refuse specs that make the operator fetch a URL (VideoLibrary spec.watermark.image.url); ConfigMap and Secret sources still work',
  },
  help: { type: 'boolean', help: 'Show this help' },
  version: { type: 'boolean', help: 'Print the version' },
};

/** The `--help` text. */
export function helpText(): string {
  const lines = [
    'Usage: cdn-operator [flags]',
    '',
    'Kubernetes operator for the bunny.net CDN management API.',
    '',
    'Flags (each also settable as CDN_OPERATOR_<FLAG_NAME>, e.g. CDN_OPERATOR_WORKERS=4):',
  ];
  for (const [name, f] of Object.entries(FLAGS)) {
    const arg = f.type === 'string' ? ' <value>' : '';
    const def = f.def !== undefined ? ` (default ${f.def})` : '';
    lines.push(`  --${name}${arg}`.padEnd(46) + f.help + def);
  }
  return lines.join('\n') + '\n';
}

function envName(flag: string): string {
  return `CDN_OPERATOR_${flag.toUpperCase().replace(/-/g, '_')}`;
}

type Values = Record<string, string | boolean | string[] | undefined>;

function readValues(argv: string[], env: NodeJS.ProcessEnv): Values {
  const options = Object.fromEntries(
    Object.entries(FLAGS).map(([k, f]) => [
      k,
      { type: f.type, ...(f.multiple ? { multiple: true } : {}) },
    ]),
  );
  let values: Values;
  try {
    values = parseArgs({ args: argv, options, allowPositionals: false, strict: true })
      .values as Values;
  } catch (err) {
    throw new ConfigError(`${(err as Error).message.replace(/\. To specify.*$/s, '')}; see --help`);
  }
  for (const [name, f] of Object.entries(FLAGS)) {
    if (values[name] !== undefined) continue;
    const raw = env[envName(name)];
    if (raw === undefined || raw === '') continue;
    values[name] = f.type === 'boolean' ? parseBool(name, raw) : f.multiple ? [raw] : raw;
  }
  return values;
}

function parseBool(flag: string, raw: string): boolean {
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new ConfigError(`invalid ${envName(flag)} "${raw}": expected true or false`);
}

function str(v: Values, flag: string): string {
  const value = v[flag];
  return typeof value === 'string' ? value : (FLAGS[flag]?.def ?? '');
}

function duration(v: Values, flag: string): number {
  try {
    const ms = parseDuration(str(v, flag));
    if (ms <= 0) throw new Error('must be positive');
    return ms;
  } catch (err) {
    throw new ConfigError(
      `invalid --${flag} "${str(v, flag)}": ${(err as Error).message.replace(/^invalid duration "[^"]*": /, '')}`,
    );
  }
}

/** --poll-interval within the range the annotation is clamped to (5 s … 24 h). */
function pollInterval(v: Values): number {
  const ms = duration(v, 'poll-interval');
  if (ms < MIN_POLL_INTERVAL_MS || ms > MAX_POLL_INTERVAL_MS)
    throw new ConfigError(
      `invalid --poll-interval "${str(v, 'poll-interval')}": must be between 5s and 24h`,
    );
  return ms;
}

/** A share between 0 and 1, inclusive. */
function share(v: Values, flag: string): number {
  const raw = str(v, flag);
  const n = Number(raw);
  if (!/^\d*\.?\d+$/.test(raw) || n > 1)
    throw new ConfigError(`invalid --${flag} "${raw}": expected a number from 0 to 1`);
  return n;
}

function integer(v: Values, flag: string, min: number): number {
  const raw = str(v, flag);
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigError(`invalid --${flag} "${raw}": expected an integer >= ${min}`);
  return Number(raw);
}

function secretNamespaces(v: Values): { secretNamespaces?: string[] } {
  if (v['secret-namespace'] === undefined) return {};
  return { secretNamespaces: namespaces(v, 'secret-namespace') };
}

function namespaces(v: Values, flag = 'namespace'): string[] {
  const raw = (v[flag] as string[] | undefined) ?? [];
  const list = raw
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
  for (const ns of list) {
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || ns.length > 63)
      throw new ConfigError(`invalid --${flag} "${ns}": not a valid namespace name`);
  }
  return [...new Set(list)];
}

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;

function rejectRemovedFlags(v: Values): void {
  for (const removed of ['default-credentials-secret', 'default-credentials-key']) {
    if (typeof v[removed] === 'string')
      throw new ConfigError(
        `--${removed} was removed: default credentials are now a CdnAccount that the admin opens to namespaces; create one and pass --default-account (see docs/install.md, Accounts)`,
      );
  }
}

function accountFlags(
  v: Values,
  env: NodeJS.ProcessEnv,
): Pick<OperatorConfig, 'defaultAccount' | 'operatorNamespace'> {
  rejectRemovedFlags(v);
  const account = v['default-account'];
  if (typeof account === 'string' && (!DNS_SUBDOMAIN.test(account) || account.length > 253))
    throw new ConfigError(`invalid --default-account "${account}": not a valid object name`);
  const ns = v['operator-namespace'];
  if (typeof ns === 'string' && (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(ns) || ns.length > 63))
    throw new ConfigError(`invalid --operator-namespace "${ns}": not a valid namespace name`);
  return {
    ...(typeof account === 'string' ? { defaultAccount: account } : {}),
    operatorNamespace: typeof ns === 'string' ? ns : defaultLeaseNamespace(env),
  };
}

function bindAddress(v: Values, flag: string): string {
  const raw = str(v, flag);
  try {
    parseBindAddress(raw);
  } catch (err) {
    throw new ConfigError(
      `invalid --${flag} "${raw}": ${(err as Error).message.replace(/^invalid bind address "[^"]*": /, '')}`,
    );
  }
  return raw;
}

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

function defaultLeaseNamespace(env: NodeJS.ProcessEnv): string {
  if (env.POD_NAMESPACE) return env.POD_NAMESPACE;
  try {
    return (
      readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim() ||
      'default'
    );
  } catch {
    return 'default';
  }
}

function apiUrl(v: Values): string {
  const raw = str(v, 'api-url');
  try {
    const u = new URL(raw);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`invalid --api-url "${raw}": expected an http(s) URL`);
  }
  return raw.replace(/\/+$/, '');
}

function leaseTimings(
  v: Values,
): Pick<OperatorConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'> {
  const leaseDurationMs = duration(v, 'leader-election-lease-duration');
  const renewDeadlineMs = duration(v, 'leader-election-renew-deadline');
  const retryPeriodMs = duration(v, 'leader-election-retry-period');
  if (!(retryPeriodMs < renewDeadlineMs && renewDeadlineMs < leaseDurationMs)) {
    throw new ConfigError(
      'invalid leader election timings: need retry-period < renew-deadline < lease-duration',
    );
  }
  return { leaseDurationMs, renewDeadlineMs, retryPeriodMs };
}

/** `--dns01-solver-listen`: HOST:PORT, never disabled (the solver needs its port). */
function solverListen(v: Values): { host: string; port: number } {
  const flag = 'dns01-solver-listen';
  const raw = str(v, flag);
  let bind: { host: string; port: number } | undefined;
  try {
    bind = parseBindAddress(raw);
  } catch {
    bind = undefined;
  }
  if (!bind)
    throw new ConfigError(`invalid --${flag} "${raw}": expected HOST:PORT, e.g. 0.0.0.0:8443`);
  return bind;
}

/**
 * The DNS-01 solver's settings when `--dns01-solver` is given. Its other flags are checked
 * either way: a typo is an error even while the solver is off.
 */
function dns01Solver(v: Values): Pick<OperatorConfig, 'dns01Solver'> {
  const listen = solverListen(v);
  const tlsDir = str(v, 'dns01-solver-tls-dir');
  if (tlsDir === '')
    throw new ConfigError('invalid --dns01-solver-tls-dir "": expected a directory');
  const group = str(v, 'dns01-solver-group');
  if (!DNS_SUBDOMAIN.test(group) || !group.includes('.') || group.length > 253)
    throw new ConfigError(
      `invalid --dns01-solver-group "${group}": expected a DNS subdomain with a dot, e.g. acme.example.com`,
    );
  if (v['dns01-solver'] !== true) return {};
  return { dns01Solver: { ...listen, tlsDir, group } };
}

/** Parses argv (without node and script) and the environment. Throws {@link ConfigError}. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = process.env): ParsedCommand {
  const v = readValues(argv, env);
  if (v.help === true) return { command: 'help', text: helpText() };
  if (v.version === true) return { command: 'version' };
  const logLevel = str(v, 'log-level');
  if (!LEVELS.includes(logLevel))
    throw new ConfigError(
      `invalid --log-level "${logLevel}": expected one of ${LEVELS.join(', ')}`,
    );
  const config: OperatorConfig = {
    ...(typeof v.kubeconfig === 'string' ? { kubeconfig: v.kubeconfig } : {}),
    namespaces: namespaces(v),
    ...secretNamespaces(v),
    ...(typeof v['label-selector'] === 'string' ? { labelSelector: v['label-selector'] } : {}),
    workers: integer(v, 'workers', 1),
    ...(v['max-concurrent-reconciles'] !== undefined
      ? { maxConcurrentReconciles: integer(v, 'max-concurrent-reconciles', 1) }
      : {}),
    pollIntervalMs: pollInterval(v),
    logLevel: logLevel as LevelWithSilent,
    apiUrl: apiUrl(v),
    ...accountFlags(v, env),
    metricsBindAddress: bindAddress(v, 'metrics-bind-address'),
    healthProbeBindAddress: bindAddress(v, 'health-probe-bind-address'),
    leaderElect: v['leader-elect'] === true,
    routes: v.routes === true,
    leaderElectionNamespace:
      typeof v['leader-election-namespace'] === 'string'
        ? v['leader-election-namespace']
        : defaultLeaseNamespace(env),
    leaderElectionId: str(v, 'leader-election-id'),
    ...leaseTimings(v),
    shutdownTimeoutMs: duration(v, 'shutdown-timeout'),
    rateLimit: integer(v, 'rate-limit', 0),
    rateLimitBurst: integer(v, 'rate-limit-burst', 1),
    apiRateLimitMax: integer(v, 'api-rate-limit-max', 0),
    watchStallTimeoutMs: duration(v, 'watch-stall-timeout'),
    sweepReadShare: share(v, 'sweep-read-share'),
    sweepIntervalMs: duration(v, 'sweep-interval'),
    ...dns01Solver(v),
    disableUrlSources: v['disable-url-sources'] === true,
  };
  return { command: 'run', config };
}

/** The defaults, as if run without flags or environment (tests, embedding). */
export function defaultConfig(overrides: Partial<OperatorConfig> = {}): OperatorConfig {
  const parsed = parseConfig([], {});
  if (parsed.command !== 'run') throw new Error('unreachable');
  return { ...parsed.config, ...overrides };
}
