/**
 * Tenant security on the delete path and in the claim index (issue 44), for every kind with a
 * platform identity, as the operator runs it against cdn-sim:
 *
 * - an object the operator never accepted (nothing recorded in its status) that carries a
 *   finalizer its tenant wrote, naming by id a resource it does not own, deletes nothing and
 *   calls nothing on the platform when it is deleted;
 * - a refused object (the resource is managed from another namespace) lets go the same way;
 * - a spec-only claim of an object refused for its spec (a reference into another namespace,
 *   an id or zone that does not exist) does not squat the resource it names;
 * - pull zones the platform made for an object are claimed by it.
 */
import test, { type ExecutionContext } from 'ava';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { FINALIZER } from '../../../../src/runtime/reasons.js';
import type { ManagedObject } from '../../../../src/runtime/types.js';
import { FIXTURES, type KindFixture, type KindScene } from './fixtures.js';
import { containerAppClaimsOf } from '../../../../src/controllers/containerapp/claims.js';
import { dnsRecordClaimsOf } from '../../../../src/controllers/dnsrecord/claims.js';
import { callCount, NS, objectOf, startWorld, Subject, type World } from './world.js';

let world: World;
const scenes = new Map<string, KindScene>();
let seq = 0;

test.before(async () => {
  world = await startWorld();
  for (const f of FIXTURES) scenes.set(f.kind, await f.prepare(world));
});

test.after.always(async () => {
  await world?.close();
});

function sceneOf(f: KindFixture): KindScene {
  return scenes.get(f.kind)!;
}

/** Every call cdn-sim saw since `mark` (reads included). */
function callsSince(mark: number): string[] {
  return world.sim.calls
    .snapshot()
    .log.slice(mark)
    .map((c) => c.route);
}

/** The tenant's object: adopts `id` with Delete and carries a finalizer it wrote itself. */
function tenantObject(f: KindFixture, id: string, claims?: ClaimIndex): Subject {
  const name = `tenant-${f.kind.toLowerCase()}-${++seq}`;
  const s = new Subject(world, { ...sceneOf(f).stage, ...(claims ? { claims } : {}) }, name, {
    ...sceneOf(f).spec(name),
    adoption: { policy: 'ById', id: f.kind === 'ContainerApp' ? id : Number(id) },
    deletionPolicy: 'Delete',
  });
  s.edit((o) => {
    o.metadata.finalizers = [FINALIZER];
  });
  return s;
}

/** Another namespace's object that manages `id` (recorded in its status). */
function ownerClaims(f: KindFixture, id: string): ClaimIndex {
  const claims = new ClaimIndex();
  const owner: ManagedObject = {
    ...objectOf(f.kind, `owner-${++seq}`, {}),
    status: { [f.idField]: id },
  };
  owner.metadata.namespace = 'team-owner';
  claims.set(f.kind, owner, [{ type: f.kind, id, recorded: true }], undefined);
  return claims;
}

async function assertUntouched(t: ExecutionContext, f: KindFixture, id: string): Promise<void> {
  t.true(
    (await sceneOf(f).all()).some((r) => r.id === id),
    'the resource is still there',
  );
}

for (const f of FIXTURES) {
  test.serial(
    `${f.kind}: a tenant-written finalizer on an object never accepted deletes nothing and calls nothing`,
    async (t) => {
      const theirs = await sceneOf(f).foreign(`theirs-${++seq}`);
      const s = tenantObject(f, theirs);
      s.markDeleted();
      const mark = callCount(world);
      await s.pass();
      t.true(s.released(), 'the finalizer is gone');
      t.deepEqual(callsSince(mark), [], 'no platform call at all');
      t.true(s.env.events.some((e) => e.reason === 'ReleasedUnacceptedObject'));
      await assertUntouched(t, f, theirs);
    },
  );

  test.serial(
    `${f.kind}: a refused object (managed from another namespace) deletes nothing when deleted`,
    async (t) => {
      const theirs = await sceneOf(f).foreign(`managed-${++seq}`);
      const s = tenantObject(f, theirs, ownerClaims(f, theirs));
      await s.pass();
      t.is(s.condition('Synced')?.reason, 'AlreadyManaged');
      s.markDeleted();
      const mark = callCount(world);
      await s.pass();
      t.true(s.released());
      t.deepEqual(callsSince(mark), []);
      await assertUntouched(t, f, theirs);
    },
  );
}

