/**
 * Curated access lists of a ShieldPolicy (issue 48): `spec.curatedAccessLists` switches the
 * platform's curated lists on or off and sets their action, by the list's name, with the plan
 * check the platform applies (enabling a list above the zone's plan is held back as
 * PlanNotSufficient, the rest still written). Before, the policy never touched them
 * (docs/shieldpolicy.md said so): the spec had no such field and nothing was sent.
 *
 * The pure matching, then the external client against an in-process cdn-sim in strict mode
 * (every body checked against the official shield document; none rejected).
 */
import test, { type ExecutionContext } from 'ava';
import type { AccessListDetails, AccessListsOverview } from '../../../../src/cdn/security-types.js';
import {
  CuratedListError,
  curatedPatch,
  exportCuratedLists,
  planCuratedLists,
  planProblems,
} from '../../../../src/controllers/shieldpolicy/curated-lists.js';
import { exportShieldPolicy } from '../../../../src/controllers/shieldpolicy/export.js';
import {
  createShieldExternal,
  createShieldShared,
} from '../../../../src/controllers/shieldpolicy/external.js';
import { classifyShieldError } from '../../../../src/controllers/shieldpolicy/index.js';
import type {
  ShieldPolicy,
  ShieldPolicySpec,
} from '../../../../src/controllers/shieldpolicy/types.js';
import type { WireZone } from '../../../../src/controllers/shieldpolicy/mapping.js';
import type { ExportOptions } from '../../../../src/controllers/shared/manifest-export.js';
import type { Observation } from '../../../../src/runtime/types.js';
import { assertBodiesValid, startSimClient, type SimClient } from '../../cdn/sim-harness.js';
import { externalContext, simWriteRoutes } from '../shield-sim.js';

const CONFIG = 'PATCH /shield/shield-zone/{shieldZoneId}/access-lists/configurations/{id}';

function listOf(over: Partial<AccessListDetails>): AccessListDetails {
  return {
    listId: 1,
    configurationId: 11,
    name: 'Tor Exit Nodes',
    isEnabled: false,
    type: 0,
    action: 0,
    requiredPlan: 0,
    entryCount: 10,
    lastUpdated: '2026-01-01T00:00:00Z',
    ...over,
  };
}

const OVERVIEW: AccessListsOverview = {
  managedLists: [
    listOf({}),
    listOf({ listId: 2, configurationId: 12, name: 'VPN Providers', requiredPlan: 1 }),
    listOf({ listId: 3, configurationId: 13, name: 'Botnets', isEnabled: true, action: 2 }),
  ],
  customLists: [listOf({ listId: 9, configurationId: 19, name: 'mine' })],
};

test('entries match the curated lists by name; only differing members are planned', (t) => {
  const plan = planCuratedLists(
    [
      { name: 'Tor Exit Nodes', enabled: true, action: 'Block' },
      { name: 'botnets', action: 'Block' },
    ],
    OVERVIEW,
    'desired',
  );
  t.deepEqual(plan.problems, []);
  t.deepEqual(
    plan.matches.map((m) => [m.name, m.list.configurationId, m.target]),
    [
      ['Tor Exit Nodes', 11, { isEnabled: true, action: 2 }],
      ['botnets', 13, { action: 2 }],
    ],
    'a name differing only in case finds its list; a member left out is not managed',
  );
  t.deepEqual(plan.diffs, [
    { field: 'curatedAccessLists[Tor Exit Nodes].enabled', live: 'false', desired: 'true' },
    { field: 'curatedAccessLists[Tor Exit Nodes].action', live: 'None', desired: 'Block' },
  ]);
  const differing = new Set(plan.diffs.map((d) => d.field));
  t.deepEqual(curatedPatch(plan.matches[0]!, differing), { isEnabled: true, action: 2 });
  t.deepEqual(curatedPatch(plan.matches[1]!, differing), {}, 'in sync: nothing to send');
});

test('a name the zone does not have is a problem with a plan entry; custom lists never match', (t) => {
  const plan = planCuratedLists([{ name: 'mine', enabled: true }], OVERVIEW, 'desired');
  t.deepEqual(plan.matches, []);
  t.like(plan.problems[0], { name: 'mine', kind: 'UnknownList' });
  t.deepEqual(plan.diffs, [
    { field: 'curatedAccessLists[mine]', live: '<no such list>', desired: 'enabled: true' },
  ]);
  const err = new CuratedListError(plan.problems, 'Basic');
  t.is(err.reason, 'InvalidSpec');
  t.regex(
    err.message,
    /has no curated access list of this name \(it has: Tor Exit Nodes, VPN Providers, Botnets\)/,
  );
});

const planCases: { why: string; plan: number | undefined; entry: object; held: boolean }[] = [
  { why: 'enabling above the plan', plan: 0, entry: { enabled: true }, held: true },
  { why: 'enabling within the plan', plan: 1, entry: { enabled: true }, held: false },
  { why: 'only the action, above the plan', plan: 0, entry: { action: 'Log' }, held: false },
  { why: 'disabling above the plan', plan: 0, entry: { enabled: false }, held: false },
  {
    why: 'an unknown zone plan (the platform decides)',
    plan: undefined,
    entry: { enabled: true },
    held: false,
  },
];

