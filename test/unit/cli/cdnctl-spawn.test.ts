/**
 * cdnctl end to end: the real bin (`node --import tsx src/cli/main.ts`) against an in-process
 * cdn-sim, a few invocations per command family plus exit codes and key handling. Serial and
 * few, because each spawn loads tsx; cdnctl-run.test.ts covers every verb in-process.
 */
import test from 'ava';
import { parse } from 'yaml';
import { startCliEnv } from './cli-harness.js';

test.serial(
  'pullzone: create -f (json), update -f (yaml), get (table), missing id exits 4',
  async (t) => {
    const env = await startCliEnv(t);
    const zoneFile = env.file('zone.yaml', 'Name: cli-zone\nOriginUrl: https://origin.example\n');
    const created = await env.spawn(['pullzone', 'create', '-f', zoneFile, '-o', 'json']);
    t.is(created.code, 0, created.stderr);
    const id = (JSON.parse(created.stdout) as { Id: number }).Id;
    const settings = env.file(
      'settings.yaml',
      'OriginUrl: https://new.example\nBlockedIps: ["192.0.2.1"]\n',
    );
    const updated = await env.spawn([
      'pullzone',
      'update',
      String(id),
      '-f',
      settings,
      '-o',
      'yaml',
    ]);
    t.is(updated.code, 0, updated.stderr);
    t.like(parse(updated.stdout), {
      Id: id,
      OriginUrl: 'https://new.example',
      BlockedIps: ['192.0.2.1'],
    });
    const table = await env.spawn(['pullzone', 'get', String(id)]);
    t.regex(table.stdout, /^FIELD\s+VALUE/);
    t.regex(table.stdout, /OriginUrl\s+https:\/\/new\.example/);
    const gone = await env.spawn(['pullzone', 'remove-hostname', '424242', 'www.example.com']);
    t.is(gone.code, 4, 'not found exit code');
    t.regex(gone.stderr, /^error: removeHostname: /);
  },
);

test.serial('storagezone check and videolibrary block-referrer', async (t) => {
  const env = await startCliEnv(t);
  const state = (await env.admin('GET', '/_sim/state')) as {
    storageZones: Array<{ Name: string }>;
    videoLibraries: Array<{ Id: number }>;
  };
  const taken = await env.spawn([
    'storagezone',
    'check',
    state.storageZones[0]!.Name,
    '-o',
    'json',
  ]);
  t.is(taken.code, 0, taken.stderr);
  t.like(JSON.parse(taken.stdout), { available: false });
  const blocked = await env.spawn([
    'videolibrary',
    'block-referrer',
    String(state.videoLibraries[0]!.Id),
    'leech.example',
  ]);
  t.is(blocked.code, 0, blocked.stderr);
  t.regex(blocked.stdout, /Blocked referrer leech\.example/);
});

test.serial('apikeys list masks keys unless --show-keys; --api-key-file works', async (t) => {
  const other = 'abcd-second-key-0123456789-wxyz';
  const env = await startCliEnv(t, [other]);
  const masked = await env.spawn(['apikeys', 'list']);
  t.is(masked.code, 0, masked.stderr);
  t.regex(masked.stdout, /^ID\s+KEY\s+ROLES/);
  t.false(masked.stdout.includes(other), 'key shown in table');
  t.false(masked.stdout.includes(env.apiKey), 'own key shown in table');
  t.true(masked.stdout.includes('abcd…wxyz'));
  const keyFile = env.file('key.txt', `${env.apiKey}\n`);
  const shown = await env.spawn(
    ['apikeys', 'list', '--show-keys', '--api-key-file', keyFile, '-o', 'yaml'],
    {
      CDN_API_KEY: undefined,
    },
  );
  t.is(shown.code, 0, shown.stderr);
  t.true(shown.stdout.includes(other));
});

test.serial('apps create -f and container', async (t) => {
  const env = await startCliEnv(t);
  const app = {
    name: 'cli-app',
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: 'latest',
        imageRegistryId: 'r1',
      },
    ],
  };
  const created = await env.spawn([
    'apps',
    'create',
    '-f',
    env.file('app.json', JSON.stringify(app)),
    '-o',
    'json',
  ]);
  t.is(created.code, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { id: string }).id;
  const full = JSON.parse((await env.run(['apps', 'get', id, '-o', 'json'])).stdout) as {
    containerTemplates: Array<{ id: string }>;
  };
  const container = await env.spawn(['apps', 'container', id, full.containerTemplates[0]!.id]);
  t.is(container.code, 0, container.stderr);
  t.regex(container.stdout, /imageName\s+nginx/);
});

test.serial('shield get (none: exit 4) and waf-metrics', async (t) => {
  const env = await startCliEnv(t);
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'shield-cli', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  const pz = seeded.pullZones[0]!;
  const none = await env.spawn(['shield', 'get', String(pz)]);
  t.is(none.code, 4);
  t.regex(none.stderr, /has no shield zone/);
  const created = await env.run([
    'shield',
    'create',
    '-f',
    env.file('s.yaml', `pullZoneId: ${pz}\n`),
    '-o',
    'json',
  ]);
  const zoneId = (JSON.parse(created.stdout) as { shieldZoneId: number }).shieldZoneId;
  await env.admin('PUT', `/_sim/shield-zones/${zoneId}/waf-rules/913100/metrics`, {
    totalTriggers: 9,
    blockedRequests: 4,
  });
  const metrics = await env.spawn(['shield', 'waf-metrics', String(zoneId), '913100']);
  t.is(metrics.code, 0, metrics.stderr);
  t.regex(metrics.stdout, /TRIGGERS\s+BLOCKED\s+LOGGED\s+CHALLENGED\n9\s+4\s+0\s+0/);
});

test.serial('exit codes: usage 2, unauthorized 3, API error 1 with field', async (t) => {
  const env = await startCliEnv(t);
  const usage = await env.spawn(['pullzone', 'get']);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /usage: cdnctl pullzone get ID/);
  // The process itself, not only run(): an unknown command stays a usage error under --help.
  const unknown = await env.spawn(['nonsense', '--help']);
  t.is(unknown.code, 2);
  t.regex(unknown.stderr, /unknown command "nonsense"/);
  const unauth = await env.spawn(['pullzone', 'list'], { CDN_API_KEY: 'wrong-key-123456' });
  t.is(unauth.code, 3);
  t.false(unauth.stderr.includes('wrong-key-123456'), 'the key is not echoed');
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'err-zone', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  const badFile = env.file('bad.yaml', 'OptimizerImageQuality: 1000\n');
  const bad = await env.spawn(['pullzone', 'update', String(seeded.pullZones[0]), '-f', badFile]);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^error: updatePullZone: .+ \(field: OptimizerImageQuality\) \[HTTP 400\]/);
});
