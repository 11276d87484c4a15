/**
 * The ShieldPolicy external client: observe / create / update / reset of the shield zone of one
 * pull zone, bound to one account's API client.
 *
 * - observe: `GET /shield/shield-zone/get-by-pullzone/{id}` plus the zone's entry in the
 *   account's fleet cache (list-only members), then the WAF rule metrics and the triggered
 *   rules waiting for review when due (once per poll interval).
 * - create: `POST /shield/shield-zone` with the desired settings except those counted against a
 *   plan limit and the managed-rule override lists (they need the zone's limits and rules,
 *   known only once it exists; the next pass applies them).
 * - update: one `PATCH /shield/shield-zone` with only the differing fields; override lists
 *   that would add a rule the zone does not have are held back (rule-overrides.ts).
 * - `spec.curatedAccessLists`: observe reads the zone's access lists (one GET, only when the spec
 *   names a curated list); update sends one PATCH per list configuration that differs, holding
 *   back a list the zone's plan does not include (curated-lists.ts).
 * - `spec.rulePolicy: Exact`: observe also lists the zone's custom WAF rules, rate limits and
 *   custom access lists and plans the deletion of those no object manages (rule-sweep.ts);
 *   update deletes them (rule-sweep-sync.ts). Additive reads nothing more.
 * - delete (`deletionPolicy: Reset`): one PATCH returning the managed fields to their defaults;
 *   while deleting, observe reports `exists: false` once they are at the defaults.
 */
import type { CallOptions } from '../../cdn/options.js';
import type {
  ShieldZone,
  ShieldZoneCreate,
  ShieldZoneListItem,
  ShieldZoneUpdate,
  WafRuleMetrics,
} from '../../cdn/types.js';
import type { TriggeredRule } from '../../cdn/security-types.js';
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  ClaimHolder,
  FieldDiff,
  ExternalClient,
  ExternalContext,
  Observation,
  CreateResult,
  UpdateResult,
} from '../../runtime/types.js';
import { toResetWire } from './defaults.js';
import {
  applyFeatures as sendFeatures,
  observeFeatures,
  resetFeatures as sendFeatureResets,
  type FeatureApi,
  type FeaturesSeen,
} from './feature-sync.js';
import { isFeatureField } from './features.js';
import { CuratedListError, type CuratedPlan, type CuratedProblem } from './curated-lists.js';
import {
  applyCuratedLists,
  observeCuratedLists,
  type CuratedListApi,
} from './curated-list-sync.js';
import { readLivePages, removePages, uploadPages, type CustomPageApi } from './custom-page-sync.js';
import {
  diffPages,
  diffPagesForReset,
  isPageField,
  pagesStatus,
  type LivePages,
  type ResolvedPage,
} from './custom-pages.js';
import { buildPatchSettings, diffZone } from './diff.js';
import { ShieldFleetCache } from './fleet-cache.js';
import { mergeLiveZone, statusFromZone, toDesiredWire, type WireZone } from './mapping.js';
import { metricsDue, metricsStatus, readRuleMetrics } from './metrics.js';
import {
  checkPlanLimits,
  LIMITED_FIELDS,
  PlanLimitError,
  type PlanLimitViolation,
} from './plan-limits.js';
import { WafRuleCatalog, type RuleCatalogApi } from './rule-catalog.js';
import { OVERRIDE_FIELDS, RuleOverrideError, type OverrideProblem } from './rule-overrides.js';
import { triggeredStatus } from './triggered-rules.js';
import {
  planRuleSweep,
  type SweepDeletion,
  type SweepInput,
  type SweepPlan,
} from './rule-sweep.js';
import { deleteSwept, readSweptItems, type RuleSweepApi } from './rule-sweep-sync.js';
import { PlanType } from './enums.js';
import { ExpiringMap } from '../shared/expiring-map.js';
import { jsonEqual } from '../shared/plan.js';
import type { ShieldPolicy, ShieldPolicyStatus } from './types.js';