for (const c of planCases) {
  test(`plan check: ${c.why}`, (t) => {
    const plan = planCuratedLists([{ name: 'VPN Providers', ...c.entry }], OVERVIEW, 'desired');
    const problems = planProblems(plan.matches, c.plan);
    t.is(problems.length, c.held ? 1 : 0);
    if (c.held)
      t.like(problems[0], { name: 'VPN Providers', kind: 'PlanNotSufficient', plan: 'Advanced' });
  });
}

test('reset targets a fresh zone (off, action None) and skips unknown names', (t) => {
  const plan = planCuratedLists(
    [
      { name: 'Botnets', enabled: true, action: 'Block' },
      { name: 'gone', enabled: true },
    ],
    OVERVIEW,
    'reset',
  );
  t.deepEqual(plan.problems, []);
  t.deepEqual(plan.matches[0]?.target, { isEnabled: false, action: 0 });
  t.is(plan.diffs.length, 2);
});

test('export writes the lists not at a fresh zone configuration, with both members', (t) => {
  t.deepEqual(exportCuratedLists(OVERVIEW), [{ name: 'Botnets', enabled: true, action: 'Block' }]);
});

// ---- against cdn-sim ----

interface Zone {
  pullZoneId: number;
  shieldZoneId: number;
}

async function seedZone(h: SimClient, planType: number): Promise<Zone> {
  const pz = (await h.admin('POST', '/_sim/seed', {
    pullZones: [{ Name: `curated-${planType}-${Math.random().toString(36).slice(2, 8)}` }],
  })) as { pullZones: number[] };
  const sz = (await h.admin('POST', '/_sim/seed', {
    shieldZones: [{ pullZoneId: pz.pullZones[0], planType }],
  })) as { shieldZones: number[] };
  return { pullZoneId: pz.pullZones[0]!, shieldZoneId: sz.shieldZones[0]! };
}

function policyOf(zone: Zone, spec: ShieldPolicySpec): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'p', namespace: 'ns', uid: `uid-${zone.pullZoneId}`, generation: 1 },
    spec: { pullZoneId: zone.pullZoneId, ...spec },
    status: { shieldZoneId: zone.shieldZoneId, pullZoneId: zone.pullZoneId },
  };
}

function externalOf(h: SimClient, zone: Zone): ReturnType<typeof createShieldExternal> {
  return createShieldExternal({
    api: h.client,
    account: 'acct',
    pullZoneId: zone.pullZoneId,
    pollIntervalMs: 600_000,
    shared: createShieldShared(),
    statusReads: false,
  });
}

/** One pass like the runtime's; the writes it made and the error update threw. */
async function pass(
  h: SimClient,
  zone: Zone,
  obj: ShieldPolicy,
): Promise<{ obs: Observation; writes: string[]; error?: unknown }> {
  const before = (await simWriteRoutes(h)).length;
  const ext = externalOf(h, zone);
  const ctx = externalContext(String(zone.shieldZoneId));
  const obs = await ext.observe(obj, ctx);
  let error: unknown;
  if (!obs.upToDate) await ext.update(obj, obs, ctx).catch((err: unknown) => (error = err));
  const writes = (await simWriteRoutes(h)).slice(before);
  return { obs, writes, ...(error === undefined ? {} : { error }) };
}

async function curatedState(h: SimClient, zone: Zone): Promise<Record<string, [boolean, number]>> {
  const overview = await h.client.listAccessLists(zone.shieldZoneId);
  return Object.fromEntries(
    (overview.managedLists ?? []).map((l) => [l.name ?? '', [l.isEnabled, l.action]]),
  );
}

