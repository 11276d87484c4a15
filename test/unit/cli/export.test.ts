/**
 * `cdnctl export` and `cdnctl diff` in-process against cdn-sim: names, YAML 1.1 safety, secret
 * replacement (seeded secret values never reach any output), the Secrets list, flags and exit
 * codes. The full apply-and-reconcile proof is the e2e test test/e2e/export/export.test.ts.
 */
import test from 'ava';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { CdnClient } from '../../../src/cdn/client.js';
import { NameAllocator, toDnsLabel } from '../../../src/controllers/shared/export-names.js';
import { toYaml11 } from '../../../src/cli/export/yaml.js';
import { startCliEnv, type CliEnv } from './cli-harness.js';

const LABELS: Array<[string, string, string]> = [
  ['My_Zone.Example', 'my-zone-example', 'invalid characters become dashes, lowercase'],
  ['--edge--', 'edge', 'leading and trailing dashes go'],
  ['', 'fallback', 'nothing usable left: the fallback'],
  ['a'.repeat(80), 'a'.repeat(63), 'cut to 63 characters'],
  ['Zone-Upper-3', 'zone-upper-3', 'case folds'],
];

for (const [name, want, why] of LABELS) {
  test(`toDnsLabel: ${why}`, (t) => {
    t.is(toDnsLabel(name, 'fallback'), want);
  });
}

test('NameAllocator: first come keeps the plain name, a collision gets its id, deterministically', (t) => {
  const names = new NameAllocator();
  t.is(names.allocate('Shop', 10, 'pullzone'), 'shop');
  t.is(names.allocate('SHOP', 11, 'pullzone'), 'shop-11');
  t.is(names.allocate('shop_', 12, 'pullzone'), 'shop-12');
  t.is(names.allocate('', 13, 'pullzone'), 'pullzone-13');
  t.is(names.allocate('x'.repeat(70), 14, 'pullzone'), 'x'.repeat(63));
  t.is(names.allocate('x'.repeat(70), 15, 'pullzone'), `${'x'.repeat(60)}-15`);
});

test('YAML output quotes what YAML 1.1 would not read as the same string', (t) => {
  const value = {
    values: ['Off', 'On', 'yes', 'no', 'y', '~', 'null', '012', '0x1F', '1:20'],
    n: 'on',
  };
  const text = toYaml11(value);
  t.deepEqual(parse(text, { version: '1.1' }), value);
  t.deepEqual(parse(text), value);
});

/** The members of exported documents the tests read. */
interface Doc {
  kind: string;
  metadata: { name: string; namespace?: string };
  spec: {
    name?: string;
    logForwarding?: unknown;
    credentialsRef?: unknown;
    deletionPolicy?: string;
    settings: Record<string, unknown>;
    hostnames: Array<{ certificate?: unknown }>;
    containerTemplates: Array<{ environmentVariables?: unknown }>;
    adoption?: { policy: string; id: number };
    pullZoneRef?: unknown;
    ddos: { shieldSensitivity?: string };
    uploadScanning?: Record<string, unknown>;
    botDetection?: { browserFingerprint?: { aggression?: string } };
  };
}

const SECRETS = {
  aws: 'unit-seeded-aws-secret-91',
  token: 'unit-seeded-log-token-92',
  env: 'unit-seeded-env-password-93',
  tlsKey: 'unit-seeded-private-key-94',
  syslog: 'unit-seeded-syslog/token+95=',
};

