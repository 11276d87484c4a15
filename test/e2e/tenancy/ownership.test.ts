/**
 * One owner per platform resource, with two tenant namespaces on a real apiserver, the real
 * operator and cdn-sim (issue 13, items 0-4 and 8, plus migration). Every test counts the
 * platform writes from the simulator's call log: a refused object must cause none.
 */
import test from 'ava';
import { apply, deleteObject, getObject, kubectl, patchObject } from '../support/kube.js';
import {
  appSpec,
  CAPP,
  objectYaml,
  PZC,
  resetCalls,
  settle,
  SHP,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from './setup.js';

let env: TenancyEnv;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

function zonesNamed(name: string): number[] {
  return [...env.sim.state.pullZones.values()]
    .filter((z) => z.record.Name === name)
    .map((z) => Number(z.record.Id));
}

function appsNamed(name: string): string[] {
  return [...env.sim.state.apps.values()]
    .filter((a) => a.app.name === name)
    .map((a) => String(a.app.id));
}

function originOf(id: number): unknown {
  return env.sim.state.pullZones.get(id)?.record.OriginUrl;
}

const pzc = (ns: string, name: string, spec: Record<string, unknown>): string =>
  objectYaml('PullZoneConfig', ns, name, spec);

/** Writes whose path names this pull zone (update, delete, hostnames, ...). */
async function writesToZone(id: number): Promise<string[]> {
  return (await simWrites(env.sim))
    .filter((c) => c.path === `/pullzone/${id}` || c.path.startsWith(`/pullzone/${id}/`))
    .map((c) => `${c.method} ${c.path}`);
}

test.serial(
  'overlay: the same manifest in two namespaces never shares one zone; the second is refused and writes nothing',
  async (t) => {
    const { teamA, teamB } = env;
    const spec = (origin: string): Record<string, unknown> => ({
      settings: { originUrl: origin },
    });
    await apply(pzc(teamA, 'web', spec('https://staging.example.com')));
    const a = await waitCondition(PZC, teamA, 'web', 'Ready', 'True');
    const id = Number(a.status?.pullZoneId);
    await resetCalls(env.sim);
    await apply(pzc(teamB, 'web', spec('https://prod.example.com')));
    const b = await waitCondition(PZC, teamB, 'web', 'Synced', 'False', 'NameTaken');
    t.regex(String(b.status?.conditions?.find((c) => c.type === 'Synced')?.message), /spec\.name/);
    t.is(b.status?.pullZoneId, undefined, 'team-b records no id');
    await settle(3000);
    t.deepEqual(zonesNamed('web'), [id], 'still exactly one zone named web');
    t.deepEqual(await writesToZone(id), [], 'nothing written to team-a’s zone');
    t.is(originOf(id), 'https://staging.example.com');
    // Deleting the refused object deletes nothing.
    await deleteObject(PZC, teamB, 'web');
    await waitGone(PZC, teamB, 'web');
    t.deepEqual(zonesNamed('web'), [id]);
    t.is(
      (await simWrites(env.sim)).filter((c) => c.method === 'DELETE').length,
      0,
      'no DELETE at all',
    );
    // The fix the message suggests: a unique spec.name gives team-b its own zone.
    await apply(pzc(teamB, 'web', { name: 'web-prod', ...spec('https://prod.example.com') }));
    const own = await waitCondition(PZC, teamB, 'web', 'Ready', 'True');
    t.not(Number(own.status?.pullZoneId), id);
    t.is(originOf(id), 'https://staging.example.com');
  },
);

test.serial(
  'no adoption without an explicit request; ByName adopts and defaults to Orphan',
  async (t) => {
    const { teamA } = env;
    const outside = await env.cdn.addPullZone({
      Name: 'hand-made',
      OriginUrl: 'https://hand.example.com',
    });
    const id = Number(outside.Id);
    await resetCalls(env.sim);
    await apply(
      pzc(teamA, 'implicit', {
        name: 'hand-made',
        settings: { originUrl: 'https://x.example.com' },
      }),
    );
    await waitCondition(PZC, teamA, 'implicit', 'Synced', 'False', 'NameTaken');
    await settle(2000);
    t.deepEqual(await writesToZone(id), [], 'a name match alone changes nothing');
    t.is(originOf(id), 'https://hand.example.com');
    await deleteObject(PZC, teamA, 'implicit');
    await waitGone(PZC, teamA, 'implicit');

    await apply(
      pzc(teamA, 'explicit', {
        name: 'hand-made',
        adoption: { policy: 'ByName' },
        settings: { originUrl: 'https://x.example.com' },
      }),
    );
    const adopted = await waitCondition(PZC, teamA, 'explicit', 'Ready', 'True');
    t.is(Number(adopted.status?.pullZoneId), id);
    t.like(adopted.status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
    t.is(originOf(id), 'https://x.example.com');
    await deleteObject(PZC, teamA, 'explicit');
    await waitGone(PZC, teamA, 'explicit');
    t.true(env.sim.state.pullZones.has(id), 'an adopted zone is left in place by default');
  },
);

test.serial(
  'a second claimant by id (PullZoneConfig) is refused with AlreadyManaged; deleting it deletes nothing',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(pzc(teamA, 'shop', { settings: { originUrl: 'https://shop-a.example.com' } }));
    const a = await waitCondition(PZC, teamA, 'shop', 'Ready', 'True');
    const id = Number(a.status?.pullZoneId);
    await resetCalls(env.sim);
    await apply(
      pzc(teamB, 'steal', {
        adoption: { policy: 'ById', id: id },
        deletionPolicy: 'Delete',
        settings: { originUrl: 'https://evil.example.com' },
      }),
    );
    const b = await waitCondition(PZC, teamB, 'steal', 'Synced', 'False', 'AlreadyManaged');
    const message = String(b.status?.conditions?.find((c) => c.type === 'Synced')?.message);
    t.true(message.includes(`${teamA}/shop`), message);
    await settle(2000);
    t.deepEqual(await writesToZone(id), []);
    t.is(originOf(id), 'https://shop-a.example.com');
    await deleteObject(PZC, teamB, 'steal');
    await waitGone(PZC, teamB, 'steal');
    t.deepEqual(await writesToZone(id), [], 'no DELETE for the refused claimant');
    t.true(env.sim.state.pullZones.has(id));
    // team-a keeps working: a spec change still reaches its zone.
    await patchObject(PZC, teamA, 'shop', {
      spec: { settings: { originUrl: 'https://shop-a2.example.com' } },
    });
    await waitCondition(PZC, teamA, 'shop', 'Ready', 'True');
    t.is(originOf(id), 'https://shop-a2.example.com');
  },
);

test.serial(
  'ContainerApp: a second claimant by adoption id is refused and writes nothing',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(objectYaml('ContainerApp', teamA, 'api', appSpec('api a')));
    const a = await waitCondition(CAPP, teamA, 'api', 'Ready', 'True', undefined, 90_000);
    const appId = String(a.status?.appId);
    await resetCalls(env.sim);
    await apply(
      objectYaml(
        'ContainerApp',
        teamB,
        'api',
        appSpec('api b', { adoption: { policy: 'ById', id: appId }, deletionPolicy: 'Delete' }),
      ),
    );
    await waitCondition(CAPP, teamB, 'api', 'Synced', 'False', 'AlreadyManaged');
    await settle(2000);
    const toApp = async (): Promise<string[]> =>
      (await simWrites(env.sim)).filter((c) => c.path.includes(appId)).map((c) => c.method);
    t.deepEqual(await toApp(), []);
    await deleteObject(CAPP, teamB, 'api');
    await waitGone(CAPP, teamB, 'api');
    t.deepEqual(await toApp(), [], 'deleting the refused claimant deletes nothing');
    t.true(env.sim.state.apps.has(appId));
  },
);

