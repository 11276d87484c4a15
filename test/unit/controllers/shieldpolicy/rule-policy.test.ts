/**
 * `spec.rulePolicy` of the ShieldPolicy external client against an in-process cdn-sim (strict),
 * with a real claim index fed by rule objects the way the manager feeds it: under `Exact` one
 * pass deletes exactly the custom WAF rules, rate limits and custom lists no object claims (one
 * DELETE each, an Event each, status.deletedRules), never a curated list, never a rule whose
 * create is in flight or whose object re-creates it, and the next pass writes nothing; under
 * `Additive` nothing more is even read; a refused deletion is reported and retried slowly while
 * the others go; without a claim index nothing is deleted.
 */
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import { CdnApiError } from '../../../../src/cdn/errors.js';
import { classifyShieldError } from '../../../../src/controllers/shieldpolicy/index.js';
import {
  createShieldExternal,
  createShieldShared,
  type ShieldApi,
} from '../../../../src/controllers/shieldpolicy/external.js';
import type {
  ShieldPolicy,
  ShieldPolicySpec,
} from '../../../../src/controllers/shieldpolicy/types.js';
import {
  ZONED_CLAIM_KINDS,
  zonedClaimsOf,
} from '../../../../src/controllers/shieldrule-common/rule-claims.js';
import type { ZonedObject } from '../../../../src/controllers/shieldrule-common/zone.js';
import { ClaimIndex } from '../../../../src/runtime/claims.js';
import { claimantsOfFn } from '../../../../src/runtime/claims-policy.js';
import type {
  ExternalContext,
  KindEvent,
  ManagedKind,
  Observation,
} from '../../../../src/runtime/types.js';
import { startSimClient, type SimClient } from '../../cdn/sim-harness.js';
import { RATE_LIMIT_FAMILY } from '../../../../src/controllers/shieldratelimit/family.js';
import { WAF_RULE_FAMILY } from '../../../../src/controllers/shieldwafrule/family.js';
import { desiredConfiguration, RATE_SPEC, WAF_SPEC } from '../../../support/shield-rule-specs.js';
import { seedShieldZone, simWriteRoutes } from '../shield-sim.js';
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';

const log = pino({ level: 'silent' });
const POLL_MS = 600_000;
const NS = 'shop';
const WAF = desiredConfiguration(WAF_RULE_FAMILY.members, WAF_SPEC);
const RATE = desiredConfiguration(RATE_LIMIT_FAMILY.members, RATE_SPEC);
const LIST_BASE = '/shield/shield-zone/{shieldZoneId}/access-lists';

interface World {
  h: SimClient;
  zone: number;
  pullZoneId: number;
  index: ClaimIndex;
  events: KindEvent[];
}

async function world(t: ExecutionContext): Promise<World> {
  const h = await startSimClient(t, { retry: { maxAttempts: 1 } });
  const zone = await seedShieldZone(h, 3);
  const pullZoneId = (await h.client.getShieldZone(zone)).pullZoneId as number;
  return { h, zone, pullZoneId, index: new ClaimIndex(), events: [] };
}

/** A rule object of `kind` on the policy `pol`, with the id its status records (if any). */
function ruleObject(kind: string, name: string, status?: Record<string, unknown>): ZonedObject {
  return {
    apiVersion: apiVersionOfKind(kind),
    kind,
    metadata: {
      name,
      namespace: NS,
      uid: `uid-${name}`,
      creationTimestamp: '2030-01-01T00:00:00Z',
    },
    spec: { shieldPolicyRef: { name: 'pol' } },
    ...(status ? { status } : {}),
  };
}

/** Puts the object's claims in the index, as the manager does from its informers. */
function index(w: World, obj: ZonedObject): void {
  const k = ZONED_CLAIM_KINDS.find((c) => c.kind === obj.kind)!;
  w.index.set(obj.kind, obj, zonedClaimsOf(k, obj), undefined);
}

function policy(w: World, spec: Partial<ShieldPolicySpec>): ShieldPolicy {
  return {
    apiVersion: 'shield.cdn.operator.io/v1beta1',
    kind: 'ShieldPolicy',
    metadata: { name: 'pol', namespace: NS, uid: 'uid-pol', generation: 1 },
    spec: { pullZoneId: w.pullZoneId, ...spec },
    status: { shieldZoneId: w.zone, pullZoneId: w.pullZoneId },
  };
}

function ctxFor(w: World, obj: ShieldPolicy, withIndex = true): ExternalContext {
  const claimantsOf = claimantsOfFn(w.index, { kind: 'ShieldPolicy' } as ManagedKind, obj);
  return {
    externalId: String(w.zone),
    createPending: false,
    log,
    signal: new AbortController().signal,
    ...(withIndex && claimantsOf ? { claimantsOf } : {}),
    recordEvent: (e) => w.events.push(e),
  };
}

