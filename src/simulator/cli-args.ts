/**
 * Flag parsing of the `cdn-sim` command (pure, so it is testable without a process).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import type { ApiKeyConfig } from './auth.js';
import type { FaultConfig } from './faults.js';
import { RESPONSE_MODES, type ResponseMode } from './documents/responses.js';
import type { SeedFile } from './seed-file.js';
import type { StorageOptions } from './storage/storage-server.js';
import {
  dnsOptionsOf,
  seedOf,
  STORAGE_FLAGS,
  STORAGE_USAGE,
  storageOptionsOf,
} from './cli-storage.js';

/** Usage text printed by `--help`. */
export const USAGE = `Usage: cdn-sim [flags]

A stateful simulator of the bunny.net management API (core, /mc, /shield) on one base URL.

Flags:
  --port N             TCP port (0 = pick a free one; default 0)
  --host ADDR          listen address (default 127.0.0.1)
  --api-key KEY[:ROLES] accepted AccessKey, repeatable; ROLES is a comma list (KEY:Admin,User)
  --keys-file FILE     YAML or JSON list of keys: ["KEY", {key: KEY, roles: [..]}]
  --admin-token TOKEN  token for /_sim/* (X-Sim-Admin-Token); generated and printed if absent
  --state-file FILE    save state there and reload it at start
  --latency-ms N|A-B   added latency: fixed N ms, or uniform between A and B ms
  --error-rate R       share (0..1) of API requests answered 500
  --rate-limit R[,B]   token bucket: R requests/second, burst B (default R); 429 + Retry-After
  --log-level LEVEL    pino level (default info)
  --openapi-dir DIR    read the full official OpenAPI documents from DIR (or
                       $CDN_SIM_OPENAPI_DIR); default: the structural model built into the
                       package, generated from those documents
  --no-strict          do not check requests against the official documents (default: every
                       request the documents reject is answered 400 and counted); requests
                       are bound like the live platform binds them in both modes
  --responses MODE     full (default) or documented: answers carry only the members and the
                       success status the official documents declare (or $CDN_SIM_RESPONSES)
  --external-dns HOST  the hostname's DNS, outside cdn-sim, points at the CDN (free
                       certificates are issued for it), repeatable
  --no-dns-check       issue free certificates whatever the hostname's DNS (default: only
                       for hostnames that point at their pull zone, as the live API)
${STORAGE_USAGE}  --help               show this text
`;

/** Parsed command line. */
export interface CliOptions {
  port: number;
  host: string;
  apiKeys: ApiKeyConfig[];
  adminToken?: string;
  stateFile?: string;
  faults: FaultConfig;
  logLevel: string;
  help: boolean;
  /** Check requests against the official documents (default true). */
  strict: boolean;
  openApiDir?: string;
  /** Response mode (`--responses`, default `$CDN_SIM_RESPONSES` or `full`). */
  responses: ResponseMode;
  /** Free certificates need DNS pointing at the pull zone (`--no-dns-check` turns it off). */
  dnsCheck: boolean;
  /** `--external-dns` hostnames. */
  externalDns: string[];
  /** The storage endpoint (`false` with `--no-storage`). */
  storage: StorageOptions | false;
  /** `--seed` file, read and checked. */
  seed?: SeedFile;
  /** The DNS listener (`--dns-port`), or `false`. */
  dns: { port: number } | false;
}

/** A flag problem: message for the user, exit code 2. */
export class UsageError extends Error {}

function parseKey(spec: string): ApiKeyConfig {
  const colon = spec.indexOf(':');
  if (colon < 0) return { key: spec };
  const roles = spec
    .slice(colon + 1)
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r !== '');
  return { key: spec.slice(0, colon), roles };
}

function isRoleList(roles: unknown): boolean {
  return roles === undefined || (Array.isArray(roles) && roles.every((r) => typeof r === 'string'));
}

function keyFromEntry(entry: unknown, file: string): ApiKeyConfig {
  if (typeof entry === 'string' && entry !== '') return { key: entry };
  const o = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  if (typeof o.key !== 'string' || o.key === '' || !isRoleList(o.roles)) {
    throw new UsageError(
      `--keys-file ${file}: each entry must be a key string or {key, roles: [string]}`,
    );
  }
  return { key: o.key, roles: (o.roles as string[] | undefined) ?? [] };
}

/** Reads a YAML/JSON keys file. */
export function readKeysFile(file: string): ApiKeyConfig[] {
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`--keys-file ${file}: ${(err as Error).message}`);
  }
  const list = Array.isArray(data) ? data : (data as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(list)) throw new UsageError(`--keys-file ${file}: expected a list of keys`);
  return list.map((entry) => keyFromEntry(entry, file));
}