test.serial(
  'a hand-set create-pending annotation does nothing: same app name in two namespaces gives two apps',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(objectYaml('ContainerApp', teamA, 'shop', appSpec('shop')));
    const a = await waitCondition(CAPP, teamA, 'shop', 'Ready', 'True', undefined, 90_000);
    const theirs = String(a.status?.appId);
    await resetCalls(env.sim);
    await apply(
      objectYaml('ContainerApp', teamB, 'shop', appSpec('shop'), {
        'cdn.operator.io/external-create-pending': '2026-01-01T00:00:00Z',
      }),
    );
    const b = await waitCondition(CAPP, teamB, 'shop', 'Ready', 'True', undefined, 90_000);
    t.not(String(b.status?.appId), theirs, 'team-b got its own application');
    t.is(appsNamed('shop').length, 2);
    t.deepEqual(
      (await simWrites(env.sim)).filter((c) => c.path.includes(theirs)),
      [],
      'team-a’s app untouched',
    );
  },
);

test.serial(
  'a create-pending marker copied from another object does nothing: no adoption of an unmanaged same-named app',
  async (t) => {
    const { teamA, teamB } = env;
    const MARKER = 'cdn.operator.io/create-pending';
    // An application left on the platform, managed by no object (created, then orphaned).
    await apply(
      objectYaml(
        'ContainerApp',
        teamA,
        'victim-src',
        appSpec('victim', { deletionPolicy: 'Orphan' }),
      ),
    );
    const src = await waitCondition(CAPP, teamA, 'victim-src', 'Ready', 'True', undefined, 90_000);
    const victimId = String(src.status?.appId);
    const copied = src.metadata.annotations?.[MARKER];
    t.truthy(copied, 'the operator signed a create-pending marker for the source object');
    await deleteObject(CAPP, teamA, 'victim-src');
    await waitGone(CAPP, teamA, 'victim-src');
    t.true(env.sim.state.apps.has(victimId), 'orphaned, still on the platform');
    await resetCalls(env.sim);
    // team-b copies the valid marker onto its own object with the same application name.
    await apply(
      objectYaml('ContainerApp', teamB, 'thief', appSpec('victim'), { [MARKER]: copied! }),
    );
    const b = await waitCondition(CAPP, teamB, 'thief', 'Ready', 'True', undefined, 90_000);
    t.not(String(b.status?.appId), victimId, 'not adopted: the marker is bound to another uid');
    t.like(b.status?.ownership, { adopted: false });
    t.not(b.metadata.annotations?.[MARKER], copied, 'replaced by its own marker');
    t.is(appsNamed('victim').length, 2);
    t.deepEqual(
      (await simWrites(env.sim)).filter((c) => c.path.includes(victimId)),
      [],
      'the unmanaged app untouched',
    );
  },
);

