/**
 * `cdnctl dns`: table and JSON output, the zone file printed as it is, record types by name
 * or number, usage errors (exit 2) before any request, a missing zone (exit 4).
 */
import test from 'ava';
import { parseRecordType } from '../../../src/cli/commands/dns.js';
import { UsageError } from '../../../src/cli/usage-error.js';
import { startCliEnv, type CliEnv } from './cli-harness.js';

async function zoneWithRecords(env: CliEnv): Promise<string> {
  const created = await env.run(['dns', 'create-zone', 'table.example', '-o', 'json']);
  const zone = String((JSON.parse(created.stdout) as { Id: number }).Id);
  for (const body of [
    'Type: 0\nName: www\nValue: 192.0.2.1\n',
    'Type: 4\nName: "@"\nValue: mx.table.example\nPriority: 10\n',
    'Type: 0\nName: fast\nValue: 192.0.2.9\nAccelerated: true\n',
  ]) {
    const r = await env.run(['dns', 'add-record', zone, '-f', env.file('r.yaml', body)]);
    if (r.code !== 0) throw new Error(r.stderr);
  }
  return zone;
}

test('records print as a table with type names, @ for the apex and the accelerated pull zone', async (t) => {
  const env = await startCliEnv(t);
  const zone = await zoneWithRecords(env);
  const table = await env.run(['dns', 'records', zone]);
  t.is(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.regex(lines[0]!, /^ID\s+TYPE\s+NAME\s+VALUE\s+TTL\s+PULL ZONE\s+DISABLED$/);
  t.regex(table.stdout, /\d+\s+A\s+www\s+192\.0\.2\.1\s+300\s+false/);
  t.regex(table.stdout, /\d+\s+MX\s+@\s+mx\.table\.example\s+300\s+false/);
  t.regex(table.stdout, /\d+\s+A\s+fast\s+192\.0\.2\.9\s+300\s+\d+\s+false/);
  const mx = await env.run(['dns', 'records', zone, '--type', 'mx', '-o', 'json']);
  t.deepEqual(
    (JSON.parse(mx.stdout) as Array<{ Type: number }>).map((r) => r.Type),
    [4],
  );
  const zones = await env.run(['dns', 'zones']);
  t.regex(
    zones.stdout,
    new RegExp(
      `^${zone}\\s+table\\.example\\s+3\\s+false\\s+kiki\\.bunny\\.net,coco\\.bunny\\.net$`,
      'm',
    ),
  );
});

test('export prints the zone file itself; import reads one from -f', async (t) => {
  const env = await startCliEnv(t);
  const zone = await zoneWithRecords(env);
  const exported = await env.run(['dns', 'export', zone]);
  t.is(exported.code, 0);
  t.true(
    exported.stdout.startsWith(
      '; Zone table.example exported by cdn-sim\n$ORIGIN table.example.\n',
    ),
  );
  t.regex(exported.stdout, /^www 300 IN A 192\.0\.2\.1$/m);
  const imported = await env.run([
    'dns',
    'import',
    zone,
    '-f',
    env.file('z.txt', 'api IN AAAA 2001:db8::1\n'),
    '-o',
    'json',
  ]);
  t.deepEqual(JSON.parse(imported.stdout), {
    RecordsSuccessful: 1,
    RecordsFailed: 0,
    RecordsSkipped: 0,
  });
});

test('dnssec on prints the DS record; a scan takes a zone id or a domain', async (t) => {
  const env = await startCliEnv(t);
  const zone = await zoneWithRecords(env);
  const on = await env.run(['dns', 'dnssec', zone, 'on']);
  t.regex(on.stdout, /DsRecord\s+table\.example\. 3600 IN DS \d+ 13 2 [0-9A-F]{64}/);
  t.regex((await env.run(['dns', 'dnssec', zone, 'off'])).stdout, /Enabled\s+false/);
  t.is((await env.run(['dns', 'scan', 'later.example'])).code, 0);
  t.is((await env.run(['dns', 'scan', zone])).code, 0);
  t.regex((await env.run(['dns', 'scan-result', zone])).stdout, /Domain\s+table\.example/);
});

test('usage errors exit 2 without a request; a missing zone exits 4', async (t) => {
  const env = await startCliEnv(t);
  const cases: Array<[string[], RegExp]> = [
    [['dns', 'records', '1', '--type', 'XYZ'], /--type must be one of A, AAAA/],
    [['dns', 'records', '1', '--type', '16'], /--type must be one of/],
    [['dns', 'dnssec', '1', 'maybe'], /the second argument must be on or off/],
    [['dns', 'import', '1'], /this command needs -f FILE \(a zone file/],
    [['dns', 'import', '1', '-f', '/nonexistent.zone'], /cannot read \/nonexistent\.zone/],
    [['dns', 'zone', 'abc'], /ID must be a positive integer/],
    [['dns', 'zones', '--per-page', '2'], /perPage must be an integer from 5 to 1000/],
    [['dns', 'update-record', '1'], /usage: cdnctl dns update-record ZONE RECORD/],
  ];
  for (const [args, message] of cases) {
    const r = await env.run(args);
    t.is(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    t.regex(r.stderr, message);
  }
  t.is(env.sim.calls.snapshot().log.length, 0, 'nothing was sent');
  const missing = await env.run(['dns', 'zone', '999999']);
  t.is(missing.code, 4);
  t.regex(missing.stderr, /getDnsZone: .*\[HTTP 404\]/);
});

test('record types parse by name (any case) or number', (t) => {
  t.is(parseRecordType('cname'), 2);
  t.is(parseRecordType('PullZone'), 7);
  t.is(parseRecordType('15'), 15);
  t.is(parseRecordType(undefined), undefined);
  for (const bad of ['-1', '1.5', 'CNAMES', ''])
    t.throws(() => parseRecordType(bad), { instanceOf: UsageError });
});
