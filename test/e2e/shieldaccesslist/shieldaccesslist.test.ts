/**
 * ShieldAccessList end to end, on the real kube-apiserver, the real operator process and cdn-sim
 * (strict), with two tenant namespaces (tenancy/setup.ts): lists made outside Kubernetes
 * exported and applied with zero platform writes and `cdnctl diff` clean; create through a
 * ShieldPolicy reference (waiting first) as exactly the POST and the configuration PATCH; one
 * list PATCH per entry change, none for a reorder, one configuration PATCH per action change;
 * drift restored; adoption by id and by name with zero writes; another namespace refused team-a's
 * zone by id and team-a's list by id with zero writes; the plan's limits and a malformed entry
 * refused before anything is sent; deletion; and nothing cdn-sim rejected by the documents.
 */
import test from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { accessListEntries } from '../../../src/cdn/shield-access-lists.js';
import type { AccessListDetails, CustomAccessList } from '../../../src/cdn/security-types.js';
import { crdNameOf } from '../../../src/controllers/kind-names.js';
import { SHIELD_ACCESS_LIST_NAMES } from '../../../src/controllers/shieldaccesslist/types.js';
import { SHIELD_POLICY_NAMES } from '../../../src/controllers/shieldpolicy/types.js';
import { runCdnctl, type CdnctlResult } from '../support/cdnctl.js';
import { apply, deleteObject, kubectl, waitFor, type KubeJson } from '../support/kube.js';
import {
  adoptShieldPolicy,
  pollingManifest,
  seedShieldZone,
  type SeededZone,
} from '../support/shield-zones.js';
import {
  API_KEY,
  resetCalls,
  settle,
  simWrites,
  startTenancyEnv,
  waitCondition,
  waitGone,
  type TenancyEnv,
} from '../tenancy/setup.js';

const KIND = SHIELD_ACCESS_LIST_NAMES.kind;
const RES = crdNameOf(SHIELD_ACCESS_LIST_NAMES);
const SHP = crdNameOf(SHIELD_POLICY_NAMES);
const BASE = '/shield/shield-zone/{shieldZoneId}/access-lists';

let env: TenancyEnv;
let zoneCount = 0;

test.before(async () => {
  env = await startTenancyEnv();
});

test.after.always(async () => {
  await env?.stop();
});

function seedZone(planType: number): Promise<SeededZone> {
  return seedShieldZone(env.sim, `e2e-sal-${++zoneCount}`, planType);
}

function cdnctl(args: string[]): Promise<CdnctlResult> {
  return runCdnctl(env.sim.url, API_KEY, args);
}

async function writeRoutes(): Promise<string[]> {
  return (await simWrites(env.sim)).map((c) => c.route);
}

/** The live list and its configuration. */
async function live(
  zone: number,
  id: number,
): Promise<{ list: CustomAccessList; details: AccessListDetails }> {
  const list = await env.cdn.getCustomAccessList(zone, id);
  const overview = await env.cdn.listAccessLists(zone);
  const details = (overview.customLists ?? []).find((l) => l.listId === id);
  if (!details) throw new Error(`list ${id} is not in the listing of zone ${zone}`);
  return { list, details };
}

/** A list made outside Kubernetes, configured. */
async function outsideList(
  zone: number,
  name: string,
  entries: string[],
  config: { isEnabled: boolean; action: 0 | 1 | 2 | 3 | 4 | 5 },
): Promise<number> {
  const list = await env.cdn.createCustomAccessList(zone, {
    name,
    type: 1,
    content: entries.join('\n'),
  });
  const { details } = await live(zone, list.id);
  await env.cdn.updateAccessListConfiguration(zone, details.configurationId, config);
  return list.id;
}

const SPEC = { type: 'CIDR', entries: ['198.51.100.0/24', '203.0.113.0/25'], action: 'Block' };

let teamAZone: SeededZone | undefined;
/** Team-a's zone (Enterprise plan) with its ShieldPolicy `pol`. */
async function teamA(): Promise<SeededZone> {
  if (teamAZone) return teamAZone;
  const zone = await seedZone(3);
  const recorded = await adoptShieldPolicy(env.teamA, 'pol', zone.pullZoneId);
  if (recorded !== zone.shieldZoneId) throw new Error(`policy zone ${recorded}`);
  teamAZone = zone;
  return zone;
}

async function listObjects(ns: string): Promise<KubeJson[]> {
  return (JSON.parse(await kubectl(['get', RES, '-n', ns, '-o', 'json'])) as { items: KubeJson[] })
    .items;
}

