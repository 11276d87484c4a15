/**
 * cdnctl end to end: the real bin (`node --import tsx src/cli/main.ts`) against an in-process
 * cdn-sim, one test per command family plus exit codes and key handling.
 */
import test from 'ava';
import { parse } from 'yaml';
import { startCliEnv } from './cli-harness.js';

test('pullzone: create -f, get, update -f, remove-hostname, delete; table/json/yaml output', async (t) => {
  const env = await startCliEnv(t);
  const zoneFile = env.file('zone.yaml', 'Name: cli-zone\nOriginUrl: https://origin.example\n');
  const created = await env.spawn(['pullzone', 'create', '-f', zoneFile, '-o', 'json']);
  t.is(created.code, 0, created.stderr);
  const id = (JSON.parse(created.stdout) as { Id: number }).Id;
  t.true(id > 0);

  const table = await env.spawn(['pullzone', 'get', String(id)]);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /^FIELD\s+VALUE/);
  t.regex(table.stdout, /OriginUrl\s+https:\/\/origin\.example/);

  const settings = env.file(
    'settings.yaml',
    'OriginUrl: https://new.example\nBlockedIps: ["192.0.2.1"]\n',
  );
  const updated = await env.spawn(['pullzone', 'update', String(id), '-f', settings, '-o', 'yaml']);
  t.is(updated.code, 0, updated.stderr);
  t.like(parse(updated.stdout), {
    Id: id,
    OriginUrl: 'https://new.example',
    BlockedIps: ['192.0.2.1'],
  });

  t.is((await env.spawn(['pullzone', 'add-hostname', String(id), 'www.cli.example'])).code, 0);
  const removed = await env.spawn(['pullzone', 'remove-hostname', String(id), 'www.cli.example']);
  t.is(removed.code, 0, removed.stderr);
  t.regex(removed.stdout, /Removed hostname www\.cli\.example/);

  t.is((await env.spawn(['pullzone', 'delete', String(id)])).code, 0);
  const gone = await env.spawn(['pullzone', 'get', String(id)]);
  t.is(gone.code, 4, 'not found exit code');
  t.regex(gone.stderr, /^error: getPullZone: /);
});

test('storagezone check, videolibrary block-referrer', async (t) => {
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
  const free = await env.spawn(['storagezone', 'check', 'brand-new-zone']);
  t.regex(free.stdout, /brand-new-zone: available/);
  const blocked = await env.spawn([
    'videolibrary',
    'block-referrer',
    String(state.videoLibraries[0]!.Id),
    'leech.example',
  ]);
  t.is(blocked.code, 0, blocked.stderr);
  t.regex(blocked.stdout, /Blocked referrer leech\.example/);
});

