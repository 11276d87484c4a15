/**
 * Reads and writes the curated access lists of curated-lists.ts for one reconcile pass:
 * observe reads the zone's lists once (`GET /shield/shield-zone/{id}/access-lists`, none when
 * the spec names no curated list) and hands the matched lists to update through the
 * observation; update sends one `PATCH .../access-lists/configurations/{configurationId}` per
 * list with a differing member, carrying only those members. A list the zone's plan does not
 * include is held back (checked before sending, and a refusal of the platform counts the same),
 * the others are still written.
 */
import type { CallOptions } from '../../cdn/options.js';
import type { AccessListConfiguration, AccessListsOverview } from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import {
  curatedPatch,
  planCuratedLists,
  planProblems,
  type CuratedListSpec,
  type CuratedMatch,
  type CuratedPlan,
  type CuratedProblem,
  type CuratedTarget,
} from './curated-lists.js';
import { PlanType } from './enums.js';
import { isPlanRefusal } from './plan-limits.js';

/** The client calls of the curated lists (satisfied by `CdnClient`). */
export interface CuratedListApi {
  listAccessLists(shieldZoneId: number, opts?: CallOptions): Promise<AccessListsOverview>;
  updateAccessListConfiguration(
    shieldZoneId: number,
    configurationId: number,
    patch: AccessListConfiguration,
    opts?: CallOptions,
  ): Promise<AccessListConfiguration>;
}

/** The differences of the curated lists from the target, and what was read. */
export interface CuratedObserved {
  diffs: FieldDiff[];
  /** Absent when the spec names no curated list (nothing was read). */
  seen?: CuratedPlan;
}

/** Reads the zone's lists when the spec names any, and compares them with `target`. */
export async function observeCuratedLists(
  api: CuratedListApi,
  entries: readonly CuratedListSpec[] | undefined,
  shieldZoneId: number,
  target: CuratedTarget,
  opts: CallOptions,
): Promise<CuratedObserved> {
  if (!entries || entries.length === 0) return { diffs: [] };
  const plan = planCuratedLists(entries, await api.listAccessLists(shieldZoneId, opts), target);
  return { diffs: plan.diffs, seen: plan };
}

/** What {@link applyCuratedLists} did: the lists written and the entries held back. */
export interface CuratedApplied {
  written: string[];
  problems: CuratedProblem[];
}

function refusedFor(m: CuratedMatch): CuratedProblem {
  const plan = PlanType.fromWire(m.list.requiredPlan);
  return { name: m.name, kind: 'PlanNotSufficient', ...(plan ? { plan } : {}) };
}

/**
 * Sends one PATCH per matched list with a member in `diff` (entries of the observe that made
 * `seen`), except those {@link planProblems} holds back for the zone's plan (`zonePlan`, the
 * ShieldPlanType number; unknown: the platform decides). A plan refusal of the platform is a
 * problem like the check's; any other failure throws.
 */
export async function applyCuratedLists(
  api: CuratedListApi,
  seen: CuratedPlan | undefined,
  diff: readonly FieldDiff[],
  shieldZoneId: number,
  zonePlan: number | undefined,
  opts: CallOptions,
): Promise<CuratedApplied> {
  if (!seen) return { written: [], problems: [] };
  const differing = new Set(diff.map((d) => d.field));
  const held = planProblems(seen.matches, zonePlan);
  const heldNames = new Set(held.map((p) => p.name));
  const out: CuratedApplied = { written: [], problems: [...seen.problems, ...held] };
  for (const m of seen.matches) {
    const patch = curatedPatch(m, differing);
    if (heldNames.has(m.name) || Object.keys(patch).length === 0) continue;
    try {
      await api.updateAccessListConfiguration(shieldZoneId, m.list.configurationId, patch, opts);
      out.written.push(m.name);
    } catch (err) {
      if (!isPlanRefusal(err)) throw err;
      out.problems.push(refusedFor(m));
    }
  }
  return out;
}