test.serial(
  'lists made outside, exported, applied: Ready with zero writes; diff clean',
  async (t) => {
    t.timeout(5 * 60_000);
    const zone = await seedZone(3);
    const a = await outsideList(
      zone.shieldZoneId,
      'Outside Ranges',
      ['192.0.2.0/24', '2001:db8::/32'],
      {
        isEnabled: true,
        action: 3,
      },
    );
    const b = await outsideList(zone.shieldZoneId, 'outside-off', ['198.51.100.7/32'], {
      isEnabled: false,
      action: 0,
    });
    const dir = mkdtempSync(join(tmpdir(), 'export-sal-'));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const out = await cdnctl([
      'export',
      '-n',
      env.teamA,
      '--kinds',
      `ShieldPolicy,${KIND}`,
      '-o',
      dir,
    ]);
    t.is(out.code, 0, out.stderr);
    t.true(readdirSync(dir).some((f) => f.endsWith('.yaml')));
    await resetCalls(env.sim);
    await kubectl(['apply', '-f', dir]);
    for (const id of [a, b]) {
      await waitFor(
        async () => {
          const obj = (await listObjects(env.teamA)).find((o) => o.status?.listId === id);
          return obj?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
            ? obj
            : undefined;
        },
        60_000,
        `${KIND} with listId ${id} Ready`,
      );
    }
    const objs = await listObjects(env.teamA);
    const first = objs.find((o) => o.status?.listId === a);
    t.like(first?.spec, {
      name: 'Outside Ranges',
      type: 'CIDR',
      action: 'Challenge',
      enabled: true,
    });
    t.deepEqual((first?.spec as { entries?: string[] }).entries, ['192.0.2.0/24', '2001:db8::/32']);
    t.truthy(
      (first?.spec as { shieldPolicyRef?: unknown }).shieldPolicyRef,
      'names the exported policy',
    );
    t.like(objs.find((o) => o.status?.listId === b)?.spec, { enabled: false });
    await settle(6000); // one more poll interval: still nothing to write
    t.deepEqual(await writeRoutes(), [], 'zero platform writes after applying the export');
    const diff = await cdnctl(['diff', '-f', dir]);
    t.is(diff.code, 0, `${diff.stdout}\n${diff.stderr}`);
    await kubectl(['delete', RES, '--all', '-n', env.teamA, '--wait=true', '--timeout=60s']);
    await kubectl(['delete', SHP, '--all', '-n', env.teamA, '--wait=true', '--timeout=60s']);
    t.is((await env.cdn.listAccessLists(zone.shieldZoneId)).customLists?.length, 2, 'orphaned');
  },
);