/** One pass (observe, update when something differs), status merged; the observation. */
async function pass(
  w: World,
  obj: ShieldPolicy,
  api: ShieldApi = w.h.client,
  withIndex = true,
): Promise<Observation> {
  const external = createShieldExternal({
    api,
    account: 'acct',
    pullZoneId: w.pullZoneId,
    pollIntervalMs: POLL_MS,
    shared: createShieldShared({ now: () => new Date('2030-06-01T00:00:00Z') }),
  });
  const ctx = ctxFor(w, obj, withIndex);
  const obs = await external.observe(obj, ctx);
  obj.status = { ...obj.status, ...obs.status };
  if (!obs.upToDate) {
    const res = await external.update(obj, obs, ctx);
    obj.status = { ...obj.status, ...(res ? res.status : {}) };
  }
  return obs;
}

/** One item of each family, named `prefix-*`; their ids. */
async function seedItems(
  w: World,
  prefix: string,
): Promise<{ waf: number; rate: number; list: number }> {
  const c = w.h.client;
  const waf = await c.createCustomWafRule({
    shieldZoneId: w.zone,
    ruleName: `${prefix}-waf`,
    ruleConfiguration: WAF,
  });
  const rate = await c.createRateLimit({
    shieldZoneId: w.zone,
    ruleName: `${prefix}-rate`,
    ruleConfiguration: RATE,
  });
  const list = await c.createCustomAccessList(w.zone, {
    name: `${prefix}-list`,
    type: 0,
    content: '192.0.2.1',
  });
  return { waf: Number(waf.id), rate: Number(rate.id), list: Number(list.id) };
}

async function liveIds(
  w: World,
): Promise<{ waf: number[]; rate: number[]; custom: number[]; curated: number }> {
  const c = w.h.client;
  const overview = await c.listAccessLists(w.zone);
  return {
    waf: (await c.listCustomWafRules(w.zone)).map((r) => Number(r.id)).sort(),
    rate: (await c.listRateLimits(w.zone)).map((r) => Number(r.id)).sort(),
    custom: (overview.customLists ?? []).map((l) => l.listId).sort(),
    curated: (overview.managedLists ?? []).length,
  };
}

/** The managed items: one object of each kind recording its id. */
function manage(w: World, ids: { waf: number; rate: number; list: number }): void {
  index(w, ruleObject('ShieldWafRule', 'managed-waf', { ruleId: ids.waf }));
  index(w, ruleObject('ShieldRateLimit', 'managed-rate', { ruleId: ids.rate }));
  index(w, ruleObject('ShieldAccessList', 'managed-list', { listId: ids.list }));
}

test('Exact: one pass deletes exactly the unmanaged items, one DELETE and one Event each; then nothing', async (t) => {
  const w = await world(t);
  const managed = await seedItems(w, 'managed');
  const stray = await seedItems(w, 'stray');
  manage(w, managed);
  // A create in flight: the rule exists, its object has no id recorded yet (only its name claim).
  const inFlight = await w.h.client.createCustomWafRule({
    shieldZoneId: w.zone,
    ruleName: 'in-flight',
    ruleConfiguration: WAF,
  });
  index(w, ruleObject('ShieldWafRule', 'in-flight'));
  // An object re-creating its rule (the recorded one was deleted outside): the new one stays.
  const again = await w.h.client.createRateLimit({
    shieldZoneId: w.zone,
    ruleName: 'again',
    ruleConfiguration: RATE,
  });
  index(w, ruleObject('ShieldRateLimit', 'again', { ruleId: 999_999 }));
  const curatedBefore = (await liveIds(w)).curated;
  t.true(curatedBefore > 0, 'the zone has curated lists');
  await w.h.admin('DELETE', '/_sim/calls');

  const obj = policy(w, { rulePolicy: 'Exact' });
  const first = await pass(w, obj);
  t.deepEqual(
    first.diff.map((d) => d.field),
    [
      `customWafRules[${stray.waf} "stray-waf"]`,
      `rateLimits[${stray.rate} "stray-rate"]`,
      `accessLists[${stray.list} "stray-list"]`,
    ],
  );
  t.deepEqual(await simWriteRoutes(w.h), [
    'DELETE /shield/waf/custom-rule/{id}',
    'DELETE /shield/rate-limit/{id}',
    `DELETE ${LIST_BASE}/{id}`,
  ]);
  const live = await liveIds(w);
  t.deepEqual(live.waf, [managed.waf, Number(inFlight.id)].sort());
  t.deepEqual(live.rate, [managed.rate, Number(again.id)].sort());
  t.deepEqual(live.custom, [managed.list]);
  t.is(live.curated, curatedBefore, 'curated lists untouched');
  t.deepEqual(
    w.events.map((e) => `${e.reason} ${e.message}`),
    [
      `DeletedUnmanagedRule Deleted custom WAF rule ${stray.waf} "stray-waf" from shield zone ${w.zone}: no ShieldWafRule manages it (spec.rulePolicy Exact)`,
      `DeletedUnmanagedRule Deleted rate limit ${stray.rate} "stray-rate" from shield zone ${w.zone}: no ShieldRateLimit manages it (spec.rulePolicy Exact)`,
      `DeletedUnmanagedRule Deleted custom access list ${stray.list} "stray-list" from shield zone ${w.zone}: no ShieldAccessList manages it (spec.rulePolicy Exact)`,
    ],
  );
  t.deepEqual(obj.status?.deletedRules, [
    {
      type: 'CustomAccessList',
      id: stray.list,
      name: 'stray-list',
      deletionTime: '2030-06-01T00:00:00.000Z',
    },
    {
      type: 'RateLimit',
      id: stray.rate,
      name: 'stray-rate',
      deletionTime: '2030-06-01T00:00:00.000Z',
    },
    {
      type: 'CustomWafRule',
      id: stray.waf,
      name: 'stray-waf',
      deletionTime: '2030-06-01T00:00:00.000Z',
    },
  ]);

  await w.h.admin('DELETE', '/_sim/calls');
  const second = await pass(w, obj);
  t.true(second.upToDate, JSON.stringify(second.diff));
  t.deepEqual(await simWriteRoutes(w.h), [], 'no write once the zone holds only managed items');
  t.is(w.h.sim.calls.snapshot().rejectedByDocument.count, 0, 'nothing rejected by the documents');
});

