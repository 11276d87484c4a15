/**
 * Curated access lists of a shield zone (`spec.curatedAccessLists`): the platform-maintained
 * lists (Tor exit nodes, VPN providers, ...) every zone has, each with the zone's own
 * configuration (`isEnabled`, `action`), named in the spec by the list's name on the platform.
 * Pure: matching the spec to the zone's lists (the `managedLists` of
 * `GET /shield/shield-zone/{id}/access-lists`), the plan entries, the PATCH of each list's
 * configuration, the plan check the platform applies, and the reset and export forms.
 *
 * The plan check: a curated list has a `requiredPlan`; the platform refuses to enable a list
 * above the zone's plan (403). The operator checks it before sending: such a list is held back
 * (`PlanNotSufficient`, every other list and setting still applied), so a plan upgrade is
 * picked up at the next check. A list already enabled is not checked again (a plan downgrade
 * never blocks changing its action).
 */
import type {
  AccessListConfiguration,
  AccessListDetails,
  AccessListsOverview,
} from '../../cdn/security-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { AccessListAction, PlanType, type AccessListActionName } from './enums.js';

/** One entry of `spec.curatedAccessLists`: a member left out is not managed. */
export interface CuratedListSpec {
  /** The list's name on the platform (`Tor Exit Nodes`). */
  name: string;
  enabled?: boolean;
  action?: AccessListActionName;
}

/** The configuration of one list as the platform's update call takes it. */
export interface CuratedConfig {
  isEnabled?: boolean;
  action?: AccessListConfiguration['action'];
}

/** Why a spec entry cannot be written. */
export type CuratedProblemKind = 'PlanNotSufficient' | 'UnknownList' | 'AmbiguousName';

/** One spec entry that is held back, with its reason. */
export interface CuratedProblem {
  name: string;
  kind: CuratedProblemKind;
  /** PlanNotSufficient: the plan the list needs, by name. */
  plan?: string;
  /** UnknownList: the names the zone has. */
  known?: string[];
}

/** One spec entry matched to the zone's list, with what should be written. */
export interface CuratedMatch {
  name: string;
  list: AccessListDetails;
  target: CuratedConfig;
}

/** What the spec asks of the zone's curated lists, compared with them. */
export interface CuratedPlan {
  matches: CuratedMatch[];
  problems: CuratedProblem[];
  diffs: FieldDiff[];
}

/** Which values an entry is compared with: the spec's, or a fresh zone's (deleting under Reset). */
export type CuratedTarget = 'desired' | 'reset';

/**
 * A fresh zone's configuration of every curated list: off, no action (cdn-sim's; the shield
 * document does not state it, docs/shieldpolicy.md).
 */
const RESET: Required<CuratedConfig> = { isEnabled: false, action: 0 };

/** The plan-entry name of one member (`curatedAccessLists[Tor Exit Nodes].enabled`). */
export function curatedField(name: string, member: 'enabled' | 'action'): string {
  return `curatedAccessLists[${name}].${member}`;
}

/** True when a plan entry belongs to the curated lists. */
export function isCuratedField(field: string): boolean {
  return field.startsWith('curatedAccessLists[');
}

/** The wire value of an action name (the enum table holds only the document's values). */
function wireAction(name: AccessListActionName): CuratedConfig['action'] {
  return AccessListAction.toWire(name) as CuratedConfig['action'];
}

function targetOf(entry: CuratedListSpec, target: CuratedTarget): CuratedConfig {
  const out: CuratedConfig = {};
  if (entry.enabled !== undefined)
    out.isEnabled = target === 'reset' ? RESET.isEnabled : entry.enabled;
  if (entry.action !== undefined)
    out.action = target === 'reset' ? RESET.action : wireAction(entry.action);
  return out;
}

/** The zone's list of `name`: exact, else the one list whose name differs only in case. */
function findList(
  lists: readonly AccessListDetails[],
  name: string,
): AccessListDetails | CuratedProblem {
  const exact = lists.filter((l) => l.name === name);
  const found =
    exact.length > 0 ? exact : lists.filter((l) => l.name?.toLowerCase() === name.toLowerCase());
  if (found.length === 1) return found[0]!;
  if (found.length > 1) return { name, kind: 'AmbiguousName' };
  const known = lists.map((l) => l.name ?? '').filter((n) => n !== '');
  return { name, kind: 'UnknownList', known };
}

function renderAction(value: unknown): string {
  return AccessListAction.fromWire(value) ?? String(value);
}

function diffOf(name: string, target: CuratedConfig, list: AccessListDetails): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  if (target.isEnabled !== undefined && target.isEnabled !== list.isEnabled)
    diffs.push({
      field: curatedField(name, 'enabled'),
      live: String(list.isEnabled),
      desired: String(target.isEnabled),
    });
  if (target.action !== undefined && target.action !== list.action)
    diffs.push({
      field: curatedField(name, 'action'),
      live: renderAction(list.action),
      desired: renderAction(target.action),
    });
  return diffs;
}