test.serial(
  'waits for its ShieldPolicy; create = POST + its rename + configuration PATCH; one PATCH per change; drift restored; deleted',
  async (t) => {
    t.timeout(4 * 60_000);
    const ns = env.teamA;
    await apply(pollingManifest(KIND, ns, 'l1', { ...SPEC, shieldPolicyRef: { name: 'pol' } }));
    await waitCondition(RES, ns, 'l1', 'Ready', 'False', 'ReferenceNotReady');
    await resetCalls(env.sim);
    const zone = await teamA();
    const obj = await waitCondition(RES, ns, 'l1', 'Ready', 'True');
    const id = Number(obj.status?.listId);
    const z = zone.shieldZoneId;
    t.like(obj.status, { shieldZoneId: z, entryCount: 2, name: 'l1' });
    t.is(typeof obj.status?.configurationId, 'number');
    // The create goes out under the provisional name; the same pass renames it (docs/kit.md).
    t.deepEqual(await writeRoutes(), [
      `POST ${BASE}`,
      `PATCH ${BASE}/{id}`,
      `PATCH ${BASE}/configurations/{id}`,
    ]);
    const first = await live(z, id);
    t.like(first.details, { isEnabled: true, action: 2, name: 'l1', type: 1 });

    // Entries changed: one list PATCH.
    await resetCalls(env.sim);
    const entries = ['198.51.100.0/24', '203.0.113.128/25', '2001:db8:dead::/48'];
    await apply(
      pollingManifest(KIND, ns, 'l1', { ...SPEC, entries, shieldPolicyRef: { name: 'pol' } }),
    );
    await waitFor(
      async () => (await live(z, id)).list.entryCount === 3,
      30_000,
      'entries replaced',
    );
    await waitCondition(RES, ns, 'l1', 'Ready', 'True');
    await settle(1000);
    t.deepEqual(await writeRoutes(), [`PATCH ${BASE}/{id}`]);
    t.deepEqual(accessListEntries((await live(z, id)).list.content), entries);

    // Reordered only: the same set, nothing sent.
    await resetCalls(env.sim);
    await apply(
      pollingManifest(KIND, ns, 'l1', {
        ...SPEC,
        entries: [...entries].reverse(),
        shieldPolicyRef: { name: 'pol' },
      }),
    );
    await waitCondition(RES, ns, 'l1', 'Ready', 'True');
    await settle(6000);
    t.deepEqual(await writeRoutes(), [], 'a reorder is not a change');

    // Action changed: one configuration PATCH.
    await resetCalls(env.sim);
    await apply(
      pollingManifest(KIND, ns, 'l1', {
        ...SPEC,
        entries,
        action: 'Challenge',
        shieldPolicyRef: { name: 'pol' },
      }),
    );
    await waitFor(async () => (await live(z, id)).details.action === 3, 30_000, 'action');
    await waitCondition(RES, ns, 'l1', 'Ready', 'True');
    await settle(1000);
    t.deepEqual(await writeRoutes(), [`PATCH ${BASE}/configurations/{id}`]);

    // Drift on the platform: renamed, an entry added, disabled; restored at the next poll.
    const now = await live(z, id);
    await env.cdn.updateCustomAccessList(z, id, {
      name: 'hijacked',
      content: `${now.list.content ?? ''}\n192.0.2.1/32`,
    });
    await env.cdn.updateAccessListConfiguration(z, now.details.configurationId, {
      isEnabled: false,
    });
    await waitFor(
      async () => {
        const back = await live(z, id);
        return (
          back.list.name === 'l1' &&
          back.list.entryCount === 3 &&
          back.details.isEnabled &&
          back.details.action === 3
        );
      },
      30_000,
      'drift restored',
    );

    await resetCalls(env.sim);
    await deleteObject(RES, ns, 'l1');
    await waitGone(RES, ns, 'l1');
    t.deepEqual(await writeRoutes(), [`DELETE ${BASE}/{id}`]);
    await t.throwsAsync(env.cdn.getCustomAccessList(z, id));
  },
);

test.serial('adoption by id and by name: zero writes when equal; Orphan by default', async (t) => {
  const ns = env.teamA;
  const zone = await teamA();
  const z = zone.shieldZoneId;
  const byId = await outsideList(z, 'ext-id', SPEC.entries, { isEnabled: true, action: 2 });
  const byName = await outsideList(z, 'Ext-Name', [...SPEC.entries].reverse(), {
    isEnabled: true,
    action: 2,
  });
  await resetCalls(env.sim);
  await apply(
    pollingManifest(KIND, ns, 'adopt-id', {
      ...SPEC,
      shieldZoneId: z,
      adoption: { policy: 'ById', id: byId },
    }),
  );
  await apply(
    pollingManifest(KIND, ns, 'adopt-name', {
      ...SPEC,
      shieldPolicyRef: { name: 'pol' },
      name: 'Ext-Name',
      adoption: { policy: 'ByName' },
    }),
  );
  const a = await waitCondition(RES, ns, 'adopt-id', 'Ready', 'True');
  const b = await waitCondition(RES, ns, 'adopt-name', 'Ready', 'True');
  t.is(a.status?.listId, byId);
  t.is(b.status?.listId, byName);
  t.like(a.status?.ownership, { adopted: true, deletionPolicy: 'Orphan' });
  t.like(a.status, { name: 'ext-id' }, 'adopted by id without spec.name: its name is kept');
  await settle(6000);
  t.deepEqual(await writeRoutes(), [], 'nothing sent for equal lists');

  await deleteObject(RES, ns, 'adopt-id');
  await deleteObject(RES, ns, 'adopt-name');
  await waitGone(RES, ns, 'adopt-id');
  await waitGone(RES, ns, 'adopt-name');
  t.truthy(await env.cdn.getCustomAccessList(z, byId), 'an adopted list is orphaned by default');
  t.truthy(await env.cdn.getCustomAccessList(z, byName));
  t.deepEqual(await writeRoutes(), []);
});

