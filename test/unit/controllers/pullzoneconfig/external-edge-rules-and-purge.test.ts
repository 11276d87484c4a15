/**
 * PullZoneExternal edge rules and purge against an in-process cdn-sim: calls per pass counted
 * on the simulator, drift behind the operator's back restored with the fewest calls, a purge
 * request sent once per annotation value.
 */
import test from 'ava';
import { CdnClient } from '../../../../src/cdn/client.js';
import type { PullZoneExternal } from '../../../../src/controllers/pullzoneconfig/external.js';
import { PURGE_ANNOTATION } from '../../../../src/controllers/pullzoneconfig/purge.js';
import type {
  PullZoneConfig,
  PullZoneConfigSpec,
} from '../../../../src/controllers/pullzoneconfig/types.js';
import { startSimulator, type SimulatorHandle } from '../../../../src/simulator/server.js';
import { runPass, simExternal } from './sim-pass.js';

const API_KEY = 'pzc-edge-rules-key';
let sim: SimulatorHandle;
let ext: PullZoneExternal;

test.before(async () => {
  sim = await startSimulator({ apiKeys: [{ key: API_KEY }] });
  const client = new CdnClient({
    baseUrl: sim.url,
    credentials: API_KEY,
    retry: { maxAttempts: 1 },
  });
  ext = simExternal(client, () => new Date('2026-01-02T03:04:05Z'));
});

test.after.always(async () => {
  await sim?.close();
});

function objectOf(
  name: string,
  spec: PullZoneConfigSpec,
  annotations?: Record<string, string>,
): PullZoneConfig {
  return {
    apiVersion: 'pullzones.cdn.operator.io/v1beta1',
    kind: 'PullZoneConfig',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      ...(annotations ? { annotations } : {}),
    },
    spec: spec as PullZoneConfig['spec'],
  };
}

/** One reconcile pass like the runtime's; returns the object with merged status and the writes. */
async function pass(obj: PullZoneConfig): Promise<{ obj: PullZoneConfig; writes: string[] }> {
  const before = (await callLog()).length;
  const next = (await runPass(ext, obj)).obj;
  const writes = (await callLog())
    .slice(before)
    .filter((c) => c.method !== 'GET')
    .map((c) => c.route);
  return { obj: next, writes };
}

async function callLog(): Promise<{ route: string; method: string; path: string }[]> {
  const res = await fetch(`${sim.url}/_sim/calls`, {
    headers: { 'X-Sim-Admin-Token': sim.adminToken },
  });
  return ((await res.json()) as { log: { route: string; method: string; path: string }[] }).log;
}

const ADD = 'POST /pullzone/{pullZoneId}/edgerules/addOrUpdate';

const RULES: PullZoneConfigSpec['edgeRules'] = [
  {
    name: 'old-to-new',
    action: { type: 'Redirect', parameter1: 'https://new.example/', parameter2: '301' },
    triggers: [{ type: 'Url', patternMatches: ['*/old/*'] }],
  },
  {
    name: 'no-frames',
    action: { type: 'SetResponseHeader', parameter1: 'X-Frame-Options', parameter2: 'DENY' },
    triggerMatching: 'MatchAll',
    triggers: [{ type: 'UrlExtension', patternMatches: ['html'] }],
  },
];

function liveRules(obj: PullZoneConfig): Array<Record<string, unknown>> {
  return sim.state.pullZones.get(Number(obj.status?.pullZoneId))?.record.EdgeRules as Array<
    Record<string, unknown>
  >;
}

