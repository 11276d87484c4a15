/**
 * The storage endpoint's and the seed file's flags of `cdn-sim` (cli-args.ts parses the rest):
 * `--storage-port`, `--storage-hostname`, `--storage-tls-cert`, `--storage-tls-key`,
 * `--no-storage`, `--seed` and `--dns-port`.
 */
import type { StorageOptions } from './storage/storage-server.js';
import { readSeedFile, SeedFileError, type SeedFile } from './seed-file.js';

/** The flags' entries for node:util parseArgs. */
export const STORAGE_FLAGS = {
  'storage-port': { type: 'string' },
  'storage-hostname': { type: 'string' },
  'storage-tls-cert': { type: 'string' },
  'storage-tls-key': { type: 'string' },
  'no-storage': { type: 'boolean' },
  seed: { type: 'string' },
  'dns-port': { type: 'string' },
} as const;

/** Usage lines of the flags. */
export const STORAGE_USAGE = `  --storage-port N     port of the storage endpoint for files (0 = pick a free one; default 0)
  --storage-hostname H StorageHostname of a DE zone; other regions get "<code>." in front when
                       H is a DNS name; {port} is the storage port (default storage.bunnycdn.com)
  --storage-tls-cert F serve the storage endpoint over HTTPS with this PEM certificate ...
  --storage-tls-key F  ... and this PEM key
  --no-storage         no storage endpoint
  --seed FILE          YAML or JSON: what the account holds before the first request (zones,
                       records, apps, files; see docs/simulator.md); applied to a fresh state
                       and again after POST /_sim/reset
  --dns-port N         serve the simulated zones over DNS (UDP and TCP) on this port (0 = pick
                       a free one); off without the flag
`;

type Values = Record<string, unknown>;

function parseStoragePort(raw: unknown, fail: (message: string) => Error): number {
  if (typeof raw !== 'string') return 0;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw fail(`--storage-port ${raw}: must be an integer between 0 and 65535`);
  return port;
}

/** The storage endpoint options the flags ask for (`false`: none). */
export function storageOptionsOf(
  v: Values,
  fail: (message: string) => Error,
): StorageOptions | false {
  if (v['no-storage'] === true) return false;
  const cert = v['storage-tls-cert'] as string | undefined;
  const key = v['storage-tls-key'] as string | undefined;
  if ((cert === undefined) !== (key === undefined))
    throw fail('--storage-tls-cert and --storage-tls-key go together');
  const options: StorageOptions = { port: parseStoragePort(v['storage-port'], fail) };
  if (typeof v['storage-hostname'] === 'string') {
    if (!/^[A-Za-z0-9.:[\]{}-]+$/.test(v['storage-hostname']))
      throw fail(
        `--storage-hostname ${v['storage-hostname']}: must be a host name, with a port or {port}`,
      );
    options.hostname = v['storage-hostname'];
  }
  if (cert !== undefined && key !== undefined)
    Object.assign(options, { tlsCertFile: cert, tlsKeyFile: key });
  return options;
}

/** The seed file the flag names, read and checked. */
export function seedOf(v: Values, fail: (message: string) => Error): SeedFile | undefined {
  if (typeof v.seed !== 'string') return undefined;
  try {
    return readSeedFile(v.seed);
  } catch (err) {
    if (err instanceof SeedFileError) throw fail(`--seed ${err.message}`);
    throw err;
  }
}

/** The DNS listener the flags ask for (`--dns-port`), or `false`. */
export function dnsOptionsOf(
  v: Values,
  fail: (message: string) => Error,
): { port: number } | false {
  const raw = v['dns-port'];
  if (typeof raw !== 'string') return false;
  const port = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(port) || port < 0 || port > 65535)
    throw fail(`--dns-port ${raw}: must be an integer between 0 and 65535`);
  return { port };
}