test.serial('a spec claim of an object refused for its spec does not squat the resource', (t) => {
  const f = FIXTURES.find((x) => x.kind === 'ContainerRegistry')!;
  const claims = new ClaimIndex();
  const squatter: ManagedObject = {
    ...objectOf(f.kind, 'squatter', { adoption: { policy: 'ById', id: 42 } }),
    status: {
      conditions: [
        {
          type: 'Synced',
          status: 'False',
          reason: 'ReferenceNotAllowed',
          message: 'refused',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    },
  };
  squatter.metadata.namespace = 'team-b';
  squatter.metadata.creationTimestamp = '2020-01-01T00:00:00Z';
  claims.set(f.kind, squatter, [{ type: f.kind, id: '42', recorded: false }], undefined);
  const owner = objectOf(f.kind, 'owner', { adoption: { policy: 'ById', id: 42 } });
  const self = { type: f.kind, id: '42' };
  const claimant = {
    kind: f.kind,
    namespace: owner.metadata.namespace,
    name: 'owner',
    uid: 'u',
    creationTimestamp: '2026-01-01T00:00:00Z',
    recorded: false,
  };
  t.is(claims.rivalOf(claimant, self), undefined, 'the refused squatter holds nothing');
  t.is(claims.ownerOf(self, undefined), undefined);
  // Not refused (yet): its older spec claim holds, as before.
  squatter.status = {};
  claims.set(f.kind, squatter, [{ type: f.kind, id: '42', recorded: false }], undefined);
  t.is(claims.rivalOf(claimant, self)?.name, 'squatter');
});

test.serial(
  'DnsRecord: the pull zone the platform made for an accelerated record is claimed by it',
  async (t) => {
    const f = FIXTURES.find((x) => x.kind === 'DnsRecord')!;
    const zone = sceneOf(f).spec('x').dnsZoneId;
    const s = new Subject(world, { kind: 'DnsRecord' }, 'fast', {
      dnsZoneId: zone,
      type: 'A',
      name: 'fast',
      value: '192.0.2.10',
      accelerated: true,
    });
    await s.settle(6);
    const made = s.obj.status?.acceleratedPullZoneId;
    t.is(typeof made, 'number', JSON.stringify(s.obj.status));
    // The record's claims as the index holds them, as if it lived in another namespace.
    const foreignNs = (ns: string): ClaimIndex => {
      const claims = new ClaimIndex();
      const owner = { ...s.obj, metadata: { ...s.obj.metadata, namespace: ns } };
      claims.set('DnsRecord', owner, dnsRecordClaimsOf(owner as never), undefined);
      return claims;
    };
    const grab = (claims: ClaimIndex, name: string): Subject =>
      new Subject(world, { kind: 'PullZoneConfig', claims }, name, {
        adoption: { policy: 'ById', id: made },
        settings: { originUrl: 'https://o.example.com' },
      });
    const other = grab(foreignNs('team-owner'), 'grab');
    await other.pass();
    t.is(other.condition('Synced')?.reason, 'AlreadyManaged', other.condition('Synced')?.message);
    // Beside the record (same namespace) a PullZoneConfig may manage the zone's settings.
    const beside = grab(foreignNs(NS), 'beside');
    await beside.settle();
    t.true(beside.ready(), JSON.stringify(beside.obj.status?.conditions));
  },
);

test.serial(
  'ContainerApp: the pull zone the platform made for a CDN endpoint is claimed against other namespaces',
  async (t) => {
    const s = new Subject(world, { kind: 'ContainerApp' }, 'edge-app', {
      name: 'edge-app',
      autoScaling: { min: 1, max: 1 },
      containerTemplates: [
        {
          name: 'web',
          imageName: 'nginx',
          imageNamespace: 'library',
          imageTag: '1.27',
          imageRegistryId: 'dockerhub',
          endpoints: [{ displayName: 'public', cdn: { portMappings: [{ containerPort: 80 }] } }],
        },
      ],
    });
    await s.settle(6);
    const containers = (s.obj.status?.containers ?? []) as {
      endpoints: { pullZoneId?: string }[];
    }[];
    const made = containers[0]?.endpoints[0]?.pullZoneId;
    t.truthy(made, JSON.stringify(s.obj.status));
    const claims = new ClaimIndex();
    const owner = { ...s.obj, metadata: { ...s.obj.metadata, namespace: 'team-owner' } };
    claims.set(
      'ContainerApp',
      owner,
      containerAppClaimsOf({ kind: 'ContainerApp', idStatusField: 'appId' }, owner as never),
      undefined,
    );
    const grab = new Subject(world, { kind: 'PullZoneConfig', claims }, 'grab-app-zone', {
      adoption: { policy: 'ById', id: Number(made) },
      settings: { originUrl: 'https://o.example.com' },
    });
    await grab.pass();
    t.is(grab.condition('Synced')?.reason, 'AlreadyManaged', grab.condition('Synced')?.message);
  },
);

test.serial(
  'DnsRecord: two identical records whose passes overlap make one platform record (issue 53 item 4)',
  async (t) => {
    const f = FIXTURES.find((x) => x.kind === 'DnsRecord')!;
    const zone = sceneOf(f).spec('x').dnsZoneId;
    const spec = { dnsZoneId: zone, type: 'TXT', name: 'twin', value: 'same' };
    const claims = new ClaimIndex();
    const a = new Subject(world, { kind: 'DnsRecord', claims }, 'twin-a', spec);
    const b = new Subject(world, { kind: 'DnsRecord', claims }, 'twin-b', spec);
    const feed = (): void => {
      a.claimIn(claims);
      b.claimIn(claims);
    };
    feed();
    for (let round = 0; round < 3; round++) {
      await Promise.all([a.pass(), b.pass()]);
      feed();
    }
    const live = ((await world.client.getDnsZone(Number(zone))).Records ?? []).filter(
      (r) => r.Name === 'twin' && r.Value === 'same',
    );
    t.is(live.length, 1, 'one record');
    const states = [a, b].map((s) => s.condition('Synced')?.reason).sort();
    t.deepEqual(states, ['AlreadyManaged', 'ReconcileSuccess']);
    t.is(claims.creating, 0, 'no create mark left');
  },
);
