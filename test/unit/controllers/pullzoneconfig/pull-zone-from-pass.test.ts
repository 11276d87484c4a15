/**
 * `spec.pullZoneFrom` (issue 48) under the real reconciler against cdn-sim: a PullZoneConfig
 * linking the zone an owner reports manages it (a hostname and an edge rule written) and never
 * creates or deletes a zone: it waits for an owner without one, follows a new id, reports a zone
 * the owner dropped or the platform lost as LinkedZoneGone (and recovers when the owner reports
 * one again), lets go on deletion whatever the
 * deletion policy, and a second PullZoneConfig linking the same zone is refused AlreadyManaged.
 * On the code before pullZoneFrom the spec field was ignored and the first pass created a zone.
 */
import test from 'ava';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { createPullZone } from '../../../../src/simulator/routes/pullzone-model.js';
import { callCount, NS, startWorld, Subject, writesSince, type World } from '../kit/world.js';

let world: World;
let seq = 0;

test.before(async () => {
  world = await startWorld();
});

test.after.always(async () => {
  await world?.close();
});

/** A zone the platform made for a standalone script (origin EdgeScript), as cdn-sim makes it. */
function madeZone(): number {
  const zone = createPullZone(world.sim.state, `made-${process.pid}-${++seq}`, {
    OriginType: 4,
    OriginUrl: 'https://bunnycdn.com',
  });
  return Number(zone.record.Id);
}

/** An owner in the cache: an EdgeScript of `namespace` whose status reports `pullZoneId`. */
function script(name: string, pullZoneId: number | undefined, namespace = NS): ManagedObject {
  return {
    apiVersion: apiVersionOfKind('EdgeScript'),
    kind: 'EdgeScript',
    metadata: { name, namespace, uid: `uid-es-${name}` },
    spec: { scriptType: 'Standalone' },
    status: { scriptId: 1, ...(pullZoneId !== undefined ? { pullZoneId } : {}) },
  };
}

/** Links `owner`; `host`: the custom hostname (unique on the platform). */
const SPEC = (owner: string, host: string): Record<string, unknown> => ({
  pullZoneFrom: { kind: 'EdgeScript', name: owner },
  hostnames: [{ hostname: `${host}.example.com` }],
  edgeRules: [
    {
      name: 'block-admin',
      action: { type: 'BlockRequest' },
      triggers: [{ type: 'Url', patternMatches: ['*/admin/*'] }],
    },
  ],
});

/** A PullZoneConfig linking `owner`, whose cache holds `owners()`. */
function linked(
  owners: () => ManagedObject[],
  owner: string,
  extra: Record<string, unknown> = {},
  claims?: ClaimIndex,
): Subject {
  const stage = { kind: 'PullZoneConfig', objects: owners, ...(claims ? { claims } : {}) };
  const name = `link-${++seq}`;
  return new Subject(world, stage, name, { ...SPEC(owner, name), ...extra });
}

const zoneCalls = (from: number): string[] =>
  writesSince(world, from)
    .filter((w) => w.route === 'POST /pullzone' || w.route === 'DELETE /pullzone/{id}')
    .map((w) => w.route);

test('a linked zone is managed: hostname and edge rule written, no zone created', async (t) => {
  const id = madeZone();
  const owners = [script('site', id)];
  const s = linked(() => owners, 'site');
  const mark = callCount(world);
  await s.settle();
  t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
  t.deepEqual(zoneCalls(mark), [], 'no POST /pullzone, no DELETE /pullzone');
  t.is(s.id('pullZoneId'), String(id));
  t.deepEqual(s.obj.status?.linkedFrom, { kind: 'EdgeScript', name: 'site' });
  const zone = world.sim.state.pullZones.get(id)!;
  const hosts = (zone.record.Hostnames as Array<{ Value: string }>).map((h) => h.Value);
  t.true(hosts.includes(`${s.name}.example.com`), hosts.join(','));
  t.is((zone.record.EdgeRules as unknown[]).length, 1);
  t.is(zone.record.OriginType, 4, 'the origin the owner set is left alone');
  t.is(s.obj.status?.ownership && (s.obj.status.ownership as { adopted?: boolean }).adopted, true);
});

