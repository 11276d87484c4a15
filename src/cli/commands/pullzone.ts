/** `cdnctl pullzone ...`: every pull zone operation of the client. */
import { readFileSync } from 'node:fs';
import type { PrivateKeyType, PullZone, PullZoneAddRequest } from '../../cdn/types.js';
import { readBodyFile } from '../input.js';
import { col, type Column } from '../output.js';
import { parseBool, parseId, parseOptionalInt, UsageError } from '../usage-error.js';
import { done, type Command, type CommandContext } from './types.js';

const zoneColumns: Column[] = [
  col('ID', 'Id'),
  col('NAME', 'Name'),
  col('ORIGIN', 'OriginUrl'),
  col('ENABLED', 'Enabled'),
  {
    header: 'HOSTNAMES',
    get: (z) => ((z as PullZone).Hostnames ?? []).map((h) => h.Value),
  },
];

type HostnameMethod =
  | 'addHostname'
  | 'removeHostname'
  | 'removeCertificate'
  | 'addAllowedReferrer'
  | 'removeAllowedReferrer'
  | 'addBlockedReferrer'
  | 'removeBlockedReferrer';

/** A `<verb> ID HOST` command calling one hostname method. */
function hostnameCommand(
  verb: string,
  method: HostnameMethod,
  summary: string,
  past: string,
): Command {
  return {
    group: 'pullzone',
    verb,
    args: ['ID', 'HOST'],
    summary,
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      const host = args[1]!;
      await client[method](id, host);
      return done(`${past} ${host} (pull zone ${id})`, { pullZoneId: id, hostname: host });
    },
  };
}

function blockedIpCommand(
  verb: string,
  method: 'addBlockedIp' | 'removeBlockedIp',
  past: string,
): Command {
  return {
    group: 'pullzone',
    verb,
    args: ['ID', 'IP'],
    summary: past === 'Added' ? 'Block an IP address' : 'Unblock an IP address',
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      await client[method](id, args[1]!);
      return done(`${past} blocked IP ${args[1]!} (pull zone ${id})`, {
        pullZoneId: id,
        ip: args[1],
      });
    },
  };
}

function parseKeyType(value: string | undefined): PrivateKeyType {
  const v = (value ?? '').toLowerCase();
  if (v === 'ecdsa' || v === '0') return 0;
  if (v === 'rsa' || v === '1') return 1;
  throw new UsageError(`TYPE must be ecdsa or rsa, got ${JSON.stringify(value ?? '')}`);
}

