/**
 * The managed WAF rules a check of the override lists needs (rule-overrides.ts), read only
 * when a write would add an id, and cached:
 *
 * - the rule ids of a zone (`GET /shield/waf/rules/{shieldZoneId}`), one entry per account and
 *   zone, valid for the plan it was read on (a plan change misses) and at most
 *   {@link CATALOG_TTL_MS}; dropped when the policy of the zone is deleted;
 * - the lowest plan of each rule (`GET /shield/waf/rules/plan-segmentation`), one entry per
 *   account, read only when an added id is missing from the zone's rules.
 *
 * Both maps are bounded ({@link ExpiringMap}); an entry says nothing about whether the zone
 * exists, which is always read first, so a cached list never brings a deleted zone back.
 */
import type { CallOptions } from '../../cdn/options.js';
import type { WafRuleGroup, WafRulesByPlan } from '../../cdn/security-types.js';
import { ExpiringMap } from '../shared/expiring-map.js';
import type { WireZone } from './mapping.js';
import {
  addedIds,
  anyMissing,
  missingRuleProblems,
  OVERRIDE_FIELDS,
  overlapProblems,
  rulePlans,
  zoneRuleIds,
  type OverrideProblem,
  type RulePlans,
} from './rule-overrides.js';

/** The client methods the catalogue reads (satisfied by `CdnClient`). */
export interface RuleCatalogApi {
  listWafRules(shieldZoneId: number, opts?: CallOptions): Promise<WafRuleGroup[]>;
  getWafRulesByPlan(opts?: CallOptions): Promise<WafRulesByPlan[]>;
}

/** How long a read catalogue is used: the platform changes its rule set rarely. */
export const CATALOG_TTL_MS = 3_600_000;
/** Zones whose rule list is kept. */
export const MAX_CACHED_ZONES = 512;
/** Accounts whose plan segmentation is kept. */
export const MAX_CACHED_ACCOUNTS = 64;

interface ZoneRules {
  /** The zone's plan when read (`Basic`, ...; `?` when unknown). */
  plan: string;
  ids: ReadonlySet<string>;
}

/** Options of {@link WafRuleCatalog}. */
export interface RuleCatalogOptions {
  /** Monotonic clock in ms. */
  now: () => number;
  ttlMs?: number;
}

/** What a check of the override lists of one write needs. */
export interface OverrideCheck {
  api: RuleCatalogApi;
  account: string;
  shieldZoneId: number;
  /** The zone's plan by name and value (from the live zone), when known. */
  plan?: { name: string; value: number };
  desired: WireZone;
  live: WireZone;
  /** API fields this write changes. */
  differing: ReadonlySet<string>;
  opts: CallOptions;
}

/** See the module comment. */
export class WafRuleCatalog {
  private readonly zones: ExpiringMap<ZoneRules>;
  private readonly plans: ExpiringMap<RulePlans>;
  private readonly ttlMs: number;
  /** Platform reads made (tests, debug logs). */
  reads = 0;

  constructor(options: RuleCatalogOptions) {
    this.ttlMs = options.ttlMs ?? CATALOG_TTL_MS;
    this.zones = new ExpiringMap({ maxEntries: MAX_CACHED_ZONES, now: options.now });
    this.plans = new ExpiringMap({ maxEntries: MAX_CACHED_ACCOUNTS, now: options.now });
  }

  /** The rule ids of the zone on `plan`, read when not cached for that plan. */
  async zoneRules(
    api: RuleCatalogApi,
    account: string,
    shieldZoneId: number,
    plan: string | undefined,
    opts: CallOptions,
  ): Promise<ReadonlySet<string>> {
    const key = zoneKey(account, shieldZoneId);
    const wanted = plan ?? '?';
    const cached = this.zones.get(key);
    if (cached && cached.plan === wanted) return cached.ids;
    this.reads++;
    const ids = zoneRuleIds(await api.listWafRules(shieldZoneId, opts));
    this.zones.set(key, { plan: wanted, ids }, this.ttlMs);
    return ids;
  }

  /** The lowest plan of each managed rule, read when not cached for the account. */
  async rulePlans(api: RuleCatalogApi, account: string, opts: CallOptions): Promise<RulePlans> {
    const cached = this.plans.get(account);
    if (cached) return cached;
    this.reads++;
    const plans = rulePlans(await api.getWafRulesByPlan(opts));
    this.plans.set(account, plans, this.ttlMs);
    return plans;
  }

  /** Drops what is known about a zone (its policy is being deleted). */
  forgetZone(account: string, shieldZoneId: number): void {
    this.zones.delete(zoneKey(account, shieldZoneId));
  }

  /** Zones cached (tests). */
  get cachedZones(): number {
    return this.zones.size;
  }

  /**
   * The problems of the override lists a write would send: ids in both lists, and added ids
   * the zone's rules lack. No platform call when the write adds no id.
   */
  async check(c: OverrideCheck): Promise<OverrideProblem[]> {
    const writing = OVERRIDE_FIELDS.some((f) => c.differing.has(f.wire));
    if (!writing) return [];
    const overlap = overlapProblems(c.desired);
    const added = addedIds(c.desired, c.live, c.differing);
    if (added.size === 0) return overlap;
    const rules = await this.zoneRules(c.api, c.account, c.shieldZoneId, c.plan?.name, c.opts);
    const plans = anyMissing(added, rules)
      ? await this.rulePlans(c.api, c.account, c.opts)
      : undefined;
    return [...overlap, ...missingRuleProblems(added, rules, plans, c.plan?.value)];
  }
}

function zoneKey(account: string, shieldZoneId: number): string {
  return `${account}|${shieldZoneId}`;
}