function simTest(title: string, fn: (t: ExecutionContext, h: SimClient) => Promise<void>): void {
  test(title, async (t) => {
    const h = await startSimClient(t, { retry: { maxAttempts: 1 } });
    await fn(t, h);
    assertBodiesValid(t, h.sent);
    t.is(h.sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
  });
}

simTest(
  'lists are switched and set by name; a list above the plan is held back, the rest written',
  async (t, h) => {
    const zone = await seedZone(h, 0);
    const obj = policyOf(zone, {
      curatedAccessLists: [
        { name: 'Tor Exit Nodes', enabled: true, action: 'Block' },
        { name: 'VPN Providers', enabled: true, action: 'Challenge' },
        { name: 'AI Crawlers', action: 'Log' },
      ],
    });
    const first = await pass(h, zone, obj);
    t.deepEqual(
      first.writes,
      [CONFIG, CONFIG],
      'Tor Exit Nodes and AI Crawlers, not VPN Providers',
    );
    t.true(first.error instanceof CuratedListError);
    const classified = classifyShieldError(first.error);
    t.like(classified, { class: 'retryable', reason: 'PlanNotSufficient', retryAfterMs: 600_000 });
    t.regex(
      classified.message,
      /curatedAccessLists\[VPN Providers\]: the list needs the Advanced plan or higher; the zone's plan is Basic/,
    );
    const state = await curatedState(h, zone);
    t.deepEqual(state['Tor Exit Nodes'], [true, 2]);
    t.deepEqual(state['AI Crawlers'], [false, 4], 'only the action is managed');
    t.deepEqual(state['VPN Providers'], [false, 0], 'nothing sent for the held-back list');

    // The plan is raised on the dashboard: the held-back list goes at the next pass.
    await h.client.updateShieldZone({
      shieldZoneId: zone.shieldZoneId,
      shieldZone: { planType: 1 },
    });
    const second = await pass(h, zone, obj);
    t.is(second.error, undefined);
    t.deepEqual(second.writes, [CONFIG]);
    t.deepEqual((await curatedState(h, zone))['VPN Providers'], [true, 3]);

    const third = await pass(h, zone, obj);
    t.true(third.obs.upToDate, JSON.stringify(third.obs.diff));
    t.deepEqual(third.writes, [], 'in sync: no write');
  },
);

simTest(
  'drift on the platform is put back; an unknown name is InvalidSpec and blocks nothing else',
  async (t, h) => {
    const zone = await seedZone(h, 2);
    const obj = policyOf(zone, {
      learningMode: false,
      curatedAccessLists: [
        { name: 'Botnets', enabled: true, action: 'Block' },
        { name: 'Nope', enabled: true },
      ],
    });
    const first = await pass(h, zone, obj);
    t.true(first.writes.includes(CONFIG));
    t.true(
      first.writes.includes('PATCH /shield/shield-zone'),
      'the zone settings are still written',
    );
    t.like(classifyShieldError(first.error), { reason: 'InvalidSpec' });
    t.regex(
      (first.error as Error).message,
      /curatedAccessLists\[Nope\]: the zone has no curated access list of this name/,
    );

    const botnets = (await h.client.listAccessLists(zone.shieldZoneId)).managedLists?.find(
      (l) => l.name === 'Botnets',
    );
    await h.client.updateAccessListConfiguration(zone.shieldZoneId, botnets!.configurationId, {
      isEnabled: false,
    });
    const fixed = policyOf(zone, {
      curatedAccessLists: [{ name: 'Botnets', enabled: true, action: 'Block' }],
    });
    const drifted = await pass(h, zone, fixed);
    t.deepEqual(
      drifted.obs.diff.map((d) => d.field),
      ['curatedAccessLists[Botnets].enabled'],
    );
    t.deepEqual(drifted.writes, [CONFIG], 'one PATCH with the drifted member');
    t.deepEqual((await curatedState(h, zone)).Botnets, [true, 2]);
  },
);

simTest(
  'deleting under Reset puts the managed lists back to a fresh zone; export round-trips',
  async (t, h) => {
    const zone = await seedZone(h, 3);
    const obj = policyOf(zone, {
      curatedAccessLists: [
        { name: 'Tor Exit Nodes', enabled: true, action: 'Challenge' },
        { name: 'Datacenters', action: 'Log' },
      ],
    });
    await pass(h, zone, obj);

    // Export: the lists the zone configured, and nothing to change when applied back.
    const single = await h.client.getShieldZoneByPullZone(zone.pullZoneId);
    const curated = exportCuratedLists(await h.client.listAccessLists(zone.shieldZoneId));
    t.deepEqual(curated, [
      { name: 'Tor Exit Nodes', enabled: true, action: 'Challenge' },
      { name: 'Datacenters', enabled: false, action: 'Log' },
    ]);
    const options: ExportOptions = {
      namespace: 'ns',
      kinds: new Set(['ShieldPolicy']),
      deletionPolicy: 'Delete',
      account: {},
      secretEnvPattern: /SECRET/,
      customCertificates: 'omit',
    };
    const live = single as unknown as WireZone;
    const exported = exportShieldPolicy(live, undefined, zone.pullZoneId, 'p', undefined, options, {
      curatedAccessLists: curated,
    });
    const spec = (exported.manifest as { spec: ShieldPolicySpec }).spec;
    t.deepEqual(spec.curatedAccessLists, curated);
    const applied = await pass(
      h,
      zone,
      policyOf(zone, { curatedAccessLists: spec.curatedAccessLists }),
    );
    t.deepEqual(applied.obs.diff, [], 'applying the export changes nothing');

    const deleting: ShieldPolicy = {
      ...obj,
      metadata: { ...obj.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' },
    };
    const ext = externalOf(h, zone);
    await ext.delete(deleting, externalContext(String(zone.shieldZoneId)));
    const state = await curatedState(h, zone);
    t.deepEqual(state['Tor Exit Nodes'], [false, 0]);
    t.deepEqual(state.Datacenters, [false, 0]);
    const after = await ext.observe(deleting, externalContext(String(zone.shieldZoneId)));
    t.false(after.exists, 'the finalizer may go: nothing left to reset');
  },
);
