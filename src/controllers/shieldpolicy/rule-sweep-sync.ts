/**
 * The platform side of `spec.rulePolicy: Exact` (the decision is rule-sweep.ts): the listings
 * it reads and the deletions it sends.
 *
 * - Read (observe, only under Exact): the zone's custom WAF rules and rate limits (one paged
 *   GET each, usually one page) and its access lists (one GET; only `customLists` are taken,
 *   the curated lists beside them never are).
 * - Delete (update): one `DELETE` per planned item. An item already gone (404) is fine; each
 *   deleted item is recorded as an Event at once and in `status.deletedRules`. A deletion the
 *   platform refuses (403: the plan, or the key's permissions) is reported as
 *   {@link RuleDeleteRefusedError}, retried once per poll interval (never in a hot loop); any
 *   other failure is rethrown after the remaining deletions were tried (the runtime backs off).
 */
import type { CallOptions } from '../../cdn/options.js';
import type {
  AccessListsOverview,
  CustomWafRule,
  RateLimitRule,
} from '../../cdn/security-types.js';
import { isShieldPlanRefusal } from '../../cdn/shield-rules.js';
import type { ExternalContext } from '../../runtime/types.js';
import { isNotFound } from '../shared/not-found.js';
import type { LiveItem, SweepDeletion } from './rule-sweep.js';
import type { DeletedRuleStatus, SweptItemType } from './types.js';

/** The client calls of the sweep (satisfied by `CdnClient`). */
export interface RuleSweepApi {
  listCustomWafRules(shieldZoneId: number, opts?: CallOptions): Promise<CustomWafRule[]>;
  listRateLimits(shieldZoneId: number, opts?: CallOptions): Promise<RateLimitRule[]>;
  listAccessLists(shieldZoneId: number, opts?: CallOptions): Promise<AccessListsOverview>;
  deleteCustomWafRule(id: number, opts?: CallOptions): Promise<void>;
  deleteRateLimit(id: number, opts?: CallOptions): Promise<void>;
  deleteCustomAccessList(shieldZoneId: number, id: number, opts?: CallOptions): Promise<void>;
}

/** Event reason of an item `rulePolicy: Exact` deleted. */
export const DeletedUnmanagedRule = 'DeletedUnmanagedRule';
/** Synced reason while the platform refuses a deletion `rulePolicy: Exact` planned. */
export const RuleDeleteRefused = 'RuleDeleteRefused';

/** How many deletions `status.deletedRules` keeps. */
export const DELETED_RULES_SHOWN = 20;

/** The platform refused (403) deletions the `Exact` rule policy planned. */
export class RuleDeleteRefusedError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
    this.name = 'RuleDeleteRefusedError';
  }
}

interface RuleRecordLike {
  id?: number;
  shieldZoneId?: number;
  ruleName?: string | null;
}

function rulesOf(records: readonly RuleRecordLike[]): LiveItem[] {
  const out: LiveItem[] = [];
  for (const r of records) {
    if (typeof r.id !== 'number') continue;
    out.push({
      id: r.id,
      ...(typeof r.ruleName === 'string' ? { name: r.ruleName } : {}),
      ...(typeof r.shieldZoneId === 'number' ? { shieldZoneId: r.shieldZoneId } : {}),
    });
  }
  return out;
}

/** The zone's custom WAF rules, rate limits and custom access lists (three reads). */
export async function readSweptItems(
  api: RuleSweepApi,
  zoneId: number,
  opts: CallOptions,
): Promise<Map<SweptItemType, LiveItem[]>> {
  const waf = await api.listCustomWafRules(zoneId, opts);
  const rates = await api.listRateLimits(zoneId, opts);
  const lists = (await api.listAccessLists(zoneId, opts)).customLists ?? [];
  return new Map<SweptItemType, LiveItem[]>([
    ['CustomWafRule', rulesOf(waf)],
    ['RateLimit', rulesOf(rates)],
    [
      'CustomAccessList',
      lists.map((l) => ({
        id: l.listId,
        ...(typeof l.name === 'string' ? { name: l.name } : {}),
      })),
    ],
  ]);
}

