/**
 * Every cdnctl command through run() in-process against cdn-sim (fast); the spawn tests cover
 * the real bin per family. The last test checks that no command in the table was skipped.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../../../src/cli/run.js';
import { startCliEnv, type CliEnv, type CliResult } from './cli-harness.js';

const exercised = new Set<string>();

async function ok(
  t: import('ava').ExecutionContext,
  env: CliEnv,
  args: string[],
): Promise<CliResult> {
  const r = await env.run(args);
  t.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  // Commands without a verb (export, diff) are keyed by their group alone.
  const single = COMMANDS.some((c) => c.group === args[0] && c.verb === '');
  exercised.add(single ? `${args[0]} ` : `${args[0]} ${args[1]}`);
  return r;
}

test.serial('every pullzone verb', async (t) => {
  const env = await startCliEnv(t);
  const created = await ok(t, env, [
    'pullzone',
    'create',
    '-f',
    env.file('z.yaml', 'Name: run-zone\nOriginUrl: https://o.example\n'),
    '-o',
    'json',
  ]);
  const id = String((JSON.parse(created.stdout) as { Id: number }).Id);
  const host = 'www.run.example';
  await ok(t, env, ['pullzone', 'list', '--search', 'run-']);
  await ok(t, env, ['pullzone', 'get', id]);
  await ok(t, env, ['pullzone', 'update', id, '-f', env.file('s.json', '{"EnableLogging": true}')]);
  await ok(t, env, ['pullzone', 'add-hostname', id, host]);
  await ok(t, env, ['pullzone', 'force-ssl', id, host, 'true']);
  // The hostname's DNS, outside cdn-sim, points at the CDN.
  await env.admin('PUT', `/_sim/external-dns/${host}`);
  await ok(t, env, ['pullzone', 'load-free-certificate', host]);
  const cert = env.file(
    'cert.pem',
    '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  );
  const key = env.file('key.pem', '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n');
  await ok(t, env, [
    'pullzone',
    'add-certificate',
    id,
    host,
    '--cert-file',
    cert,
    '--key-file',
    key,
  ]);
  await ok(t, env, ['pullzone', 'update-private-key-type', id, host, 'rsa']);
  const zone = JSON.parse((await ok(t, env, ['pullzone', 'get', id, '-o', 'json'])).stdout) as {
    Hostnames: Array<{
      Value: string;
      ForceSSL: boolean;
      HasCertificate: boolean;
      CertificateKeyType: number;
    }>;
  };
  t.like(
    zone.Hostnames.find((h) => h.Value === host),
    { ForceSSL: true, HasCertificate: true, CertificateKeyType: 1 },
  );
  await ok(t, env, ['pullzone', 'remove-certificate', id, host]);
  await ok(t, env, ['pullzone', 'remove-hostname', id, host]);
  for (const [add, remove, value] of [
    ['add-allowed-referrer', 'remove-allowed-referrer', 'ok.example'],
    ['add-blocked-referrer', 'remove-blocked-referrer', 'bad.example'],
    ['add-blocked-ip', 'remove-blocked-ip', '198.51.100.4'],
  ] as const) {
    await ok(t, env, ['pullzone', add, id, value]);
    t.true(
      (await env.run(['pullzone', 'get', id, '-o', 'json'])).stdout.includes(value),
      `${add} took effect`,
    );
    await ok(t, env, ['pullzone', remove, id, value]);
    t.false(
      (await env.run(['pullzone', 'get', id, '-o', 'json'])).stdout.includes(value),
      `${remove} took effect`,
    );
  }
  await ok(t, env, ['pullzone', 'delete', id]);
});

test.serial('every other verb', async (t) => {
  const env = await startCliEnv(t);
  const state = (await env.admin('GET', '/_sim/state')) as {
    videoLibraries: Array<{ Id: number }>;
  };
  await ok(t, env, ['storagezone', 'check', 'x-zone']);
  await ok(t, env, [
    'videolibrary',
    'block-referrer',
    String(state.videoLibraries[0]!.Id),
    'v.example',
  ]);
  await ok(t, env, ['apikeys', 'list', '--page', '1', '--per-page', '5']);
  // Contract-shaped (no runtimeType): cdnctl fills in the runtime the documents require.
  const app = {
    name: 'run-app',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'c',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1',
        imageRegistryId: 'r',
      },
    ],
  };
  const appFile = env.file('app.json', JSON.stringify(app));
  const appId = (
    JSON.parse((await ok(t, env, ['apps', 'create', '-f', appFile, '-o', 'json'])).stdout) as {
      id: string;
    }
  ).id;
  t.regex((await ok(t, env, ['apps', 'list'])).stdout, new RegExp(`${appId}\\s+run-app`));
  const full = JSON.parse((await ok(t, env, ['apps', 'get', appId, '-o', 'json'])).stdout) as {
    containerTemplates: Array<{ id: string }>;
  };
  await ok(t, env, ['apps', 'container', appId, full.containerTemplates[0]!.id]);
  await ok(t, env, ['apps', 'patch', appId, '-f', env.file('p.yaml', 'name: run-app-2\n')]);
  await ok(t, env, ['apps', 'replace', appId, '-f', appFile]);
  await ok(t, env, ['apps', 'delete', appId]);
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'run-shield', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  const pz = seeded.pullZones[0]!;
  const zone = JSON.parse(
    (
      await ok(t, env, [
        'shield',
        'create',
        '-f',
        env.file('c.yaml', `pullZoneId: ${pz}\n`),
        '-o',
        'json',
      ])
    ).stdout,
  ) as { shieldZoneId: number };
  await ok(t, env, [
    'shield',
    'update',
    '-f',
    env.file('u.yaml', `shieldZoneId: ${zone.shieldZoneId}\nshieldZone:\n  learningMode: false\n`),
  ]);
  await ok(t, env, ['shield', 'get', String(pz)]);
  await ok(t, env, ['shield', 'list', '--page', '1', '--per-page', '5']);
  await ok(t, env, ['shield', 'waf-metrics', String(zone.shieldZoneId), 'rule-1']);
  await ok(t, env, ['shield', 'triggered', String(zone.shieldZoneId)]);
  await ok(t, env, ['shield', 'review', String(zone.shieldZoneId), '913100', 'Ignore']);
  const calls = (await env.admin('GET', '/_sim/calls')) as {
    rejectedByDocument: { count: number; log: unknown[] };
  };
  t.is(calls.rejectedByDocument.count, 0, JSON.stringify(calls.rejectedByDocument.log));
});

test.serial('every dns verb', async (t) => {
  const env = await startCliEnv(t);
  const json = async (args: string[]): Promise<Record<string, unknown>> =>
    JSON.parse((await ok(t, env, [...args, '-o', 'json'])).stdout) as Record<string, unknown>;
  const zone = (await json(['dns', 'create-zone', 'run.example'])).Id as number;
  const z = String(zone);
  await ok(t, env, ['dns', 'zones', '--search', 'run']);
  await ok(t, env, ['dns', 'zone', z]);
  await ok(t, env, ['dns', 'update-zone', z, '-f', env.file('z.yaml', 'LoggingEnabled: true\n')]);
  const rec = await json([
    'dns',
    'add-record',
    z,
    '-f',
    env.file('r.yaml', 'Type: 0\nName: www\nValue: 192.0.2.1\n'),
  ]);
  await ok(t, env, [
    'dns',
    'update-record',
    z,
    String(rec.Id),
    '-f',
    env.file('u.yaml', 'Ttl: 60\n'),
  ]);
  await ok(t, env, ['dns', 'records', z, '--type', 'a']);
  await ok(t, env, ['dns', 'export', z]);
  await ok(t, env, ['dns', 'import', z, '-f', env.file('zone.txt', 'api 60 IN A 192.0.2.2\n')]);
  await ok(t, env, ['dns', 'dnssec', z, 'on']);
  await ok(t, env, ['dns', 'statistics', z]);
  await ok(t, env, ['dns', 'check', 'free.example']);
  await ok(t, env, ['dns', 'scan', z]);
  await ok(t, env, ['dns', 'scan-result', z]);
  await ok(t, env, ['dns', 'issue-certificate', z]);
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'run-dns', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  await ok(t, env, ['pullzone', 'add-hostname', String(seeded.pullZones[0]), 'cdn.run.example']);
  const challenge = await json(['dns', 'request-certificate', 'cdn.run.example']);
  await ok(t, env, [
    'dns',
    'add-record',
    z,
    '-f',
    env.file(
      'txt.yaml',
      `Type: 3\nName: _acme-challenge.cdn\nValue: ${String(challenge.TxtRecordValue)}\n`,
    ),
  ]);
  await ok(t, env, ['dns', 'complete-certificate', 'cdn.run.example']);
  await ok(t, env, ['dns', 'delete-record', z, String(rec.Id)]);
  await ok(t, env, ['dns', 'delete-zone', z]);
  const calls = (await env.admin('GET', '/_sim/calls')) as {
    rejectedByDocument: { count: number; log: unknown[] };
  };
  t.is(calls.rejectedByDocument.count, 0, JSON.stringify(calls.rejectedByDocument.log));
});

test.serial(
  'every purge verb: a URL (prefix, async, exact path) and a whole pull zone or one tag',
  async (t) => {
    const env = await startCliEnv(t);
    const created = await ok(t, env, [
      'pullzone',
      'create',
      '-f',
      env.file('pz.yaml', 'Name: run-purge\nOriginUrl: https://o.example\n'),
      '-o',
      'json',
    ]);
    const id = String((JSON.parse(created.stdout) as { Id: number }).Id);
    const url = await ok(t, env, ['purge', 'url', 'https://run-purge.b-cdn.net/img/*', '--async']);
    t.regex(url.stdout, /Purged https:\/\/run-purge\.b-cdn\.net\/img\/\* \(asynchronously\)/);
    await ok(t, env, ['purge', 'url', 'https://run-purge.b-cdn.net/a/', '--exact-path']);
    const zone = await ok(t, env, ['purge', 'pullzone', id, '-o', 'json']);
    t.deepEqual(JSON.parse(zone.stdout), { ok: true, pullZoneId: Number(id) });
    const tag = await ok(t, env, ['purge', 'pullzone', id, '--cache-tag', 'product-42']);
    t.regex(tag.stdout, /Purged cache tag product-42 of pull zone \d+/);
    const bad = await env.run(['purge', 'url', 'not-a-url']);
    t.is(bad.code, 2, 'the client refuses the URL before any request (a usage error)');
    t.regex(bad.stderr, /url must be an absolute http\(s\) URL/);
    const missing = await env.run(['purge', 'pullzone', '999999']);
    t.is(missing.code, 4, 'an unknown pull zone is not found');
    const calls = (await env.admin('GET', '/_sim/calls')) as {
      routes: Record<string, { count: number }>;
      rejectedByDocument: { count: number };
    };
    t.is(calls.routes['POST /purge']?.count, 2, 'the invalid URL never reached the API');
    t.is(calls.routes['POST /pullzone/{id}/purgeCache']?.count, 3);
    t.is(calls.rejectedByDocument.count, 0);
  },
);

test.serial('export and diff', async (t) => {
  const env = await startCliEnv(t);
  await ok(t, env, [
    'pullzone',
    'create',
    '-f',
    env.file('e.yaml', 'Name: exp-zone\nOriginUrl: https://o.example\n'),
  ]);
  const dir = path.join(env.dir, 'export');
  const exported = await ok(t, env, ['export', '-o', dir, '-n', 'team']);
  t.regex(exported.stdout, /Wrote \d+ manifest\(s\)/);
  const diff = await ok(t, env, ['diff', '-f', dir]);
  t.regex(diff.stdout, /PullZoneConfig team\/exp-zone \(id \d+\): no changes/);
});

test.serial('migrate: a manifest file in place', async (t) => {
  const env = await startCliEnv(t);
  const file = env.file(
    'm.yaml',
    'apiVersion: cdn.operator.io/v1alpha1\nkind: DnsZone\nmetadata: {name: z}\n',
  );
  const r = await ok(t, env, ['migrate', file]);
  t.regex(r.stdout, /1 change\(s\)/);
  t.regex(readFileSync(file, 'utf8'), /^apiVersion: dns\.cdn\.operator\.io\/v1beta1$/m);
});

test.serial('no command in the table was left untested', (t) => {
  const missing = COMMANDS.map((c) => `${c.group} ${c.verb}`).filter(
    (name) => !exercised.has(name),
  );
  t.deepEqual(missing, []);
});

test('client-side range errors are usage errors (exit 2) without a request', async (t) => {
  const env = await startCliEnv(t);
  const r = await env.run(['apikeys', 'list', '--per-page', '2']);
  t.is(r.code, 2);
  t.regex(r.stderr, /perPage must be an integer from 5 to 1000/);
});

test('usage errors exit 2: missing args, bad id, unknown command or option, no key, bad -o', async (t) => {
  const env = await startCliEnv(t);
  const cases: Array<[string[], Record<string, string | undefined>, RegExp]> = [
    [['pullzone', 'get'], {}, /usage: cdnctl pullzone get ID/],
    [['pullzone', 'get', 'abc'], {}, /ID must be a positive integer/],
    [['nonsense'], {}, /unknown command/],
    [['pullzone', 'frob'], {}, /unknown pullzone command/],
    [['pullzone', 'list', '--bogus'], {}, /Unknown option/],
    [['pullzone', 'list'], { CDN_API_KEY: undefined }, /no API key/],
    [['pullzone', 'list', '-o', 'xml'], {}, /-o must be table, json or yaml/],
    [['pullzone', 'update', '1', '-f', '/nonexistent.yaml'], {}, /cannot read/],
  ];
  for (const [args, extraEnv, message] of cases) {
    const r = await env.run(args, extraEnv);
    t.is(r.code, 2, args.join(' '));
    t.regex(r.stderr, message);
  }
  const help = await env.run(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /cdnctl shield waf-metrics ZONE RULE/);
});

test('table output of lists and validation errors listing every field', async (t) => {
  const env = await startCliEnv(t);
  await env.run([
    'pullzone',
    'create',
    '-f',
    env.file('z.yaml', 'Name: table-zone\nOriginUrl: https://o.example\n'),
  ]);
  const list = await env.run(['pullzone', 'list']);
  t.regex(
    list.stdout,
    /^ID\s+NAME\s+ORIGIN\s+ENABLED\s+HOSTNAMES\n\d+\s+table-zone\s+https:\/\/o\.example\s+true\s+table-zone\.b-cdn\.net/,
  );
  const invalid = await env.run(['apps', 'create', '-f', env.file('bad.yaml', 'name: ""\n')]);
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: createApp: .*\(field: \w+\) \[HTTP 4\d\d\]\n {2}field /);
});