async function seed(env: CliEnv): Promise<{ zoneId: number; storagePasswords: string[] }> {
  const cdn = new CdnClient({ credentials: env.apiKey, baseUrl: env.sim.url });
  try {
    const zone = await cdn.addPullZone({
      Name: 'shop',
      OriginUrl: 'https://origin.example',
      AWSSigningEnabled: true,
      AWSSigningSecret: SECRETS.aws,
      LogForwardingToken: SECRETS.token,
      StickySessionType: 0,
    } as never);
    const id = Number(zone.Id);
    await cdn.createShieldZone({
      pullZoneId: id,
      shieldZone: { dDoSShieldSensitivity: 0 },
    } as never);
    await cdn.addHostname(id, 'www.shop.example');
    await cdn.addCertificate(id, {
      hostname: 'www.shop.example',
      certificate: Buffer.from(
        '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
      ).toString('base64'),
      certificateKey: Buffer.from(SECRETS.tlsKey).toString('base64'),
    });
    const app = await cdn.createApp({
      name: 'shop-api',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 1 },
      regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: [] },
      containerTemplates: [
        {
          name: 'api',
          imageName: 'api',
          imageNamespace: 'shop',
          imageTag: '1',
          imageRegistryId: 'dockerhub',
          environmentVariables: [
            { name: 'API_TOKEN', value: SECRETS.env },
            { name: 'FEATURE', value: 'Off' },
          ],
        },
      ],
      volumes: [],
    } as never);
    await cdn.createLogForwarding({
      app: app.id,
      type: 'SyslogUdp',
      endpoint: 'logs.shop.example',
      port: 514,
      format: 'SyslogRfc5424',
      enabled: true,
      token: SECRETS.syslog,
    });
    const storage = await cdn.addStorageZone({
      Name: 'shop-assets',
      Region: 'DE',
      ReplicationRegions: ['NY'],
    });
    return {
      zoneId: id,
      storagePasswords: [String(storage.Password), String(storage.ReadOnlyPassword)],
    };
  } finally {
    cdn.close();
  }
}