test('Additive (the default): nothing more is read, nothing deleted', async (t) => {
  const w = await world(t);
  await seedItems(w, 'stray');
  await w.h.admin('DELETE', '/_sim/calls');
  for (const spec of [{}, { rulePolicy: 'Additive' as const }]) {
    const obs = await pass(w, policy(w, spec));
    t.true(obs.upToDate, JSON.stringify(obs.diff));
  }
  const calls = (await w.h.admin('GET', '/_sim/calls')) as { log: { route: string }[] };
  const routes = calls.log.map((c) => c.route);
  t.false(
    routes.some((r) => /custom-rules|rate-limits|access-lists/.test(r)),
    `no listing read: ${routes.join(', ')}`,
  );
  t.deepEqual(await simWriteRoutes(w.h), []);
  const live = await liveIds(w);
  t.is(live.waf.length + live.rate.length + live.custom.length, 3);
});

test('Exact: a refused deletion (403) is RuleDeleteRefused, retried per poll interval; the others go', async (t) => {
  const w = await world(t);
  const stray = await seedItems(w, 'stray');
  const refuse = (): Promise<void> =>
    Promise.reject(
      new CdnApiError({
        operation: 'deleteRateLimit',
        kind: 'unauthorized',
        message: 'your plan does not allow this',
        status: 403,
      }),
    );
  // The client with its rate limit deletions refused (its methods bound: private fields).
  const refusing = new Proxy(w.h.client, {
    get(target, prop): unknown {
      if (prop === 'deleteRateLimit') return refuse;
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as ShieldApi;
  const obj = policy(w, { rulePolicy: 'Exact' });
  const err = await t.throwsAsync(pass(w, obj, refusing));
  const c = classifyShieldError(err);
  t.like(c, { class: 'retryable', reason: 'RuleDeleteRefused', retryAfterMs: POLL_MS });
  t.regex(
    c.message,
    new RegExp(`^cannot delete rate limit ${stray.rate} "stray-rate" \\(403: your plan`),
  );
  const live = await liveIds(w);
  t.deepEqual(live.rate, [stray.rate], 'the refused one stays');
  t.deepEqual(live.waf, [], 'the others were deleted');
  t.deepEqual(live.custom, []);
  t.is(w.events.length, 2, 'an Event for each deletion made before the refusal was reported');
});

test('Exact without a claim index deletes nothing (it could not tell managed from unmanaged)', async (t) => {
  const w = await world(t);
  await seedItems(w, 'stray');
  await w.h.admin('DELETE', '/_sim/calls');
  await t.throwsAsync(pass(w, policy(w, { rulePolicy: 'Exact' }), w.h.client, false), {
    message: /claim index/,
  });
  t.deepEqual(await simWriteRoutes(w.h), []);
});

test('Exact: an item claimed between observe and update (adopted meanwhile) is not deleted', async (t) => {
  const w = await world(t);
  const stray = await seedItems(w, 'stray');
  const obj = policy(w, { rulePolicy: 'Exact' });
  const external = createShieldExternal({
    api: w.h.client,
    account: 'acct',
    pullZoneId: w.pullZoneId,
    pollIntervalMs: POLL_MS,
    shared: createShieldShared(),
  });
  const ctx = ctxFor(w, obj);
  const obs = await external.observe(obj, ctx);
  t.is(obs.diff.length, 3, 'all three planned');
  // A ShieldWafRule adopting the rule by id is applied while the pass runs.
  const adopter = ruleObject('ShieldWafRule', 'adopter');
  index(w, {
    ...adopter,
    spec: { shieldZoneId: w.zone, adoption: { policy: 'ById', id: stray.waf } },
  });
  await w.h.admin('DELETE', '/_sim/calls');
  await external.update(obj, obs, ctx);
  t.deepEqual(await simWriteRoutes(w.h), [
    'DELETE /shield/rate-limit/{id}',
    `DELETE ${LIST_BASE}/{id}`,
  ]);
  t.deepEqual((await liveIds(w)).waf, [stray.waf]);
});
