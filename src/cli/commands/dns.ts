/** `cdnctl dns ...`: DNS zones and records, zone files, DNSSEC, scans and DNS certificates. */
import { readFileSync } from 'node:fs';
import { DNS_RECORD_TYPE_NAMES, recordTypeOf } from '../../cdn/dns-record-types.js';
import type { DnsRecord, DnsRecordType, DnsZone } from '../../cdn/dns-types.js';
import { readBodyFile } from '../input.js';
import { col, type Column, type CommandResult } from '../output.js';
import { parseId, parseOptionalInt, UsageError } from '../usage-error.js';
import { done, type Command, type CommandContext, type Flags } from './types.js';

const zoneColumns: Column[] = [
  col('ID', 'Id'),
  col('DOMAIN', 'Domain'),
  { header: 'RECORDS', get: (z) => (z as DnsZone).Records?.length },
  col('DNSSEC', 'DnsSecEnabled'),
  { header: 'NAMESERVERS', get: (z) => [z.Nameserver1, z.Nameserver2] },
];

const recordColumns: Column[] = [
  col('ID', 'Id'),
  { header: 'TYPE', get: (r) => DNS_RECORD_TYPE_NAMES[(r as DnsRecord).Type ?? 0] },
  { header: 'NAME', get: (r) => ((r as DnsRecord).Name === '' ? '@' : r.Name) },
  col('VALUE', 'Value'),
  col('TTL', 'Ttl'),
  { header: 'PULL ZONE', get: (r) => (r as DnsRecord).AcceleratedPullZoneId || undefined },
  col('DISABLED', 'Disabled'),
];

/** A record type by name (`cname`) or wire value (`2`). */
export function parseRecordType(value: string | undefined): DnsRecordType | undefined {
  if (value === undefined) return undefined;
  const n = recordTypeOf(value);
  if (n !== undefined) return n as DnsRecordType;
  throw new UsageError(
    `--type must be one of ${DNS_RECORD_TYPE_NAMES.join(', ')} (or 0..15), got ${JSON.stringify(value)}`,
  );
}

function paging(flags: Flags): { page?: number; perPage?: number } {
  return {
    ...(flags.page ? { page: parseOptionalInt('page', flags.page) } : {}),
    ...(flags.perPage ? { perPage: parseOptionalInt('per-page', flags.perPage) } : {}),
  };
}