test('export: secret values never appear, the Secrets are listed, every kind is written', async (t) => {
  const env = await startCliEnv(t);
  const { storagePasswords } = await seed(env);
  const r = await env.run(['export', '-n', 'shop', '--credentials-ref', 'my-key:token']);
  t.is(r.code, 0, r.stderr);
  for (const value of [
    ...Object.values(SECRETS),
    ...storagePasswords,
    Buffer.from(SECRETS.tlsKey).toString('base64'),
  ]) {
    t.false(r.stdout.includes(value), `stdout leaks ${value}`);
    t.false(r.stderr.includes(value), `stderr leaks ${value}`);
  }
  const docs = parseAllDocuments(r.stdout, { version: '1.1' }).map((d) => d.toJS() as Doc);
  t.deepEqual(
    docs.map((d) => `${d.kind}/${d.metadata.name}`).sort(),
    [
      'ContainerApp/shop-api',
      'PullZoneConfig/shop',
      'ShieldPolicy/shop',
      'StorageZone/shop-assets',
      // cdn-sim's seeded library.
      'VideoLibrary/sim-videos',
      ...docs
        .filter((d) => d.kind === 'PullZoneConfig' && d.metadata.name !== 'shop')
        .map((d) => `PullZoneConfig/${d.metadata.name}`),
      ...docs
        .filter((d) => d.kind === 'StorageZone' && d.metadata.name !== 'shop-assets')
        .map((d) => `StorageZone/${d.metadata.name}`),
    ].sort(),
  );
  t.deepEqual(
    parseAllDocuments(r.stdout).map((d) => d.toJS() as Doc),
    docs,
    'YAML 1.1 and 1.2 agree',
  );
  const zone = docs.find((d) => d.kind === 'PullZoneConfig' && d.metadata.name === 'shop')!;
  t.is(zone.metadata.namespace, 'shop');
  t.deepEqual(zone.spec.credentialsRef, { name: 'my-key', key: 'token' });
  t.is(zone.spec.deletionPolicy, 'Orphan');
  t.is(zone.spec.adoption?.policy, 'ById', 'the zone is adopted by id');
  t.false('name' in zone.spec, 'the CRD refuses adoption.id together with name');
  t.is(zone.spec.settings.stickySessionType, 'Off');
  t.deepEqual(zone.spec.settings.awsSigningSecretAccessKeySecretRef, {
    name: 'shop-settings',
    key: 'awsSigningSecret',
  });
  t.deepEqual(zone.spec.settings.logForwardingTokenSecretRef, {
    name: 'shop-settings',
    key: 'logForwardingToken',
  });
  t.deepEqual(
    zone.spec.hostnames,
    [{ hostname: 'www.shop.example', forceSSL: false }],
    'custom certificate left unmanaged',
  );
  const app = docs.find((d) => d.kind === 'ContainerApp')!;
  t.deepEqual(app.spec.logForwarding, {
    enabled: true,
    type: 'SyslogUDP',
    endpoint: 'logs.shop.example',
    port: 514,
    format: 'SyslogRFC5424',
    tokenSecretRef: { name: 'shop-api-log-forwarding', key: 'token' },
  });
  t.deepEqual(app.spec.containerTemplates[0]?.environmentVariables, [
    { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'shop-api-env', key: 'API_TOKEN' } } },
    { name: 'FEATURE', value: 'Off' },
  ]);
  const storage = docs.find((d) => d.kind === 'StorageZone' && d.metadata.name === 'shop-assets')!;
  t.is(typeof storage.spec.adoption?.id, 'number');
  t.like(storage.spec, {
    adoption: { policy: 'ById' },
    name: 'shop-assets',
    region: 'DE',
    replicationRegions: ['NY'],
    zoneTier: 'Standard',
    deletionPolicy: 'Orphan',
    outputSecretRef: { name: 'shop-assets-storage-password' },
  });
  const shield = docs.find((d) => d.kind === 'ShieldPolicy')!;
  t.deepEqual(shield.spec.pullZoneRef, { name: 'shop' });
  t.is(shield.spec.ddos.shieldSensitivity, 'Off');
  t.deepEqual(
    shield.spec.uploadScanning,
    { enabled: false, csamScanningMode: 'Off', antivirusScanningMode: 'Off' },
    'upload scanning exported by name',
  );
  t.is(shield.spec.botDetection?.browserFingerprint?.aggression, 'Low');
  t.regex(
    r.stderr,
    /kubectl -n shop create secret generic shop-settings --from-literal=awsSigningSecret=<value> --from-literal=logForwardingToken=<value>/,
  );
  t.regex(r.stderr, /create secret generic shop-api-env --from-literal=API_TOKEN=<value>/);
  t.regex(r.stderr, /create secret generic shop-api-log-forwarding --from-literal=token=<value>/);
  t.regex(r.stderr, /log forwarding tokens are never exported/);
  t.regex(r.stderr, /hostname www\.shop\.example has a custom certificate, left unmanaged/);
});

test('export --custom-certificates secret: a TLS Secret reference, and diff shows the one upload', async (t) => {
  const env = await startCliEnv(t);
  await seed(env);
  const dir = path.join(env.dir, 'out');
  const r = await env.run([
    'export',
    '-o',
    dir,
    '--kinds',
    'pullzoneconfig',
    '--custom-certificates',
    'secret',
    '--deletion-policy',
    'Delete',
  ]);
  t.is(r.code, 0, r.stderr);
  t.regex(
    r.stdout,
    /create secret tls shop-tls-www-shop-example --cert=<certificate.pem> --key=<key.pem>/,
  );
  t.deepEqual(
    readdirSync(dir).filter((f) => !f.endsWith('.yaml')),
    ['secrets-to-create.txt'],
  );
  const zone = parse(readFileSync(path.join(dir, 'pullzoneconfig-shop.yaml'), 'utf8'), {
    version: '1.1',
  }) as Doc;
  t.is(zone.spec.deletionPolicy, 'Delete');
  t.deepEqual(zone.spec.hostnames[0]?.certificate, {
    type: 'Custom',
    secretRef: { name: 'shop-tls-www-shop-example' },
  });
  const diff = await env.run(['diff', '-f', path.join(dir, 'pullzoneconfig-shop.yaml')]);
  t.is(diff.code, 1, diff.stdout + diff.stderr);
  t.deepEqual(
    diff.stdout.split('\n').filter((l) => l.startsWith('  ~ ')),
    ['  ~ Hostnames[www.shop.example].Certificate: Custom none -> Custom sha256:from-secret'],
  );
});