/** The client methods the controller uses (satisfied by `CdnClient`). */
export interface ShieldApi
  extends FeatureApi, CustomPageApi, RuleCatalogApi, RuleSweepApi, CuratedListApi {
  getShieldZoneByPullZone(pullZoneId: number, opts?: CallOptions): Promise<ShieldZone | undefined>;
  listAllShieldZones(opts?: CallOptions): Promise<ShieldZoneListItem[]>;
  createShieldZone(body: ShieldZoneCreate, opts?: CallOptions): Promise<ShieldZone>;
  updateShieldZone(body: ShieldZoneUpdate, opts?: CallOptions): Promise<ShieldZone>;
  getWafRuleMetrics(
    shieldZoneId: number,
    ruleId: string,
    opts?: CallOptions,
  ): Promise<WafRuleMetrics>;
  listTriggeredRules(
    shieldZoneId: number,
    opts?: CallOptions,
  ): Promise<{ rules: TriggeredRule[]; total: number }>;
}

/**
 * API fields the policy can observe but the platform's update model cannot carry. A difference
 * on one of them is reported (Synced=False, FieldNotWritable) instead of being sent.
 */
export const NOT_WRITABLE: ReadonlySet<string> = new Set<string>(['dDoSExecutionMode']);

/** Reason of the Synced condition when a desired field cannot be written. */
export const FieldNotWritable = 'FieldNotWritable';

/** Objects whose read times are kept (an entry also expires after its poll interval). */
const MAX_READ_CLOCKS = 100_000;
/** Refused feature resets remembered, and for how long (deletions in progress only). */
const MAX_RESET_REFUSALS = 10_000;
const RESET_REFUSAL_TTL_MS = 3_600_000;

/** State shared by every policy of the controller (one per operator process). */
export interface ShieldShared {
  fleet: ShieldFleetCache;
  /** Object uid -> wall time (ms) its metrics were last read by this process. */
  metricsReadAt: ExpiringMap<number>;
  /** Object uid -> wall time (ms) its triggered rules were last read by this process. */
  triggeredReadAt: ExpiringMap<number>;
  /** The managed WAF rules of zones and plans (override checks). */
  wafRules: WafRuleCatalog;
  /**
   * `account|shieldZoneId|feature` -> true: a reset the zone's plan refused (deleting under
   * Reset leaves that feature as it is instead of waiting for a plan change).
   */
  resetRefused: ExpiringMap<true>;
  now: () => Date;
}

/** Clocks of {@link createShieldShared}. */
export interface SharedClocks {
  /** Wall clock (status times). */
  now?: () => Date;
  /** Monotonic clock in ms (cache expiry). */
  monotonicMs?: () => number;
}

/** The shared state of one operator process (or one `cdnctl diff` run). */
export function createShieldShared(clocks: SharedClocks = {}): ShieldShared {
  const now = clocks.now ?? ((): Date => new Date());
  const monotonicMs = clocks.monotonicMs ?? ((): number => performance.now());
  const clock = { maxEntries: MAX_READ_CLOCKS, now: monotonicMs };
  return {
    fleet: new ShieldFleetCache({ now: monotonicMs }),
    metricsReadAt: new ExpiringMap(clock),
    triggeredReadAt: new ExpiringMap(clock),
    wafRules: new WafRuleCatalog({ now: monotonicMs }),
    resetRefused: new ExpiringMap({ maxEntries: MAX_RESET_REFUSALS, now: monotonicMs }),
    now,
  };
}

/** Everything one external client is bound to. */
export interface ShieldBinding {
  api: ShieldApi;
  /** Non-reversible account id (fleet cache key). */
  account: string;
  /** The target pull zone; undefined only while deleting a policy whose target vanished. */
  pullZoneId: number | undefined;
  /** The policy's poll interval in ms. */
  pollIntervalMs: number;
  /** The custom pages of the spec, read from their ConfigMaps at connect time. */
  pages?: readonly ResolvedPage[];
  shared: ShieldShared;
  /**
   * Read what only status shows (rule metrics, triggered rules); default true. `cdnctl diff`
   * turns it off: it compares settings and must not spend calls on status.
   */
  statusReads?: boolean;
}

const ABSENT: Observation<never> = { exists: false, upToDate: false, diff: [] };

function pageTypesOf(obj: ShieldPolicy): string[] {
  return (obj.spec?.customPages ?? []).map((p) => p.pageType);
}

/** `status.customPages` of a pass: cleared once the spec manages no page. */
function pagesStatusOf(obj: ShieldPolicy, pages: LivePages): Partial<ShieldPolicyStatus> {
  const types = pageTypesOf(obj);
  if (types.length === 0) return obj.status?.customPages ? { customPages: undefined } : {};
  return { customPages: pagesStatus(types, pages) };
}

