/**
 * Admin API under `/_sim/` (header `X-Sim-Admin-Token` required): state dump and reset, call
 * counters, fault configuration, seeding platform state and setting shield plans and WAF
 * rule metrics.
 */
import type { CallRecorder } from './calls.js';
import { checkFaultConfig, type FaultConfig, type FaultInjector } from './faults.js';
import { Router } from './router.js';
import type { SimState } from './state.js';
import type { JsonObject, SimResponse, SimRequest } from './types.js';
import { createPullZone } from './routes/pullzone-model.js';
import { validateSettings } from './routes/pullzone-settings.js';
import { newShieldZone, PLAN_LIMITS } from './routes/shield-model.js';
import { emptyOverview } from './routes/shield.js';
import { DNS_ADMIN_ROUTES } from './dns-admin.js';

/** What the admin handlers operate on. */
export interface AdminDeps {
  state: SimState;
  calls: CallRecorder;
  faults: FaultInjector;
}

type AdminHandler = (req: SimRequest, deps: AdminDeps) => SimResponse;

function bad(message: string): SimResponse {
  return { status: 400, body: { error: message } };
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const putFaults: AdminHandler = (req, deps) => {
  const problem = checkFaultConfig(req.body);
  if (problem) return bad(problem);
  deps.faults.set(req.body as FaultConfig);
  return { status: 200, body: deps.faults.get() };
};

/** The lowercased names of every pull zone (one pass, for seeding many zones). */
function pullZoneNames(state: SimState): Set<string> {
  return new Set([...state.pullZones.values()].map((z) => String(z.record.Name).toLowerCase()));
}

function seedPullZones(items: unknown[], state: SimState): number[] {
  const taken = pullZoneNames(state);
  return items.map((item) => {
    const body = isObject(item) ? item : {};
    const problem = validateSettings(body, ['Name']);
    if (problem) throw new Error(`pullZones: ${problem.message}`);
    if (typeof body.Name !== 'string' || taken.has(body.Name.toLowerCase())) {
      throw new Error(`pullZones: Name missing or taken: ${String(body.Name)}`);
    }
    taken.add(body.Name.toLowerCase());
    return Number(createPullZone(state, body.Name, body).record.Id);
  });
}

/** Most zones one `pullZoneSeries` seeds (a large account for the bench, issue 50). */
export const MAX_SEEDED_SERIES = 1_000_000;

/**
 * `pullZoneSeries: {prefix, count, settings?}`: `count` zones named `<prefix><n>` (n from 0),
 * each with `settings`, in one call (a bench seeds 100,000 zones without 100,000 creates).
 * Answers the ids only as a range (`firstId`, `lastId`): they are consecutive.
 */
function seedPullZoneSeries(spec: unknown, state: SimState): { firstId?: number; lastId?: number } {
  if (spec === undefined) return {};
  const { prefix, count, settings } = seriesOf(spec);
  const taken = pullZoneNames(state);
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const name = `${prefix}${n}`;
    if (taken.has(name.toLowerCase())) throw new Error(`pullZoneSeries: ${name} is taken`);
    ids.push(Number(createPullZone(state, name, settings).record.Id));
  }
  return { firstId: ids[0], lastId: ids.at(-1) };
}

/** The checked `pullZoneSeries` of a seed body. */
function seriesOf(spec: unknown): { prefix: string; count: number; settings: JsonObject } {
  const s = isObject(spec) ? spec : {};
  const { prefix, count } = s;
  const settings = isObject(s.settings) ? s.settings : {};
  if (typeof prefix !== 'string' || prefix === '')
    throw new Error('pullZoneSeries: prefix is required');
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_SEEDED_SERIES)
    throw new Error(`pullZoneSeries: count must be an integer from 1 to ${MAX_SEEDED_SERIES}`);
  const problem = validateSettings({ ...settings, Name: `${prefix}0` }, ['Name']);
  if (problem) throw new Error(`pullZoneSeries: ${problem.message}`);
  return { prefix, count: count as number, settings };
}

function seedNamed(
  items: unknown[],
  state: SimState,
  kind: 'storageZone' | 'videoLibrary',
): number[] {
  return items.map((item) => {
    const name = isObject(item) ? item.Name : undefined;
    if (typeof name !== 'string' || name === '') throw new Error(`${kind}: Name is required`);
    const id = state.allocateId(kind);
    if (kind === 'storageZone') state.storageZones.set(id, { Id: id, Name: name });
    else state.videoLibraries.set(id, { Id: id, Name: name, BlockedReferrers: [] });
    return id;
  });
}

function seedShieldZones(items: unknown[], state: SimState): number[] {
  return items.map((item) => {
    const body = isObject(item) ? item : {};
    if (typeof body.pullZoneId !== 'number' || !state.pullZones.has(body.pullZoneId)) {
      throw new Error(`shieldZones: pullZoneId ${String(body.pullZoneId)} does not exist`);
    }
    const id = state.allocateId('shieldZone');
    const zone = newShieldZone(id, body.pullZoneId);
    const plan = typeof body.planType === 'number' ? body.planType : 0;
    Object.assign(zone, PLAN_LIMITS[plan] ?? PLAN_LIMITS[0], body, { shieldZoneId: id });
    state.shieldZones.set(id, zone);
    return id;
  });
}