test('no owner, or an owner without a zone: waits (ReferenceNotReady), nothing written', async (t) => {
  const cases = [
    { why: 'the owner does not exist', owners: [] as ManagedObject[], message: /was not found/ },
    {
      why: 'the owner reports no zone yet',
      owners: [script('site', undefined)],
      message: /reports no pull zone \(status\.pullZoneId\)/,
    },
    {
      why: 'a same-named owner in another namespace is not used',
      owners: [script('site', madeZone(), 'team-b')],
      message: /EdgeScript team-a\/site was not found/,
    },
  ];
  for (const c of cases) {
    const s = linked(() => c.owners, 'site');
    const mark = callCount(world);
    await s.pass();
    t.like(s.condition('Ready'), { status: 'False', reason: 'ReferenceNotReady' }, c.why);
    t.regex(s.condition('Ready')?.message ?? '', c.message, c.why);
    t.deepEqual(writesSince(world, mark), [], `${c.why}: nothing written`);
    t.is(s.id('pullZoneId'), undefined, c.why);
  }
});

test('a new id from the owner is followed; a dropped or lost zone is LinkedZoneGone, never created', async (t) => {
  const first = madeZone();
  const owners = [script('site', first)];
  const s = linked(() => owners, 'site');
  await s.settle();
  t.is(s.id('pullZoneId'), String(first));

  // The owner's zone made again: the old one is gone, a new one reported.
  await world.client.deletePullZone(first);
  const second = madeZone();
  owners[0] = script('site', second);
  const mark = callCount(world);
  await s.settle();
  await s.pass();
  t.is(s.id('pullZoneId'), String(second), 'the new zone is managed');
  t.true(s.ready());

  owners[0] = script('site', undefined);
  await s.pass();
  t.like(s.condition('Synced'), { status: 'False', reason: 'LinkedZoneGone' }, 'owner dropped it');
  t.like(s.condition('Ready'), { status: 'False', reason: 'LinkedZoneGone' }, 'not Ready either');
  t.regex(s.condition('Synced')?.message ?? '', /EdgeScript team-a\/site reports no pull zone/);

  owners.length = 0;
  await s.pass();
  t.like(s.condition('Synced'), { status: 'False', reason: 'LinkedZoneGone' }, 'owner deleted');

  t.deepEqual(zoneCalls(mark), [], 'no zone created or deleted by the object along the way');
  owners.push(script('site', second));
  await world.client.deletePullZone(second);
  const before = callCount(world);
  await s.pass();
  t.like(s.condition('Synced'), { status: 'False', reason: 'LinkedZoneGone' }, 'zone deleted');
  t.regex(s.condition('Synced')?.message ?? '', /no longer exists on the platform/);
  t.deepEqual(zoneCalls(before), [], 'nor once the zone is gone');

  // The owner reports a zone again: managed again, no create.
  const third = madeZone();
  owners[0] = script('site', third);
  const again = callCount(world);
  await s.settle();
  t.true(s.ready(), JSON.stringify(s.obj.status?.conditions));
  t.like(s.condition('Synced'), { status: 'True' });
  t.is(s.id('pullZoneId'), String(third));
  t.deepEqual(zoneCalls(again), [], 'recovered without a create');
});

test('deleting a linked PullZoneConfig leaves the zone, whatever the deletion policy', async (t) => {
  for (const policy of [{}, { deletionPolicy: 'Orphan' }, { deletionPolicy: 'Delete' }]) {
    const id = madeZone();
    const owners = [script('site', id)];
    const s = linked(() => owners, 'site', policy);
    await s.settle();
    t.true(s.ready(), JSON.stringify(policy));
    s.markDeleted();
    const mark = callCount(world);
    for (let i = 0; i < 3 && !s.released(); i++) await s.pass();
    t.true(s.released(), `${JSON.stringify(policy)}: the finalizer is released`);
    t.deepEqual(zoneCalls(mark), [], `${JSON.stringify(policy)}: no DELETE /pullzone`);
    t.true(world.sim.state.pullZones.has(id), `${JSON.stringify(policy)}: the zone stays`);
  }
});

test('a second PullZoneConfig linking the same zone is refused AlreadyManaged', async (t) => {
  const id = madeZone();
  const owners = [script('site', id)];
  const claims = new ClaimIndex();
  const first = linked(() => owners, 'site', {}, claims);
  await first.settle();
  first.claimIn(claims);
  const second = linked(() => owners, 'site', {}, claims);
  const mark = callCount(world);
  await second.pass();
  t.like(second.condition('Synced'), { status: 'False', reason: 'AlreadyManaged' });
  t.regex(second.condition('Synced')?.message ?? '', new RegExp(`PullZoneConfig ${NS}/link-`));
  t.deepEqual(writesSince(world, mark), [], 'nothing written by the second');
});