test.serial(
  'a ShieldPolicy on a pull zone another namespace manages, or a second one on a shielded zone, is refused',
  async (t) => {
    const { teamA, teamB } = env;
    await apply(pzc(teamA, 'guarded', { settings: { originUrl: 'https://g.example.com' } }));
    const zone = await waitCondition(PZC, teamA, 'guarded', 'Ready', 'True');
    const id = Number(zone.status?.pullZoneId);
    await apply(
      objectYaml('ShieldPolicy', teamA, 'guard', {
        pullZoneRef: { name: 'guarded' },
        waf: { enabled: true },
      }),
    );
    await waitCondition(SHP, teamA, 'guard', 'Ready', 'True');
    await settle(1000);
    await resetCalls(env.sim);
    await apply(
      objectYaml('ShieldPolicy', teamB, 'guard', { pullZoneId: id, waf: { enabled: false } }),
    );
    // The pull zone is managed in team-a: a reference by id into another namespace, refused
    // before any claim is looked at (docs/security.md, issue 44).
    const b = await waitCondition(SHP, teamB, 'guard', 'Synced', 'False', 'ReferenceNotAllowed');
    t.true(JSON.stringify(b.status?.conditions).includes(teamA), 'names the owning namespace');
    await settle(2000);
    t.deepEqual(
      (await simWrites(env.sim)).filter((c) => c.path.startsWith('/shield')),
      [],
      'no shield write for the second policy',
    );
    // A second policy on the zone in the owner's own namespace: the zone is its to name, the
    // shield zone is another policy's.
    await apply(
      objectYaml('ShieldPolicy', teamA, 'guard-2', { pullZoneId: id, waf: { enabled: false } }),
    );
    const second = await waitCondition(SHP, teamA, 'guard-2', 'Synced', 'False', 'AlreadyManaged');
    t.true(JSON.stringify(second.status?.conditions).includes(`${teamA}/guard`));
    await deleteObject(SHP, teamB, 'guard');
    await deleteObject(SHP, teamA, 'guard-2');
    await waitGone(SHP, teamB, 'guard');
    await waitGone(SHP, teamA, 'guard-2');
    t.deepEqual(
      (await simWrites(env.sim)).filter((c) => c.path.startsWith('/shield')),
      [],
      'no shield write for either refused policy, nor for their deletion',
    );
  },
);