function deleteCall(
  api: RuleSweepApi,
  zoneId: number,
  d: SweepDeletion,
  opts: CallOptions,
): Promise<void> {
  switch (d.family.type) {
    case 'CustomWafRule':
      return api.deleteCustomWafRule(d.id, opts);
    case 'RateLimit':
      return api.deleteRateLimit(d.id, opts);
    default:
      return api.deleteCustomAccessList(zoneId, d.id, opts);
  }
}

/** What one sweep's deletions came to. */
export interface SweepOutcome {
  /** `status.deletedRules` when something was deleted (else undefined: unchanged). */
  deletedRules?: DeletedRuleStatus[];
  /** The error to report (after every deletion was tried), if any. */
  error?: Error;
}

/** What {@link deleteSwept} is bound to. */
export interface SweepTarget {
  api: RuleSweepApi;
  zoneId: number;
  /** The deletions `status.deletedRules` already shows. */
  previous: readonly DeletedRuleStatus[] | undefined;
  now: Date;
  /** When a refused deletion is tried again. */
  retryAfterMs: number;
}

function refusalError(refused: readonly string[], retryAfterMs: number): RuleDeleteRefusedError {
  return new RuleDeleteRefusedError(
    `cannot delete ${refused.join('; ')} (spec.rulePolicy Exact): the platform refused the deletion; nothing else is held back, and it is tried again every poll interval (to keep the item, give it an object or set rulePolicy Additive)`,
    retryAfterMs,
  );
}

type DeleteResult = { done: true } | { refused: string } | { failed: Error } | { gone: true };

/** Sends one deletion and says how it went (never throws). */
async function deleteOne(
  t: SweepTarget,
  d: SweepDeletion,
  ctx: ExternalContext,
): Promise<DeleteResult> {
  try {
    await deleteCall(t.api, t.zoneId, d, { signal: ctx.signal });
  } catch (err) {
    if (isNotFound(err)) return { gone: true };
    if (isShieldPlanRefusal(err)) return { refused: `${d.label} (403: ${(err as Error).message})` };
    return { failed: err instanceof Error ? err : new Error(String(err)) };
  }
  ctx.log.info({ shieldZoneId: t.zoneId, type: d.family.type, id: d.id }, 'Deleted unmanaged item');
  ctx.recordEvent?.({
    type: 'Normal',
    reason: DeletedUnmanagedRule,
    message: `Deleted ${d.label} from shield zone ${t.zoneId}: no ${d.family.kind} manages it (spec.rulePolicy Exact)`,
  });
  return { done: true };
}

function deletedEntry(d: SweepDeletion, now: Date): DeletedRuleStatus {
  const name = d.name !== undefined ? { name: d.name } : {};
  return { type: d.family.type, id: d.id, ...name, deletionTime: now.toISOString() };
}

/** Deletes the planned items (see the module comment). */
export async function deleteSwept(
  t: SweepTarget,
  deletions: readonly SweepDeletion[],
  ctx: ExternalContext,
): Promise<SweepOutcome> {
  const deleted: DeletedRuleStatus[] = [];
  const refused: string[] = [];
  const failures: Error[] = [];
  for (const d of deletions) {
    const r = await deleteOne(t, d, ctx);
    if ('done' in r) deleted.unshift(deletedEntry(d, t.now));
    else if ('refused' in r) refused.push(r.refused);
    else if ('failed' in r) failures.push(r.failed);
  }
  const out: SweepOutcome = {};
  if (deleted.length > 0)
    out.deletedRules = [...deleted, ...(t.previous ?? [])].slice(0, DELETED_RULES_SHOWN);
  // A transient failure first: it is retried sooner, and the refused ones with it.
  if (failures.length > 0) out.error = failures[0];
  else if (refused.length > 0) out.error = refusalError(refused, t.retryAfterMs);
  return out;
}