test('diff: no changes for a fresh export (exit 0), one edited field (exit 1), errors (exit 2)', async (t) => {
  const env = await startCliEnv(t);
  await seed(env);
  const dir = path.join(env.dir, 'out');
  t.is((await env.run(['export', '-o', dir])).code, 0);
  const clean = await env.run(['diff', '-f', dir]);
  t.is(clean.code, 0, clean.stdout);
  t.regex(clean.stdout, /StorageZone default\/shop-assets \(id \d+\): no changes/);
  t.notRegex(clean.stdout, /: not compared/);
  const file = path.join(dir, 'containerapp-shop-api.yaml');
  writeFileSync(file, readFileSync(file, 'utf8').replace('imageTag: "1"', 'imageTag: "2"'));
  const changed = await env.run(['diff', '-f', dir]);
  t.is(changed.code, 1, changed.stdout);
  t.deepEqual(
    changed.stdout.split('\n').filter((l) => l.startsWith('  ~ ')),
    ['  ~ containerTemplates[api].imageTag: 1 -> 2'],
  );
  // The log forwarding block is compared member by member (the token cannot be read here).
  writeFileSync(file, readFileSync(file, 'utf8').replace('port: 514', 'port: 6514'));
  const logs = await env.run(['diff', '-f', file]);
  t.is(logs.code, 1, logs.stdout);
  t.deepEqual(
    logs.stdout.split('\n').filter((l) => l.startsWith('  ~ ')),
    ['  ~ containerTemplates[api].imageTag: 1 -> 2', '  ~ logForwarding.port: 514 -> 6514'],
  );
  // A replication region added to the exported StorageZone is one change, the others none.
  const szFile = path.join(dir, 'storagezone-shop-assets.yaml');
  const sz = parseYaml(readFileSync(szFile, 'utf8')) as { spec: Record<string, unknown> };
  sz.spec.replicationRegions = ['NY', 'SG'];
  writeFileSync(szFile, stringifyYaml(sz));
  const szChanged = await env.run(['diff', '-f', szFile]);
  t.is(szChanged.code, 1, szChanged.stdout);
  t.regex(szChanged.stdout, /StorageZone default\/shop-assets \(id \d+\): 1 change\(s\)/);
  const gone = env.file(
    'gone.yaml',
    'apiVersion: pullzones.cdn.operator.io/v1beta1\nkind: PullZoneConfig\nmetadata:\n  name: gone\nspec:\n  adoption: {policy: ById, id: 999999}\n',
  );
  const missing = await env.run(['diff', '-f', gone]);
  t.is(missing.code, 2, missing.stdout);
  t.regex(missing.stdout, /PullZoneConfig default\/gone: error: getPullZone: .*\[HTTP 404\]/);
  t.is((await env.run(['diff'])).code, 2);
});

const USAGE: Array<[string[], RegExp, string]> = [
  [['export', '--kinds', 'Buckets'], /--kinds: unknown kind "Buckets"/, 'an unknown kind'],
  [
    ['export', '--account-ref', 'a', '--credentials-ref', 'b'],
    /either --account-ref or --credentials-ref/,
    'both account flags',
  ],
  [
    ['export', '--deletion-policy', 'Keep'],
    /--deletion-policy must be one of Orphan, Delete/,
    'an unknown policy',
  ],
  [['export', '-n', 'Not_A_Namespace'], /--namespace must be a namespace name/, 'a bad namespace'],
  [['export', 'extra'], /takes no arguments/, 'a positional argument'],
  [['export', '--secret-env-pattern', '('], /not a regular expression/, 'a broken pattern'],
];

for (const [args, message, why] of USAGE) {
  test(`export usage error (exit 2): ${why}`, async (t) => {
    const env = await startCliEnv(t);
    const r = await env.run(args);
    t.is(r.code, 2);
    t.regex(r.stderr, message);
  });
}