test.serial(
  'deletion: a 404 on the observe GET still sends DELETE and the zone is gone',
  async (t) => {
    const { teamA } = env;
    await apply(pzc(teamA, 'paid', { settings: { originUrl: 'https://paid.example.com' } }));
    const obj = await waitCondition(PZC, teamA, 'paid', 'Ready', 'True');
    const id = Number(obj.status?.pullZoneId);
    await resetCalls(env.sim);
    env.proxy.arm(new RegExp(`^/pullzone/${id}(\\?|$)`), 1);
    await deleteObject(PZC, teamA, 'paid');
    await waitGone(PZC, teamA, 'paid');
    t.is(env.proxy.served(), 1, 'the observe GET answered 404 once');
    t.true(
      (await simWrites(env.sim)).some((c) => c.method === 'DELETE' && c.path === `/pullzone/${id}`),
      'DELETE sent',
    );
    t.false(env.sim.state.pullZones.has(id), 'no leaked zone');
  },
);

test.serial(
  'migration: an object with an id recorded by the previous version keeps working and holds its claim',
  async (t) => {
    const { teamA, teamB } = env;
    const zone = await env.cdn.addPullZone({
      Name: 'legacy',
      OriginUrl: 'https://legacy-old.example.com',
    });
    const id = Number(zone.Id);
    // What the previous version left: finalizer, id in status, no status.ownership.
    await apply(
      JSON.stringify({
        apiVersion: 'pullzones.cdn.operator.io/v1beta1',
        kind: 'PullZoneConfig',
        metadata: {
          name: 'legacy',
          namespace: teamA,
          annotations: { 'cdn.operator.io/paused': 'true' },
          finalizers: ['cdn.operator.io/finalizer'],
        },
        spec: { deletionPolicy: 'Delete', settings: { originUrl: 'https://legacy.example.com' } },
      }),
    );
    await kubectl([
      'patch',
      PZC,
      'legacy',
      '-n',
      teamA,
      '--subresource=status',
      '--type',
      'merge',
      '-p',
      JSON.stringify({ status: { pullZoneId: id } }),
    ]);
    await resetCalls(env.sim);
    await patchObject(PZC, teamA, 'legacy', {
      metadata: { annotations: { 'cdn.operator.io/paused': null } },
    });
    const obj = await waitCondition(PZC, teamA, 'legacy', 'Ready', 'True');
    t.is(Number(obj.status?.pullZoneId), id);
    t.is(originOf(id), 'https://legacy.example.com', 'its spec reaches its zone');
    t.false(
      (await simWrites(env.sim)).some((c) => c.method === 'POST' && c.path === '/pullzone'),
      'no create',
    );
    t.like(obj.status?.ownership, { adopted: false, deletionPolicy: 'Delete' });
    // Its recorded id is a claim: a newcomer asking for the zone is refused.
    await apply(pzc(teamB, 'legacy-copy', { adoption: { policy: 'ById', id: id } }));
    await waitCondition(PZC, teamB, 'legacy-copy', 'Synced', 'False', 'AlreadyManaged');
    t.truthy(await getObject(PZC, teamA, 'legacy'));
  },
);

// Runs last (serial): every request of this file's lifecycle, adoption and deletion included.
test.serial('the operator sent nothing the official documents reject (cdn-sim strict)', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected.log));
});