test.serial(
  'edge rules: created once, then zero writes; drift restored with one call each',
  async (t) => {
    let { obj } = await pass(objectOf('pzc-rules', { edgeRules: RULES }));
    const second = await pass(obj);
    t.deepEqual(second.writes, [ADD, ADD], 'one addOrUpdate per rule');
    obj = second.obj;
    const status = obj.status?.edgeRules as Array<{ name: string; guid: string }>;
    t.deepEqual(
      status.map((s) => s.name),
      ['old-to-new', 'no-frames'],
    );
    t.deepEqual(
      status.map((s) => s.guid),
      liveRules(obj).map((r) => r.Guid),
    );
    t.deepEqual((await pass(obj)).writes, [], 'in sync: zero writes');

    liveRules(obj)[0]!.ActionParameter2 = '302';
    t.deepEqual((await pass(obj)).writes, [ADD], 'changed rule: one update');
    t.is(liveRules(obj)[0]?.ActionParameter2, '301');
    t.is(liveRules(obj)[0]?.Guid, status[0]?.guid, 'updated in place, same GUID');

    liveRules(obj)[1]!.Enabled = false;
    t.deepEqual((await pass(obj)).writes, [
      'POST /pullzone/{pullZoneId}/edgerules/{edgeRuleId}/setEdgeRuleEnabled',
    ]);
    t.true(liveRules(obj)[1]?.Enabled);

    const zone = sim.state.pullZones.get(Number(obj.status?.pullZoneId));
    zone!.record.EdgeRules = liveRules(obj).slice(1);
    const restored = await pass(obj);
    t.deepEqual(restored.writes, [ADD], 'deleted rule: recreated');
    t.is(liveRules(obj).length, 2);
    t.not((restored.obj.status?.edgeRules as Array<{ guid: string }>)[0]?.guid, status[0]?.guid);
  },
);

test.serial(
  'edge rules: Additive keeps a foreign rule; dropping a created rule deletes it',
  async (t) => {
    let { obj } = await pass(objectOf('pzc-additive', { edgeRules: RULES }));
    obj = (await pass(obj)).obj;
    const zone = sim.state.pullZones.get(Number(obj.status?.pullZoneId));
    (zone!.record.EdgeRules as unknown[]).push({
      ...liveRules(obj)[0],
      Guid: 'foreign-1',
      Description: 'by hand',
    });
    obj = { ...obj, spec: { ...obj.spec, edgeRules: RULES?.slice(0, 1) } };
    const dropped = await pass(obj);
    t.deepEqual(dropped.writes, ['DELETE /pullzone/{pullZoneId}/edgerules/{edgeRuleId}']);
    t.deepEqual(
      liveRules(obj).map((r) => (r.Description === 'by hand' ? 'foreign' : 'ours')),
      ['ours', 'foreign'],
    );
    t.deepEqual((await pass(dropped.obj)).writes, []);
    const exact = {
      ...dropped.obj,
      spec: { ...dropped.obj.spec, edgeRulePolicy: 'Exact' as const },
    };
    t.deepEqual((await pass(exact)).writes, [
      'DELETE /pullzone/{pullZoneId}/edgerules/{edgeRuleId}',
    ]);
    t.is(liveRules(obj).length, 1);
  },
);

test.serial(
  'purge: once per annotation value, recorded in status; URLs and paths purged by URL',
  async (t) => {
    let { obj } = await pass(objectOf('pzc-purge', {}));
    const withAnnotation = (value: string): PullZoneConfig => ({
      ...obj,
      metadata: { ...obj.metadata, annotations: { [PURGE_ANNOTATION]: value } },
    });
    obj = withAnnotation('r1');
    const first = await pass(obj);
    t.deepEqual(first.writes, ['POST /pullzone/{id}/purgeCache']);
    t.deepEqual(first.obj.status?.purge, {
      lastRequest: 'r1',
      completionTime: '2026-01-02T03:04:05Z',
      scope: 'Zone',
      startTime: '2026-01-02T03:04:05Z',
    });
    obj = first.obj;
    t.deepEqual((await pass(obj)).writes, [], 'same request: not repeated');
    obj = {
      ...withAnnotation('r2'),
      spec: { purge: { urls: ['/img/*', 'https://other.example/a.css'] } },
      // The previous purge started over a minute ago (purge.ts: one per object per minute).
      status: { ...obj.status, purge: { ...obj.status?.purge, startTime: '2026-01-02T03:00:00Z' } },
    };
    const byUrl = await pass(obj);
    t.deepEqual(byUrl.writes, ['POST /purge', 'POST /purge']);
    const paths = (await callLog()).filter((c) => c.route === 'POST /purge').map((c) => c.path);
    t.is(paths.length, 2);
    t.like(byUrl.obj.status?.purge, { lastRequest: 'r2', scope: '2 URL(s)' });
  },
);