/** A plan entry that keeps a held-back or unknown entry pending, so update reports it. */
function problemDiff(entry: CuratedListSpec, problem: CuratedProblem): FieldDiff {
  const want = [
    ...(entry.enabled !== undefined ? [`enabled: ${String(entry.enabled)}`] : []),
    ...(entry.action !== undefined ? [`action: ${entry.action}`] : []),
  ].join(', ');
  const live = problem.kind === 'UnknownList' ? '<no such list>' : '<ambiguous name>';
  return { field: `curatedAccessLists[${entry.name}]`, live, desired: want || '<managed>' };
}

/**
 * Matches the spec entries to the zone's curated lists and compares them with `target`. An
 * entry whose name the zone does not have (or has twice) is a problem with a plan entry of
 * its own; the plan check is {@link planProblems}'s.
 */
export function planCuratedLists(
  entries: readonly CuratedListSpec[],
  overview: AccessListsOverview,
  target: CuratedTarget,
): CuratedPlan {
  const lists = overview.managedLists ?? [];
  const out: CuratedPlan = { matches: [], problems: [], diffs: [] };
  for (const entry of entries) {
    const found = findList(lists, entry.name);
    if ('kind' in found) {
      // A reset has nothing to put back on a list the zone does not have.
      if (target === 'reset') continue;
      out.problems.push(found);
      out.diffs.push(problemDiff(entry, found));
      continue;
    }
    const want = targetOf(entry, target);
    out.matches.push({ name: entry.name, list: found, target: want });
    out.diffs.push(...diffOf(entry.name, want, found));
  }
  return out;
}

/**
 * The entries whose write would enable a list the zone's plan (`zonePlan`, a ShieldPlanType
 * number; unknown: not checked) does not include.
 */
export function planProblems(
  matches: readonly CuratedMatch[],
  zonePlan: number | undefined,
): CuratedProblem[] {
  if (zonePlan === undefined) return [];
  return matches
    .filter((m) => m.target.isEnabled === true && m.list.isEnabled !== true)
    .filter((m) => typeof m.list.requiredPlan === 'number' && m.list.requiredPlan > zonePlan)
    .map((m) => ({
      name: m.name,
      kind: 'PlanNotSufficient' as const,
      plan: PlanType.fromWire(m.list.requiredPlan) ?? String(m.list.requiredPlan),
    }));
}

/** The PATCH body of one matched list: the members whose plan entry is in `differing`. */
export function curatedPatch(m: CuratedMatch, differing: ReadonlySet<string>): CuratedConfig {
  const patch: CuratedConfig = {};
  if (differing.has(curatedField(m.name, 'enabled'))) patch.isEnabled = m.target.isEnabled;
  if (differing.has(curatedField(m.name, 'action'))) patch.action = m.target.action;
  return patch;
}

function describeProblem(p: CuratedProblem, zonePlan: string | undefined): string {
  switch (p.kind) {
    case 'PlanNotSufficient':
      return `spec.curatedAccessLists[${p.name}]: the list needs the ${p.plan ?? 'a higher'} plan or higher; the zone's plan is ${zonePlan ?? 'lower'}`;
    case 'AmbiguousName':
      return `spec.curatedAccessLists[${p.name}]: several curated lists of the zone have this name`;
    default:
      return `spec.curatedAccessLists[${p.name}]: the zone has no curated access list of this name (it has: ${(p.known ?? []).join(', ') || 'none'})`;
  }
}

/**
 * Thrown after the rest of the policy was applied when curated list entries were held back.
 * PlanNotSufficient when every problem is the plan, else InvalidSpec; retried after
 * `retryAfterMs` (the poll interval: a plan upgraded on the dashboard is picked up).
 */
export class CuratedListError extends Error {
  readonly reason: string;
  constructor(
    readonly problems: readonly CuratedProblem[],
    zonePlan: string | undefined,
    readonly retryAfterMs?: number,
  ) {
    super(
      `cannot apply these curated access lists, nothing was written for them: ${problems.map((p) => describeProblem(p, zonePlan)).join('; ')}`,
    );
    this.name = 'CuratedListError';
    this.reason = problems.every((p) => p.kind === 'PlanNotSufficient')
      ? 'PlanNotSufficient'
      : 'InvalidSpec';
  }
}

/**
 * The spec entries of a zone's curated lists for `cdnctl export`: every list whose
 * configuration is not a fresh zone's (on, or an action set), with both members, so applying
 * the export changes nothing and a list left at the defaults stays unmanaged.
 */
export function exportCuratedLists(overview: AccessListsOverview): CuratedListSpec[] {
  const lists = overview.managedLists ?? [];
  const count = (name: string): number => lists.filter((l) => l.name === name).length;
  const out: CuratedListSpec[] = [];
  for (const l of lists) {
    const action = AccessListAction.fromWire(l.action);
    // A name the zone has twice cannot name one list in the spec.
    if (!l.name || action === undefined || count(l.name) > 1) continue;
    if (l.isEnabled === RESET.isEnabled && l.action === RESET.action) continue;
    out.push({ name: l.name, enabled: l.isEnabled, action });
  }
  return out;
}