test('apikeys list masks keys unless --show-keys; --api-key-file works', async (t) => {
  const other = 'abcd-second-key-0123456789-wxyz';
  const env = await startCliEnv(t, [other]);
  const masked = await env.spawn(['apikeys', 'list']);
  t.is(masked.code, 0, masked.stderr);
  t.regex(masked.stdout, /^ID\s+KEY\s+ROLES/);
  t.false(masked.stdout.includes(other), 'key shown in table');
  t.false(masked.stdout.includes(env.apiKey), 'own key shown in table');
  t.true(masked.stdout.includes('abcd…wxyz'));
  const json = await env.spawn(['apikeys', 'list', '-o', 'json']);
  t.false(json.stdout.includes(other), 'key shown in JSON');
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

test('apps create|patch|replace -f, container, get; validation errors name the field', async (t) => {
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
  const patched = await env.spawn([
    'apps',
    'patch',
    id,
    '-f',
    env.file('patch.yaml', 'name: cli-app-2\n'),
  ]);
  t.is(patched.code, 0, patched.stderr);
  const replaced = await env.spawn([
    'apps',
    'replace',
    id,
    '-f',
    env.file('app2.json', JSON.stringify({ ...app, name: 'cli-app-3' })),
  ]);
  t.is(replaced.code, 0, replaced.stderr);
  const got = await env.spawn(['apps', 'get', id, '-o', 'json']);
  const full = JSON.parse(got.stdout) as {
    name: string;
    containerTemplates: Array<{ id: string }>;
  };
  t.is(full.name, 'cli-app-3');
  const container = await env.spawn(['apps', 'container', id, full.containerTemplates[0]!.id]);
  t.is(container.code, 0, container.stderr);
  t.regex(container.stdout, /imageName\s+nginx/);
  const invalid = await env.spawn(['apps', 'create', '-f', env.file('bad.yaml', 'name: ""\n')]);
  t.is(invalid.code, 1);
  t.regex(invalid.stderr, /^error: createApp: .*\(field: \w+\)/);
});

test('shield get, list, waf-metrics', async (t) => {
  const env = await startCliEnv(t);
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'shield-cli', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  const pz = seeded.pullZones[0]!;
  const none = await env.spawn(['shield', 'get', String(pz)]);
  t.is(none.code, 4);
  t.regex(none.stderr, /has no shield zone/);
  const create = env.file('shield.yaml', `pullZoneId: ${pz}\nshieldZone:\n  wafEnabled: true\n`);
  const created = await env.spawn(['shield', 'create', '-f', create, '-o', 'json']);
  t.is(created.code, 0, created.stderr);
  const zoneId = (JSON.parse(created.stdout) as { shieldZoneId: number }).shieldZoneId;
  const got = await env.spawn(['shield', 'get', String(pz), '-o', 'json']);
  t.like(JSON.parse(got.stdout), { shieldZoneId: zoneId, pullZoneId: pz, wafEnabled: true });
  const list = await env.spawn(['shield', 'list']);
  t.regex(list.stdout, /^SHIELD ZONE\s+PULL ZONE/);
  t.regex(list.stdout, new RegExp(`\\n${zoneId}\\s+${pz}\\s+true`));
  await env.admin('PUT', `/_sim/shield-zones/${zoneId}/waf-rules/913100/metrics`, {
    totalTriggers: 9,
    blockedRequests: 4,
  });
  const metrics = await env.spawn(['shield', 'waf-metrics', String(zoneId), '913100']);
  t.is(metrics.code, 0, metrics.stderr);
  t.regex(metrics.stdout, /TRIGGERS\s+BLOCKED\s+LOGGED\s+CHALLENGED\n9\s+4\s+0\s+0/);
});

test('exit codes: usage 2, unauthorized 3, API error 1', async (t) => {
  const env = await startCliEnv(t);
  const usage = await env.spawn(['pullzone', 'get']);
  t.is(usage.code, 2);
  t.regex(usage.stderr, /usage: cdnctl pullzone get ID/);
  t.is((await env.spawn(['pullzone', 'get', 'abc'])).code, 2, 'non-numeric id');
  t.is((await env.spawn(['nonsense'])).code, 2);
  t.is((await env.spawn(['pullzone', 'list', '--bogus'])).code, 2);
  t.is((await env.spawn(['pullzone', 'list'], { CDN_API_KEY: undefined })).code, 2, 'no API key');
  const unauth = await env.spawn(['pullzone', 'list'], { CDN_API_KEY: 'wrong-key-123456' });
  t.is(unauth.code, 3);
  t.false(unauth.stderr.includes('wrong-key-123456'), 'the key is not echoed');
  const seeded = (await env.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: 'err-zone', OriginUrl: 'https://o.example' }],
  })) as { pullZones: number[] };
  const bad = await env.spawn([
    'pullzone',
    'update',
    String(seeded.pullZones[0]),
    '-f',
    env.file('bad.yaml', 'OptimizerImageQuality: 1000\n'),
  ]);
  t.is(bad.code, 1);
  t.regex(bad.stderr, /^error: updatePullZone: .+ \(field: OptimizerImageQuality\) \[HTTP 400\]/);
  const help = await env.spawn(['--help']);
  t.is(help.code, 0);
  t.regex(help.stdout, /cdnctl shield waf-metrics ZONE RULE/);
});