function withoutFields(values: WireZone, drop: (field: string) => boolean): WireZone {
  return Object.fromEntries(Object.entries(values).filter(([k]) => !drop(k)));
}

/** API fields a create leaves to the update after it (the same pass settles it): they need the zone's plan limits or rules. */
const AFTER_CREATE: ReadonlySet<string> = new Set([
  ...LIMITED_FIELDS,
  ...OVERRIDE_FIELDS.map((f) => f.wire),
]);

function keyOf(obj: ShieldPolicy): string {
  return obj.metadata.uid ?? `${obj.metadata.namespace}/${obj.metadata.name}`;
}

/** `status.waf` of a pass whose zone has its WAF off: cleared. */
function wafStatusCleared(obj: ShieldPolicy): Partial<ShieldPolicyStatus> {
  return obj.status?.waf !== undefined ? { waf: undefined } : {};
}

/** The zone's plan by name and value, when the live zone shows it. */
function zonePlanOf(observed: WireZone): { name: string; value: number } | undefined {
  const name = PlanType.fromWire(observed.planType);
  return name === undefined ? undefined : { name, value: Number(observed.planType) };
}

/** What an update held back, and how soon to look again. */
interface Held {
  violations: readonly PlanLimitViolation[];
  problems: readonly OverrideProblem[];
  curated: readonly CuratedProblem[];
  differing: ReadonlySet<string>;
  plan: string | undefined;
  recheck: number | undefined;
}

/** Throws the error of the first kind of held-back field (the others stay held too). */
function reportHeld(h: Held): void {
  if (h.violations.length > 0) throw new PlanLimitError(h.violations, h.plan, h.recheck);
  if (h.problems.length > 0) throw new RuleOverrideError(h.problems, h.plan, h.recheck);
  if (h.curated.length > 0) throw new CuratedListError(h.curated, h.plan, h.recheck);
  const unwritable = [...h.differing].filter((f) => NOT_WRITABLE.has(f));
  if (unwritable.length > 0) {
    throw new TerminalError(
      FieldNotWritable,
      `cannot set ${unwritable.join(', ')}: the platform's shield zone update model has no such member (set it in the dashboard or drop it from the spec)`,
    );
  }
}

/** The runtime's claim lookup of this pass, when there is a claim index. */
function claimLookup(
  ctx: ExternalContext,
): ((type: string, id: string) => readonly ClaimHolder[]) | undefined {
  if (!ctx.claimantsOf) return undefined;
  return (type, id) => ctx.claimantsOf?.(type, id) ?? [];
}

/** What an update reports of its sweep: its error thrown (after everything else), its status. */
function sweepResult(swept: {
  status?: Partial<ShieldPolicyStatus>;
  error?: Error;
}): UpdateResult | undefined {
  if (swept.error !== undefined) throw swept.error;
  return swept.status ? { status: swept.status } : undefined;
}

/** The reset target of a policy, limited to what the update model can carry. */
export function resetTarget(obj: ShieldPolicy): WireZone {
  return withoutFields(toResetWire(obj.spec ?? {}), (f) => NOT_WRITABLE.has(f));
}

/** What a policy's observe hands to its update or delete. */
export interface PolicySeen {
  /** The live zone: update checks the override lists it would add against it. */
  live: WireZone;
  /** Bot detection and upload scanning as read, with their targets. */
  features: FeaturesSeen;
  /** The curated access lists the spec names, as read and matched (absent: none named). */
  curated?: CuratedPlan;
  /** What observe planned under `rulePolicy: Exact` (and from what); update sends it. */
  sweep?: { input: SweepInput; plan: SweepPlan };
}