test.serial(
  "another namespace cannot use team-a's zone by id, nor take team-a's list: zero writes",
  async (t) => {
    const zone = await teamA();
    await apply(
      pollingManifest(KIND, env.teamA, 'owned', { ...SPEC, shieldPolicyRef: { name: 'pol' } }),
    );
    const owned = await waitCondition(RES, env.teamA, 'owned', 'Ready', 'True');
    const other = await seedZone(3);
    await settle(1000);
    await resetCalls(env.sim);
    await apply(
      pollingManifest(KIND, env.teamB, 'thief-zone', { ...SPEC, shieldZoneId: zone.shieldZoneId }),
    );
    await apply(
      pollingManifest(KIND, env.teamB, 'thief-list', {
        ...SPEC,
        shieldZoneId: other.shieldZoneId,
        adoption: { policy: 'ById', id: owned.status?.listId },
      }),
    );
    const z = await waitCondition(
      RES,
      env.teamB,
      'thief-zone',
      'Synced',
      'False',
      'ReferenceNotAllowed',
    );
    const msg = JSON.stringify(z.status?.conditions);
    t.true(msg.includes('spec.shieldZoneId') && msg.includes(`namespace ${env.teamA}`), msg);
    await waitCondition(RES, env.teamB, 'thief-list', 'Synced', 'False', 'AlreadyManaged');
    await settle(3000);
    t.deepEqual(await simWrites(env.sim), [], 'nothing sent for either');
    const names = (await env.cdn.listAccessLists(zone.shieldZoneId)).customLists?.map(
      (l) => l.name,
    );
    t.false(names?.includes('thief-zone'));
    for (const name of ['thief-zone', 'thief-list']) await deleteObject(RES, env.teamB, name);
    await deleteObject(RES, env.teamA, 'owned');
    await waitGone(RES, env.teamA, 'owned');
  },
);

test.serial(
  "the plan's limits and a malformed entry are refused before anything is sent; a fix is picked up",
  async (t) => {
    const basic = await seedZone(0); // cdn-sim: 5 custom lists, 1000 entries on Basic
    const ns = env.teamA;
    const many = Array.from({ length: 1001 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    await resetCalls(env.sim);
    await apply(
      pollingManifest(KIND, ns, 'too-many', {
        ...SPEC,
        entries: many,
        shieldZoneId: basic.shieldZoneId,
      }),
    );
    const refused = await waitCondition(
      RES,
      ns,
      'too-many',
      'Synced',
      'False',
      'PlanNotSufficient',
    );
    t.regex(JSON.stringify(refused.status?.conditions), /customEntryLimit/);
    await apply(
      pollingManifest(KIND, ns, 'bad-entry', {
        ...SPEC,
        entries: ['198.51.100.0/24', '300.1.2.0/24'],
        shieldZoneId: basic.shieldZoneId,
      }),
    );
    const bad = await waitCondition(RES, ns, 'bad-entry', 'Synced', 'False', 'InvalidSpec');
    t.regex(JSON.stringify(bad.status?.conditions), /spec\.entries\[1\]/);
    await settle(8000);
    t.deepEqual(await writeRoutes(), [], 'nothing sent, no loop');

    // Fewer entries: picked up at once (a spec change), created.
    await apply(
      pollingManifest(KIND, ns, 'too-many', {
        ...SPEC,
        entries: many.slice(0, 999),
        shieldZoneId: basic.shieldZoneId,
      }),
    );
    const ok = await waitCondition(RES, ns, 'too-many', 'Ready', 'True');
    t.is(ok.status?.entryCount, 999);

    // Growing it past the limit: refused before the PATCH; the live list is untouched.
    await resetCalls(env.sim);
    await apply(
      pollingManifest(KIND, ns, 'too-many', {
        ...SPEC,
        entries: many,
        shieldZoneId: basic.shieldZoneId,
      }),
    );
    await waitCondition(RES, ns, 'too-many', 'Synced', 'False', 'PlanNotSufficient');
    await settle(3000);
    t.deepEqual(await writeRoutes(), []);
    t.is(
      (await env.cdn.getCustomAccessList(basic.shieldZoneId, Number(ok.status?.listId))).entryCount,
      999,
    );

    for (const name of ['too-many', 'bad-entry']) await deleteObject(RES, ns, name);
    for (const name of ['too-many', 'bad-entry']) await waitGone(RES, ns, name);
  },
);

test.serial('nothing was rejected by the official documents', (t) => {
  const rejected = env.sim.calls.snapshot().rejectedByDocument;
  t.is(rejected.count, 0, JSON.stringify(rejected));
});