function readBase64(flag: string, path: string | undefined): string {
  if (!path) throw new UsageError(`this command needs --${flag} FILE`);
  try {
    return readFileSync(path).toString('base64');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

async function list({
  client,
  flags,
}: CommandContext): Promise<{ value: unknown; columns: Column[] }> {
  const query = {
    ...(flags.search ? { search: flags.search } : {}),
    ...(flags.page ? { page: parseOptionalInt('page', flags.page) } : {}),
    ...(flags.perPage ? { perPage: parseOptionalInt('per-page', flags.perPage) } : {}),
  };
  return { value: await client.listPullZones(query), columns: zoneColumns };
}

export const pullZoneCommands: Command[] = [
  {
    group: 'pullzone',
    verb: 'list',
    args: [],
    summary: 'List pull zones (--search, --page, --per-page)',
    run: list,
  },
  {
    group: 'pullzone',
    verb: 'get',
    args: ['ID'],
    summary: 'Show one pull zone',
    run: async ({ client, args }) => ({ value: await client.getPullZone(parseId('ID', args[0])) }),
  },
  {
    group: 'pullzone',
    verb: 'create',
    args: [],
    summary: 'Create a pull zone from -f FILE (Name, OriginUrl, ...)',
    run: async ({ client, flags }) => ({
      value: await client.addPullZone(readBodyFile(flags.file) as PullZoneAddRequest),
      columns: zoneColumns,
    }),
  },
  {
    group: 'pullzone',
    verb: 'update',
    args: ['ID'],
    summary: 'Update pull zone settings from -f FILE (only the fields present change)',
    run: async ({ client, args, flags }) => ({
      value: await client.updatePullZone(parseId('ID', args[0]), readBodyFile(flags.file)),
      columns: zoneColumns,
    }),
  },
  {
    group: 'pullzone',
    verb: 'delete',
    args: ['ID'],
    summary: 'Delete a pull zone',
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      await client.deletePullZone(id);
      return done(`Deleted pull zone ${id}`, { pullZoneId: id });
    },
  },
  hostnameCommand('add-hostname', 'addHostname', 'Add a custom hostname', 'Added hostname'),
  hostnameCommand(
    'remove-hostname',
    'removeHostname',
    'Remove a custom hostname',
    'Removed hostname',
  ),
  hostnameCommand(
    'remove-certificate',
    'removeCertificate',
    'Remove the certificate of a hostname',
    'Removed certificate of',
  ),
  hostnameCommand(
    'add-allowed-referrer',
    'addAllowedReferrer',
    'Allow a referrer hostname',
    'Added allowed referrer',
  ),
  hostnameCommand(
    'remove-allowed-referrer',
    'removeAllowedReferrer',
    'Remove an allowed referrer',
    'Removed allowed referrer',
  ),
  hostnameCommand(
    'add-blocked-referrer',
    'addBlockedReferrer',
    'Block a referrer hostname',
    'Added blocked referrer',
  ),
  hostnameCommand(
    'remove-blocked-referrer',
    'removeBlockedReferrer',
    'Unblock a referrer hostname',
    'Removed blocked referrer',
  ),
  blockedIpCommand('add-blocked-ip', 'addBlockedIp', 'Added'),
  blockedIpCommand('remove-blocked-ip', 'removeBlockedIp', 'Removed'),
  {
    group: 'pullzone',
    verb: 'force-ssl',
    args: ['ID', 'HOST', 'true|false'],
    summary: 'Turn HTTPS redirection of a hostname on or off',
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      const on = parseBool('the third argument', args[2]);
      await client.setForceSSL(id, args[1]!, on);
      return done(`Set force SSL ${on ? 'on' : 'off'} for ${args[1]!} (pull zone ${id})`, {
        pullZoneId: id,
        hostname: args[1],
        forceSSL: on,
      });
    },
  },
  {
    group: 'pullzone',
    verb: 'load-free-certificate',
    args: ['HOST'],
    summary: 'Issue a free certificate for a hostname',
    run: async ({ client, args }) => {
      await client.loadFreeCertificate(args[0]!);
      return done(`Requested a free certificate for ${args[0]!}`, { hostname: args[0] });
    },
  },
  {
    group: 'pullzone',
    verb: 'add-certificate',
    args: ['ID', 'HOST'],
    summary: 'Upload a custom certificate (--cert-file PEM, --key-file PEM)',
    run: async ({ client, args, flags }) => {
      const id = parseId('ID', args[0]);
      const certificate = readBase64('cert-file', flags.certFile);
      const certificateKey = readBase64('key-file', flags.keyFile);
      await client.addCertificate(id, { hostname: args[1]!, certificate, certificateKey });
      return done(`Added certificate for ${args[1]!} (pull zone ${id})`, {
        pullZoneId: id,
        hostname: args[1],
      });
    },
  },
  {
    group: 'pullzone',
    verb: 'update-private-key-type',
    args: ['ID', 'HOST', 'ecdsa|rsa'],
    summary: 'Change the private key type of a hostname certificate',
    run: async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      const KeyType = parseKeyType(args[2]);
      await client.updatePrivateKeyType(id, { Hostname: args[1]!, KeyType });
      return done(
        `Set key type ${KeyType === 0 ? 'ECDSA' : 'RSA'} for ${args[1]!} (pull zone ${id})`,
        { pullZoneId: id, hostname: args[1], keyType: KeyType },
      );
    },
  },
];