/** Builds the external client of one policy. */
export function createShieldExternal(b: ShieldBinding): ExternalClient<ShieldPolicy, PolicySeen> {
  const opts = (ctx: ExternalContext): CallOptions => ({ signal: ctx.signal });

  async function readLive(pullZoneId: number, ctx: ExternalContext): Promise<WireZone | undefined> {
    const zone = await b.api.getShieldZoneByPullZone(pullZoneId, opts(ctx));
    if (!zone) return undefined;
    const listItem = await b.shared.fleet.lookup(
      b.account,
      async () => await b.api.listAllShieldZones(opts(ctx)),
      pullZoneId,
      b.pollIntervalMs,
    );
    return { ...mergeLiveZone(zone, listItem), pullZoneId };
  }

  async function patch(
    shieldZoneId: number,
    pullZoneId: number,
    settings: WireZone,
    ctx: ExternalContext,
  ): Promise<void> {
    if (Object.keys(settings).length === 0) return;
    await b.api.updateShieldZone({ shieldZoneId, shieldZone: settings }, opts(ctx));
    b.shared.fleet.remember(b.account, pullZoneId, settings);
    ctx.log.info({ shieldZoneId, fields: Object.keys(settings) }, 'Updated shield zone');
  }

  async function livePages(
    obj: ShieldPolicy,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<LivePages> {
    const types = pageTypesOf(obj);
    if (types.length === 0) return new Map();
    return await readLivePages(b.api, shieldZoneId, types, opts(ctx));
  }

  const refusalKey = (shieldZoneId: number, feature: string): string =>
    `${b.account}|${shieldZoneId}|${feature}`;

  /**
   * What deleting under Reset still has to change: zone fields, features (except those whose
   * reset the zone's plan refused), pages.
   */
  async function resetDiff(
    obj: ShieldPolicy,
    live: WireZone,
    ctx: ExternalContext,
  ): Promise<{ diff: FieldDiff[]; features: FeaturesSeen; curated?: CuratedPlan }> {
    const zoneId = Number(live.shieldZoneId);
    const features = await observeFeatures(b.api, obj.spec ?? {}, zoneId, 'reset', opts(ctx));
    const entries = obj.spec?.curatedAccessLists;
    const curated = await observeCuratedLists(b.api, entries, zoneId, 'reset', opts(ctx));
    const refused = (d: FieldDiff): boolean =>
      b.shared.resetRefused.get(refusalKey(zoneId, d.field.split('.')[0] ?? '')) !== undefined;
    const diff = [
      ...diffZone(resetTarget(obj), live),
      ...features.diffs.filter((d) => !refused(d)),
      ...diffPagesForReset(pageTypesOf(obj), await livePages(obj, zoneId, ctx)),
      ...curated.diffs,
    ];
    return { diff, features: features.seen, ...(curated.seen ? { curated: curated.seen } : {}) };
  }

  /** Resets the features; one the zone's plan refuses is left as it is (logged, remembered). */
  async function resetFeatures(
    seen: FeaturesSeen,
    diff: readonly FieldDiff[],
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<void> {
    const { written, refused } = await sendFeatureResets(
      b.api,
      seen,
      diff,
      shieldZoneId,
      opts(ctx),
    );
    if (written.length > 0)
      ctx.log.info({ shieldZoneId, features: written }, 'Reset shield features');
    for (const feature of refused)
      b.shared.resetRefused.set(refusalKey(shieldZoneId, feature), true, RESET_REFUSAL_TTL_MS);
    if (refused.length > 0)
      ctx.log.warn(
        { shieldZoneId, features: refused },
        "Cannot reset shield features the zone's plan no longer includes; left as they are",
      );
  }

  async function applyPages(
    diff: readonly FieldDiff[],
    shieldZoneId: number,
    planType: string | undefined,
    ctx: ExternalContext,
  ): Promise<void> {
    const mine = diff.filter((d) => isPageField(d.field));
    if (mine.length === 0) return;
    const plan = { planType, retryAfterMs: b.pollIntervalMs };
    const written = await uploadPages(b.api, b.pages ?? [], mine, shieldZoneId, plan, opts(ctx));
    if (written.length > 0)
      ctx.log.info({ shieldZoneId, pageTypes: written }, 'Uploaded custom pages');
  }

  async function applyFeatures(
    seen: FeaturesSeen,
    diff: readonly FieldDiff[],
    shieldZoneId: number,
    planType: string | undefined,
    ctx: ExternalContext,
  ): Promise<void> {
    const mine = diff.filter((d) => isFeatureField(d.field));
    if (mine.length === 0) return;
    const plan = { planType, retryAfterMs: b.pollIntervalMs };
    const written = await sendFeatures(b.api, seen, mine, shieldZoneId, plan, opts(ctx));
    if (written.length > 0)
      ctx.log.info({ shieldZoneId, features: written }, 'Updated shield features');
  }

  /** Writes the differing curated lists; answers the entries held back. */
  async function applyCurated(
    seen: CuratedPlan | undefined,
    diff: readonly FieldDiff[],
    shieldZoneId: number,
    live: WireZone,
    ctx: ExternalContext,
  ): Promise<CuratedProblem[]> {
    const plan = zonePlanOf(live)?.value;
    const out = await applyCuratedLists(b.api, seen, diff, shieldZoneId, plan, opts(ctx));
    if (out.written.length > 0)
      ctx.log.info({ shieldZoneId, lists: out.written }, 'Updated curated access lists');
    return out.problems;
  }

  /** The metrics part of status; `read` when this pass read them. */
  async function observeMetrics(
    obj: ShieldPolicy,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<{ status: Partial<ShieldPolicyStatus>; read: boolean }> {
    const wanted = obj.spec?.ruleMetrics ?? [];
    const status = obj.status ?? {};
    if (wanted.length === 0) {
      const cleared = status.ruleMetrics !== undefined || status.lastMetricsTime !== undefined;
      return {
        status: cleared ? { ruleMetrics: undefined, lastMetricsTime: undefined } : {},
        read: false,
      };
    }
    const key = keyOf(obj);
    const now = b.shared.now();
    const due = metricsDue({
      now: now.getTime(),
      pollIntervalMs: b.pollIntervalMs,
      lastMetricsTime: status.lastMetricsTime,
      lastReadAt: b.shared.metricsReadAt.get(key),
      wantedRuleIds: wanted,
      current: status.ruleMetrics,
    });
    if (!due) return { status: {}, read: false };
    const read = await readRuleMetrics(
      (zone, rule) => b.api.getWafRuleMetrics(zone, rule, opts(ctx)),
      shieldZoneId,
      wanted,
      status.ruleMetrics,
    );
    if (read.complete) b.shared.metricsReadAt.set(key, now.getTime(), b.pollIntervalMs);
    const shown = metricsStatus(read.entries, status.ruleMetrics, status.lastMetricsTime, now);
    return { status: shown, read: true };
  }

  /**
   * `status.waf`: the triggered rules waiting for review, read at most once per poll interval
   * and only while the zone's WAF is on; also whenever this pass read the metrics (`withMetrics`),
   * so both change status in the same write. A failed read keeps what status shows (it is only
   * information) and is tried again after the interval.
   */
  async function observeTriggered(
    obj: ShieldPolicy,
    live: WireZone,
    shieldZoneId: number,
    withMetrics: boolean,
    ctx: ExternalContext,
  ): Promise<Partial<ShieldPolicyStatus>> {
    if (live.wafEnabled !== true) return wafStatusCleared(obj);
    const key = keyOf(obj);
    if (!withMetrics && b.shared.triggeredReadAt.get(key) !== undefined) return {};
    b.shared.triggeredReadAt.set(key, b.shared.now().getTime(), b.pollIntervalMs);
    try {
      const waf = triggeredStatus(await b.api.listTriggeredRules(shieldZoneId, opts(ctx)));
      return jsonEqual(waf, obj.status?.waf) ? {} : { waf };
    } catch (err) {
      ctx.log.warn(
        { shieldZoneId, error: (err as Error).message },
        'Cannot read the triggered WAF rules',
      );
      return {};
    }
  }

  /** Forgets the per-object and per-zone state of a policy being deleted. */
  function forgetPolicy(obj: ShieldPolicy, shieldZoneId: number): void {
    b.shared.metricsReadAt.delete(keyOf(obj));
    b.shared.triggeredReadAt.delete(keyOf(obj));
    b.shared.wafRules.forgetZone(b.account, shieldZoneId);
  }

  /**
   * What only status shows: rule metrics and triggered rules, on one cadence (skipped for
   * `cdnctl diff`).
   */
  async function observeInsights(
    obj: ShieldPolicy,
    live: WireZone,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<Partial<ShieldPolicyStatus>> {
    if (b.statusReads === false) return {};
    const metrics = await observeMetrics(obj, shieldZoneId, ctx);
    return {
      ...metrics.status,
      ...(await observeTriggered(obj, live, shieldZoneId, metrics.read, ctx)),
    };
  }

  /**
   * Problems of the override lists this update would write, checked against the zone observed
   * in this pass (no platform call when the write adds no rule id).
   */
  async function checkOverrides(
    live: WireZone,
    desired: WireZone,
    differing: ReadonlySet<string>,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<OverrideProblem[]> {
    const plan = zonePlanOf(live);
    return await b.shared.wafRules.check({
      api: b.api,
      account: b.account,
      shieldZoneId,
      ...(plan ? { plan } : {}),
      desired,
      live,
      differing,
      opts: opts(ctx),
    });
  }

  /**
   * Under `rulePolicy: Exact`: the zone's unmanaged custom WAF rules, rate limits and custom
   * lists, as deletions (rule-sweep.ts); three reads. Under Additive nothing is read.
   */
  async function observeSweep(
    obj: ShieldPolicy,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<{ input: SweepInput; plan: SweepPlan } | undefined> {
    if (obj.spec?.rulePolicy !== 'Exact') return undefined;
    const claimantsOf = claimLookup(ctx);
    // Without the claim index every item would look unmanaged: never guess.
    if (!claimantsOf)
      throw new Error('cannot apply spec.rulePolicy Exact: the claim index is not available');
    const live = await readSweptItems(b.api, shieldZoneId, opts(ctx));
    const { namespace, name } = obj.metadata;
    const input: SweepInput = {
      zoneId: shieldZoneId,
      policy: { namespace, name },
      live,
      orderedRuleIds: obj.spec.waf?.customRuleOrder ?? [],
      claimantsOf,
    };
    return { input, plan: planRuleSweep(input) };
  }

  /**
   * The deletions observe planned that are still unclaimed now: an object that claimed one of
   * them since (a rule adopting it) keeps it.
   */
  function stillUnclaimed(seen: PolicySeen['sweep'], ctx: ExternalContext): SweepDeletion[] {
    const claimantsOf = claimLookup(ctx);
    if (!seen || !claimantsOf) return [];
    const now = planRuleSweep({ ...seen.input, claimantsOf });
    const key = (d: SweepDeletion): string => `${d.family.type}/${d.id}`;
    const still = new Set(now.deletions.map(key));
    return seen.plan.deletions.filter((d) => still.has(key(d)));
  }

  /** Sends the deletions this pass planned; the outcome's error is reported by the caller. */
  async function applySweep(
    obj: ShieldPolicy,
    seen: PolicySeen['sweep'],
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<{ status?: Partial<ShieldPolicyStatus>; error?: Error }> {
    const deletions = stillUnclaimed(seen, ctx);
    if (deletions.length === 0) return {};
    const target = {
      api: b.api,
      zoneId: shieldZoneId,
      previous: obj.status?.deletedRules,
      now: b.shared.now(),
      retryAfterMs: b.pollIntervalMs,
    };
    const out = await deleteSwept(target, deletions, ctx);
    return {
      ...(out.deletedRules ? { status: { deletedRules: out.deletedRules } } : {}),
      ...(out.error !== undefined ? { error: out.error } : {}),
    };
  }

  /**
   * Everything a live zone is compared with the spec on: its settings, features, pages,
   * curated lists and, under `rulePolicy: Exact`, its unmanaged rules.
   */
  async function observeDesired(
    obj: ShieldPolicy,
    live: WireZone,
    ctx: ExternalContext,
  ): Promise<{ diff: FieldDiff[]; seen: PolicySeen; pages: LivePages }> {
    const zoneId = Number(live.shieldZoneId);
    const pages = await livePages(obj, zoneId, ctx);
    const sweep = await observeSweep(obj, zoneId, ctx);
    const features = await observeFeatures(b.api, obj.spec ?? {}, zoneId, 'desired', opts(ctx));
    const entries = obj.spec?.curatedAccessLists;
    const curated = await observeCuratedLists(b.api, entries, zoneId, 'desired', opts(ctx));
    const diff = [
      ...diffZone(toDesiredWire(obj.spec ?? {}), live),
      ...features.diffs,
      ...diffPages(b.pages ?? [], pages),
      ...curated.diffs,
      ...(sweep?.plan.diffs ?? []),
    ];
    const seen: PolicySeen = {
      live,
      features: features.seen,
      ...(curated.seen ? { curated: curated.seen } : {}),
      ...(sweep ? { sweep } : {}),
    };
    return { diff, seen, pages };
  }

  return {
    async observe(obj, ctx): Promise<Observation<PolicySeen>> {
      if (b.pullZoneId === undefined) return ABSENT;
      const live = await readLive(b.pullZoneId, ctx);
      if (!live) return ABSENT;
      const status = statusFromZone(live);
      const externalId = String(live.shieldZoneId);
      if (isDeleting(obj)) {
        forgetPolicy(obj, Number(live.shieldZoneId));
        // Under Reset the zone "exists" (for the finalizer) until its managed fields are back at the defaults.
        const { diff } = await resetDiff(obj, live, ctx);
        return { exists: diff.length > 0, externalId, upToDate: diff.length === 0, diff, status };
      }
      const zoneId = Number(live.shieldZoneId);
      const { diff, seen, pages } = await observeDesired(obj, live, ctx);
      const insights = await observeInsights(obj, live, zoneId, ctx);
      return {
        exists: true,
        externalId,
        upToDate: diff.length === 0,
        diff,
        status: { ...status, ...insights, ...pagesStatusOf(obj, pages) },
        seen,
      };
    },

    async create(obj, ctx): Promise<CreateResult> {
      const pullZoneId = b.pullZoneId;
      if (pullZoneId === undefined)
        throw new Error('cannot create a shield zone: the target pull zone is unknown');
      const settings = withoutFields(
        toDesiredWire(obj.spec ?? {}),
        (f) => AFTER_CREATE.has(f) || NOT_WRITABLE.has(f),
      );
      const zone = await b.api.createShieldZone({ pullZoneId, shieldZone: settings }, opts(ctx));
      b.shared.fleet.remember(b.account, pullZoneId, settings);
      const shieldZoneId = Number(zone.shieldZoneId);
      ctx.log.debug({ shieldZoneId, pullZoneId }, 'Created shield zone');
      return { externalId: String(shieldZoneId), status: { shieldZoneId, pullZoneId } };
    },

    async update(obj, observation, ctx): Promise<UpdateResult | void> {
      const pullZoneId = b.pullZoneId;
      const shieldZoneId = Number(observation.externalId ?? ctx.externalId);
      if (pullZoneId === undefined || !Number.isSafeInteger(shieldZoneId)) {
        throw new Error('cannot update the shield zone: its id is unknown');
      }
      const seen = observation.seen;
      if (!seen)
        throw new Error('cannot update the shield zone: observation was not made by this client');
      const desired = toDesiredWire(obj.spec ?? {});
      const differing = new Set(observation.diff.map((d) => d.field));
      const observed = (observation.status ?? {}) as WireZone;
      const violations = checkPlanLimits(desired, observed, differing);
      const problems = await checkOverrides(seen.live, desired, differing, shieldZoneId, ctx);
      const held = new Set([
        ...violations.map((v) => v.field),
        ...problems.map((p) => p.field),
        ...NOT_WRITABLE,
      ]);
      const settings = buildPatchSettings(
        desired,
        observation.diff.filter((d) => !held.has(d.field)),
      );
      await patch(shieldZoneId, pullZoneId, settings, ctx);
      const plan = typeof observed.planType === 'string' ? observed.planType : undefined;
      await applyFeatures(seen.features, observation.diff, shieldZoneId, plan, ctx);
      await applyPages(observation.diff, shieldZoneId, plan, ctx);
      const curated = await applyCurated(
        seen.curated,
        observation.diff,
        shieldZoneId,
        seen.live,
        ctx,
      );
      const swept = await applySweep(obj, seen.sweep, shieldZoneId, ctx);
      // A plan change just sent changes the limits and the rules: recheck with the normal
      // backoff instead of waiting a whole poll interval for the held-back fields.
      const recheck = 'planType' in settings ? undefined : b.pollIntervalMs;
      reportHeld({ violations, problems, curated, differing, plan, recheck });
      return sweepResult(swept);
    },

    async delete(obj, ctx): Promise<void> {
      if (b.pullZoneId === undefined) return;
      const live = await readLive(b.pullZoneId, ctx);
      if (!live) return;
      const target = resetTarget(obj);
      const settings = buildPatchSettings(target, diffZone(target, live));
      const shieldZoneId = Number(live.shieldZoneId);
      await patch(shieldZoneId, b.pullZoneId, settings, ctx);
      const { diff, features, curated } = await resetDiff(obj, live, ctx);
      await resetFeatures(features, diff, shieldZoneId, ctx);
      await applyCurated(curated, diff, shieldZoneId, live, ctx);
      await removePages(b.api, pageTypesOf(obj), diff, shieldZoneId, opts(ctx));
    },
  };
}