function parseNumber(flag: string, raw: string, min: number, max: number): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag} ${raw}: must be a number between ${min} and ${max}`);
  }
  return n;
}

function parseLatency(raw: string): FaultConfig['latencyMs'] {
  const range = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/.exec(raw);
  if (!range) return parseNumber('--latency-ms', raw, 0, 600_000);
  const [min, max] = [Number(range[1]), Number(range[2])];
  if (min > max) throw new UsageError(`--latency-ms ${raw}: the lower bound exceeds the upper`);
  return { min, max };
}

function parseRateLimit(raw: string): FaultConfig['rateLimit'] {
  const [rate, burst] = raw.split(',');
  const ratePerSecond = parseNumber('--rate-limit', rate ?? '', 0.001, 1e9);
  return {
    ratePerSecond,
    burst:
      burst === undefined
        ? Math.max(1, ratePerSecond)
        : parseNumber('--rate-limit burst', burst, 1, 1e9),
  };
}

function buildFaults(values: Record<string, unknown>): FaultConfig {
  const faults: FaultConfig = {};
  if (typeof values['latency-ms'] === 'string')
    faults.latencyMs = parseLatency(values['latency-ms']);
  if (typeof values['error-rate'] === 'string')
    faults.errorRate = parseNumber('--error-rate', values['error-rate'], 0, 1);
  if (typeof values['rate-limit'] === 'string')
    faults.rateLimit = parseRateLimit(values['rate-limit']);
  return faults;
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseFlags(argv: string[]): Record<string, unknown> {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'api-key': { type: 'string', multiple: true },
        'keys-file': { type: 'string' },
        'admin-token': { type: 'string' },
        'state-file': { type: 'string' },
        'latency-ms': { type: 'string' },
        'error-rate': { type: 'string' },
        'rate-limit': { type: 'string' },
        'log-level': { type: 'string' },
        'openapi-dir': { type: 'string' },
        'no-strict': { type: 'boolean' },
        responses: { type: 'string' },
        'external-dns': { type: 'string', multiple: true },
        'no-dns-check': { type: 'boolean' },
        ...STORAGE_FLAGS,
        help: { type: 'boolean' },
      },
    }).values;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

function collectKeys(v: Record<string, unknown>): ApiKeyConfig[] {
  const apiKeys = ((v['api-key'] as string[] | undefined) ?? []).map(parseKey);
  if (typeof v['keys-file'] === 'string') apiKeys.push(...readKeysFile(v['keys-file']));
  if (apiKeys.some((k) => k.key === ''))
    throw new UsageError('--api-key: the key must not be empty');
  return apiKeys;
}

function parseLogLevel(raw: unknown): string {
  const level = (raw as string | undefined) ?? 'info';
  if (!LEVELS.includes(level)) {
    throw new UsageError(`--log-level ${level}: must be one of ${LEVELS.join(', ')}`);
  }
  return level;
}

function parsePort(raw: unknown): number {
  if (raw === undefined) return 0;
  const port = parseNumber('--port', raw as string, 0, 65535);
  if (!Number.isInteger(port)) throw new UsageError(`--port ${port}: must be an integer`);
  return port;
}

function parseResponses(raw: unknown, env: NodeJS.ProcessEnv): ResponseMode {
  const fromEnv = env.CDN_SIM_RESPONSES === '' ? undefined : env.CDN_SIM_RESPONSES;
  const mode = (raw as string | undefined) ?? fromEnv ?? 'full';
  if (!(RESPONSE_MODES as readonly string[]).includes(mode)) {
    const source = raw === undefined ? 'CDN_SIM_RESPONSES' : '--responses';
    throw new UsageError(`${source} ${mode}: must be one of ${RESPONSE_MODES.join(', ')}`);
  }
  return mode as ResponseMode;
}

function parseExternalDns(raw: unknown): string[] {
  const hosts = (raw as string[] | undefined) ?? [];
  const bad = hosts.find((h) => !/^(\*\.)?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/.test(h));
  if (bad !== undefined) throw new UsageError(`--external-dns ${bad}: must be a host name`);
  return hosts;
}

/** Parses argv (without node and script). Throws UsageError on bad flags. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): CliOptions {
  const v = parseFlags(argv);
  const help = v.help === true;
  const apiKeys = collectKeys(v);
  if (!help && apiKeys.length === 0) {
    throw new UsageError('at least one --api-key or --keys-file is required');
  }
  const options: CliOptions = {
    port: parsePort(v.port),
    host: (v.host as string | undefined) ?? '127.0.0.1',
    apiKeys,
    faults: buildFaults(v),
    logLevel: parseLogLevel(v['log-level']),
    help,
    strict: v['no-strict'] !== true,
    responses: parseResponses(v.responses, env),
    dnsCheck: v['no-dns-check'] !== true,
    externalDns: parseExternalDns(v['external-dns']),
    storage: storageOptionsOf(v, (message) => new UsageError(message)),
    dns: dnsOptionsOf(v, (message) => new UsageError(message)),
  };
  const seed = seedOf(v, (message) => new UsageError(message));
  if (seed) options.seed = seed;
  if (typeof v['openapi-dir'] === 'string') options.openApiDir = v['openapi-dir'];
  if (typeof v['admin-token'] === 'string') options.adminToken = v['admin-token'];
  if (typeof v['state-file'] === 'string') options.stateFile = v['state-file'];
  return options;
}