const seed: AdminHandler = (req, deps) => {
  if (!isObject(req.body)) return bad('seed body must be an object');
  const b = req.body;
  const list = (k: string): unknown[] => (Array.isArray(b[k]) ? (b[k] as unknown[]) : []);
  try {
    const result = {
      pullZones: seedPullZones(list('pullZones'), deps.state),
      storageZones: seedNamed(list('storageZones'), deps.state, 'storageZone'),
      videoLibraries: seedNamed(list('videoLibraries'), deps.state, 'videoLibrary'),
      shieldZones: seedShieldZones(list('shieldZones'), deps.state),
      pullZoneSeries: seedPullZoneSeries(b.pullZoneSeries, deps.state),
    };
    deps.state.touch();
    return { status: 200, body: result };
  } catch (err) {
    return bad((err as Error).message);
  }
};

const METRIC_FIELDS = ['totalTriggers', 'blockedRequests', 'loggedRequests', 'challengedRequests'];

const putWafMetrics: AdminHandler = (req, deps) => {
  const zoneId = Number(req.params.shieldZoneId);
  if (!deps.state.shieldZones.has(zoneId))
    return { status: 404, body: { error: `no shield zone ${zoneId}` } };
  const body = isObject(req.body) ? req.body : {};
  const data: JsonObject = {};
  for (const f of METRIC_FIELDS) {
    if (!Number.isInteger(body[f] ?? 0)) return bad(`${f} must be an integer`);
    data[f] = body[f] ?? 0;
  }
  data.overviewPastTwentyEightDays = isObject(body.overviewPastTwentyEightDays)
    ? body.overviewPastTwentyEightDays
    : emptyOverview();
  deps.state.wafMetrics.set(`${zoneId}/${req.params.ruleId ?? ''}`, data);
  deps.state.touch();
  return { status: 200, body: data };
};

const putPlan: AdminHandler = (req, deps) => {
  const zone = deps.state.shieldZones.get(Number(req.params.shieldZoneId));
  if (!zone)
    return { status: 404, body: { error: `no shield zone ${String(req.params.shieldZoneId)}` } };
  const body = isObject(req.body) ? req.body : {};
  const plan = body.planType;
  if (typeof plan !== 'number' || !(plan in PLAN_LIMITS))
    return bad('planType must be 0, 1, 2 or 3');
  Object.assign(zone, PLAN_LIMITS[plan], { planType: plan });
  for (const f of ['rateLimitRulesLimit', 'customWafRulesLimit']) {
    if (Number.isInteger(body[f])) zone[f] = body[f];
  }
  deps.state.touch();
  return { status: 200, body: zone };
};

const getCalls: AdminHandler = (req, deps) => {
  const raw = req.query.get('since');
  if (raw === null) return { status: 200, body: deps.calls.snapshot() };
  const since = Number(raw);
  if (!Number.isFinite(since)) return bad('since must be a time in ms since the epoch');
  return { status: 200, body: deps.calls.snapshot(since) };
};

interface AdminRoute {
  method: string;
  template: string;
  handler: AdminHandler;
}

function route(method: string, template: string, handler: AdminHandler): AdminRoute {
  return { method, template, handler };
}

const ADMIN_ROUTES: AdminRoute[] = [
  route('GET', '/_sim/state', (_r, d) => ({ status: 200, body: d.state.snapshot() })),
  route('POST', '/_sim/reset', (_r, d) => (d.state.reset(), { status: 204 })),
  route('GET', '/_sim/calls', getCalls),
  route('DELETE', '/_sim/calls', (_r, d) => (d.calls.reset(), { status: 204 })),
  route('GET', '/_sim/faults', (_r, d) => ({ status: 200, body: d.faults.get() })),
  route('PUT', '/_sim/faults', putFaults),
  route('POST', '/_sim/seed', seed),
  route('PUT', '/_sim/shield-zones/{shieldZoneId}/waf-rules/{ruleId}/metrics', putWafMetrics),
  route('PUT', '/_sim/shield-zones/{shieldZoneId}/plan', putPlan),
  ...DNS_ADMIN_ROUTES,
];

const adminRouter = new Router(ADMIN_ROUTES);

/** Handles one authenticated admin request. */
export function handleAdmin(req: SimRequest, deps: AdminDeps): SimResponse {
  const match = adminRouter.match(req.method, req.path);
  if (match.kind === 'not-found')
    return { status: 404, body: { error: `no admin route ${req.path}` } };
  if (match.kind === 'method-not-allowed') {
    return {
      status: 405,
      body: { error: 'method not allowed' },
      headers: { allow: match.allow.join(', ') },
    };
  }
  return match.route.handler({ ...req, params: match.params }, deps);
}