/** The text of `-f FILE` (`-` is stdin), as it is: a zone file. */
function readTextFile(path: string | undefined): string {
  if (!path) throw new UsageError('this command needs -f FILE (a zone file; - for stdin)');
  try {
    return readFileSync(path === '-' ? 0 : path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function dnsCommand(
  verb: string,
  args: string[],
  summary: string,
  run: (ctx: CommandContext) => Promise<CommandResult>,
): Command {
  return { group: 'dns', verb, args, summary, run };
}

const readCommands: Command[] = [
  dnsCommand(
    'zones',
    [],
    'List DNS zones (--search, --page, --per-page)',
    async ({ client, flags }) => ({
      value: await client.listDnsZones({
        ...(flags.search ? { search: flags.search } : {}),
        ...paging(flags),
      }),
      columns: zoneColumns,
    }),
  ),
  dnsCommand('zone', ['ID'], 'Show one DNS zone', async ({ client, args }) => ({
    value: await client.getDnsZone(parseId('ID', args[0])),
  })),
  dnsCommand(
    'records',
    ['ZONE'],
    'List the records of a zone (--type, --search, --page, --per-page)',
    async ({ client, args, flags }) => {
      const type = parseRecordType(flags.type);
      const records = await client.listDnsRecords(parseId('ZONE', args[0]), {
        ...(type === undefined ? {} : { type }),
        ...(flags.search ? { search: flags.search } : {}),
        ...paging(flags),
      });
      return { value: records, columns: recordColumns };
    },
  ),
  dnsCommand(
    'export',
    ['ZONE'],
    'Print the zone as a zone (BIND) file',
    async ({ client, args }) => ({
      value: null,
      text: await client.exportDnsZone(parseId('ZONE', args[0])),
    }),
  ),
  dnsCommand(
    'statistics',
    ['ZONE'],
    'Show query statistics of the last 30 days',
    async ({ client, args }) => ({
      value: await client.getDnsZoneStatistics(parseId('ZONE', args[0])),
    }),
  ),
  dnsCommand(
    'check',
    ['DOMAIN'],
    'Check whether a DNS zone can be added for a domain',
    async ({ client, args }) => ({
      value: await client.checkDnsZoneAvailability(args[0]!),
    }),
  ),
  dnsCommand(
    'scan-result',
    ['ZONE'],
    'Show the latest record scan of a zone',
    async ({ client, args }) => ({
      value: await client.getDnsRecordScan(parseId('ZONE', args[0])),
    }),
  ),
];

const zoneWrites: Command[] = [
  dnsCommand('create-zone', ['DOMAIN'], 'Create a DNS zone', async ({ client, args }) => ({
    value: await client.addDnsZone({ Domain: args[0]! }),
    columns: zoneColumns,
  })),
  dnsCommand(
    'update-zone',
    ['ID'],
    'Update zone settings from -f FILE (only the fields present change)',
    async ({ client, args, flags }) => ({
      value: await client.updateDnsZone(parseId('ID', args[0]), readBodyFile(flags.file)),
      columns: zoneColumns,
    }),
  ),
  dnsCommand(
    'delete-zone',
    ['ID'],
    'Delete a DNS zone and its records',
    async ({ client, args }) => {
      const id = parseId('ID', args[0]);
      await client.deleteDnsZone(id);
      return done(`Deleted DNS zone ${id}`, { dnsZoneId: id });
    },
  ),
  dnsCommand(
    'dnssec',
    ['ZONE', 'on|off'],
    'Turn DNSSEC on (prints the DS record for the registrar) or off',
    async ({ client, args }) => {
      const zoneId = parseId('ZONE', args[0]);
      const on = args[1]?.toLowerCase();
      if (on !== 'on' && on !== 'off')
        throw new UsageError(
          `the second argument must be on or off, got ${JSON.stringify(args[1] ?? '')}`,
        );
      return {
        value: on === 'on' ? await client.enableDnsSec(zoneId) : await client.disableDnsSec(zoneId),
      };
    },
  ),
  dnsCommand(
    'import',
    ['ZONE'],
    'Import the records of the zone file -f FILE',
    async ({ client, args, flags }) => ({
      value: await client.importDnsRecords(parseId('ZONE', args[0]), readTextFile(flags.file)),
    }),
  ),
];

const recordWrites: Command[] = [
  dnsCommand(
    'add-record',
    ['ZONE'],
    'Add a record from -f FILE (Type, Name, Value, ...)',
    async ({ client, args, flags }) => ({
      value: await client.addDnsRecord(parseId('ZONE', args[0]), readBodyFile(flags.file)),
      columns: recordColumns,
    }),
  ),
  dnsCommand(
    'update-record',
    ['ZONE', 'RECORD'],
    'Update a record from -f FILE (only the fields present change)',
    async ({ client, args, flags }) => {
      const zoneId = parseId('ZONE', args[0]);
      const recordId = parseId('RECORD', args[1]);
      await client.updateDnsRecord(zoneId, recordId, readBodyFile(flags.file));
      return done(`Updated record ${recordId} (DNS zone ${zoneId})`, {
        dnsZoneId: zoneId,
        recordId,
      });
    },
  ),
  dnsCommand('delete-record', ['ZONE', 'RECORD'], 'Delete a record', async ({ client, args }) => {
    const zoneId = parseId('ZONE', args[0]);
    const recordId = parseId('RECORD', args[1]);
    await client.deleteDnsRecord(zoneId, recordId);
    return done(`Deleted record ${recordId} (DNS zone ${zoneId})`, { dnsZoneId: zoneId, recordId });
  }),
];

const certificateAndScan: Command[] = [
  dnsCommand(
    'scan',
    ['ZONE|DOMAIN'],
    "Scan a domain's existing public records (a zone id or a domain)",
    async ({ client, args }) => {
      const target = /^\d+$/.test(args[0]!)
        ? { zoneId: parseId('ZONE', args[0]) }
        : { domain: args[0]! };
      return { value: await client.triggerDnsRecordScan(target) };
    },
  ),
  dnsCommand(
    'issue-certificate',
    ['ZONE', '[DOMAIN]'],
    'Issue the wildcard certificate of a zone (default *.<zone>)',
    async ({ client, args }) => {
      const zoneId = parseId('ZONE', args[0]);
      await client.issueWildcardCertificate(zoneId, args[1]);
      return done(`Issued the wildcard certificate of DNS zone ${zoneId}`, { dnsZoneId: zoneId });
    },
  ),
  dnsCommand(
    'request-certificate',
    ['HOST'],
    'Start a DNS-01 certificate for a hostname whose DNS is elsewhere (prints the TXT record)',
    async ({ client, args }) => ({ value: await client.requestExternalDnsCertificate(args[0]!) }),
  ),
  dnsCommand(
    'complete-certificate',
    ['HOST'],
    'Finish it once the TXT record is published',
    async ({ client, args }) => {
      await client.completeExternalDnsCertificate(args[0]!);
      return done(`Loaded the certificate of ${args[0]!}`, { hostname: args[0] });
    },
  ),
];

export const dnsCommands: Command[] = [
  ...readCommands,
  ...zoneWrites,
  ...recordWrites,
  ...certificateAndScan,
];
