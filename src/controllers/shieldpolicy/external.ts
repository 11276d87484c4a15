/**
 * The ShieldPolicy external client: observe / create / update / reset of the shield zone of one
 * pull zone, bound to one account's API client.
 *
 * - observe: `GET /shield/shield-zone/get-by-pullzone/{id}` plus the zone's entry in the
 *   account's fleet cache (list-only members), then the WAF rule metrics when due.
 * - create: `POST /shield/shield-zone` with the desired settings except those counted against a
 *   plan limit (they need the zone's limits, known only once it exists; the next pass applies
 *   them).
 * - update: one `PATCH /shield/shield-zone` with only the differing fields.
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
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type {
  FieldDiff,
  ExternalClient,
  ExternalContext,
  Observation,
  CreateResult,
} from '../../runtime/types.js';
import { toResetWire } from './defaults.js';
import { createFeatureSync, type FeatureApi } from './feature-sync.js';
import { isFeatureField } from './features.js';
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
import type { ShieldFleetCache } from './fleet-cache.js';
import { mergeLiveZone, statusFromZone, toDesiredWire, type WireZone } from './mapping.js';
import { metricsDue, metricsStatus, readRuleMetrics } from './metrics.js';
import { checkPlanLimits, LIMITED_FIELDS, PlanLimitError } from './plan-limits.js';
import type { ShieldPolicy, ShieldPolicyStatus } from './types.js';

/** The client methods the controller uses (satisfied by `CdnClient`). */
export interface ShieldApi extends FeatureApi, CustomPageApi {
  getShieldZoneByPullZone(pullZoneId: number, opts?: CallOptions): Promise<ShieldZone | undefined>;
  listAllShieldZones(opts?: CallOptions): Promise<ShieldZoneListItem[]>;
  createShieldZone(body: ShieldZoneCreate, opts?: CallOptions): Promise<ShieldZone>;
  updateShieldZone(body: ShieldZoneUpdate, opts?: CallOptions): Promise<ShieldZone>;
  getWafRuleMetrics(
    shieldZoneId: number,
    ruleId: string,
    opts?: CallOptions,
  ): Promise<WafRuleMetrics>;
}

/**
 * API fields the policy can observe but the platform's update model cannot carry. A difference
 * on one of them is reported (Synced=False, FieldNotWritable) instead of being sent.
 */
export const NOT_WRITABLE: ReadonlySet<string> = new Set<string>(['dDoSExecutionMode']);

/** Reason of the Synced condition when a desired field cannot be written. */
export const FieldNotWritable = 'FieldNotWritable';

/** State shared by every policy of the controller (one per operator process). */
export interface ShieldShared {
  fleet: ShieldFleetCache;
  /** Object uid -> time (ms) its metrics were last read by this process. */
  metricsReadAt: Map<string, number>;
  now: () => Date;
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
}

const ABSENT: Observation = { exists: false, upToDate: false, diff: [] };

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

/** The reset target of a policy, limited to what the update model can carry. */
export function resetTarget(obj: ShieldPolicy): WireZone {
  return withoutFields(toResetWire(obj.spec ?? {}), (f) => NOT_WRITABLE.has(f));
}

/** Builds the external client of one policy. */
export function createShieldExternal(b: ShieldBinding): ExternalClient<ShieldPolicy> {
  const opts = (ctx: ExternalContext): CallOptions => ({ signal: ctx.signal });
  // Bot detection and upload scanning, read by observe and written by update/delete of this pass.
  const features = createFeatureSync(b.api);

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

  /** What deleting under Reset still has to change: zone fields, features, pages. */
  async function resetDiff(
    obj: ShieldPolicy,
    live: WireZone,
    ctx: ExternalContext,
  ): Promise<FieldDiff[]> {
    const zoneId = Number(live.shieldZoneId);
    return [
      ...diffZone(resetTarget(obj), live),
      ...(await features.observe(obj.spec ?? {}, zoneId, 'reset', opts(ctx))),
      ...diffPagesForReset(pageTypesOf(obj), await livePages(obj, zoneId, ctx)),
    ];
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
    diff: readonly FieldDiff[],
    shieldZoneId: number,
    planType: string | undefined,
    ctx: ExternalContext,
  ): Promise<void> {
    const mine = diff.filter((d) => isFeatureField(d.field));
    if (mine.length === 0) return;
    const plan = { planType, retryAfterMs: b.pollIntervalMs };
    const written = await features.apply(mine, shieldZoneId, plan, opts(ctx));
    if (written.length > 0)
      ctx.log.info({ shieldZoneId, features: written }, 'Updated shield features');
  }

  async function observeMetrics(
    obj: ShieldPolicy,
    shieldZoneId: number,
    ctx: ExternalContext,
  ): Promise<Partial<ShieldPolicyStatus>> {
    const wanted = obj.spec?.ruleMetrics ?? [];
    const status = obj.status ?? {};
    if (wanted.length === 0) {
      return status.ruleMetrics !== undefined || status.lastMetricsTime !== undefined
        ? { ruleMetrics: undefined, lastMetricsTime: undefined }
        : {};
    }
    const key = obj.metadata.uid ?? `${obj.metadata.namespace}/${obj.metadata.name}`;
    const now = b.shared.now();
    const due = metricsDue({
      now: now.getTime(),
      pollIntervalMs: b.pollIntervalMs,
      lastMetricsTime: status.lastMetricsTime,
      lastReadAt: b.shared.metricsReadAt.get(key),
      wantedRuleIds: wanted,
      current: status.ruleMetrics,
    });
    if (!due) return {};
    const read = await readRuleMetrics(
      (zone, rule) => b.api.getWafRuleMetrics(zone, rule, opts(ctx)),
      shieldZoneId,
      wanted,
      status.ruleMetrics,
    );
    if (read.complete) b.shared.metricsReadAt.set(key, now.getTime());
    return metricsStatus(read.entries, status.ruleMetrics, status.lastMetricsTime, now);
  }

  return {
    async observe(obj, ctx): Promise<Observation> {
      if (b.pullZoneId === undefined) return ABSENT;
      const live = await readLive(b.pullZoneId, ctx);
      if (!live) return ABSENT;
      const status = statusFromZone(live);
      const externalId = String(live.shieldZoneId);
      if (isDeleting(obj)) {
        b.shared.metricsReadAt.delete(
          obj.metadata.uid ?? `${obj.metadata.namespace}/${obj.metadata.name}`,
        );
        // Under Reset the zone "exists" (for the finalizer) until its managed fields are back at the defaults.
        const diff = await resetDiff(obj, live, ctx);
        return { exists: diff.length > 0, externalId, upToDate: diff.length === 0, diff, status };
      }
      const zoneId = Number(live.shieldZoneId);
      const pages = await livePages(obj, zoneId, ctx);
      const diff = [
        ...diffZone(toDesiredWire(obj.spec ?? {}), live),
        ...(await features.observe(obj.spec ?? {}, zoneId, 'desired', opts(ctx))),
        ...diffPages(b.pages ?? [], pages),
      ];
      const metrics = await observeMetrics(obj, zoneId, ctx);
      return {
        exists: true,
        externalId,
        upToDate: diff.length === 0,
        diff,
        status: { ...status, ...metrics, ...pagesStatusOf(obj, pages) },
      };
    },

    async create(obj, ctx): Promise<CreateResult> {
      const pullZoneId = b.pullZoneId;
      if (pullZoneId === undefined)
        throw new Error('cannot create a shield zone: the target pull zone is unknown');
      const settings = withoutFields(
        toDesiredWire(obj.spec ?? {}),
        (f) => LIMITED_FIELDS.has(f) || NOT_WRITABLE.has(f),
      );
      const zone = await b.api.createShieldZone({ pullZoneId, shieldZone: settings }, opts(ctx));
      b.shared.fleet.remember(b.account, pullZoneId, settings);
      const shieldZoneId = Number(zone.shieldZoneId);
      ctx.log.info({ shieldZoneId, pullZoneId }, 'Created shield zone');
      return { externalId: String(shieldZoneId), status: { shieldZoneId, pullZoneId } };
    },

    async update(obj, observation, ctx): Promise<void> {
      const pullZoneId = b.pullZoneId;
      const shieldZoneId = Number(observation.externalId ?? ctx.externalId);
      if (pullZoneId === undefined || !Number.isSafeInteger(shieldZoneId)) {
        throw new Error('cannot update the shield zone: its id is unknown');
      }
      const desired = toDesiredWire(obj.spec ?? {});
      const differing = new Set(observation.diff.map((d) => d.field));
      const observed = (observation.status ?? {}) as WireZone;
      const violations = checkPlanLimits(desired, observed, differing);
      const held = new Set([...violations.map((v) => v.field), ...NOT_WRITABLE]);
      const settings = buildPatchSettings(
        desired,
        observation.diff.filter((d) => !held.has(d.field)),
      );
      await patch(shieldZoneId, pullZoneId, settings, ctx);
      const plan = typeof observed.planType === 'string' ? observed.planType : undefined;
      await applyFeatures(observation.diff, shieldZoneId, plan, ctx);
      await applyPages(observation.diff, shieldZoneId, plan, ctx);
      if (violations.length > 0) {
        // A plan change just sent changes the limits: recheck with the normal backoff instead
        // of waiting a whole poll interval for the held-back fields.
        const recheck = 'planType' in settings ? undefined : b.pollIntervalMs;
        throw new PlanLimitError(violations, plan, recheck);
      }
      const unwritable = [...differing].filter((f) => NOT_WRITABLE.has(f));
      if (unwritable.length > 0) {
        throw new TerminalError(
          FieldNotWritable,
          `cannot set ${unwritable.join(', ')}: the platform's shield zone update model has no such member (set it in the dashboard or drop it from the spec)`,
        );
      }
    },

    async delete(obj, ctx): Promise<void> {
      if (b.pullZoneId === undefined) return;
      const live = await readLive(b.pullZoneId, ctx);
      if (!live) return;
      const target = resetTarget(obj);
      const settings = buildPatchSettings(target, diffZone(target, live));
      const shieldZoneId = Number(live.shieldZoneId);
      await patch(shieldZoneId, b.pullZoneId, settings, ctx);
      const diff = await resetDiff(obj, live, ctx);
      await applyFeatures(diff, shieldZoneId, undefined, ctx);
      await removePages(b.api, pageTypesOf(obj), diff, shieldZoneId, opts(ctx));
    },
  };
}
