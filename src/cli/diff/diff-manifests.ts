/**
 * `cdnctl diff`: for each manifest of a kind the operator reconciles, what applying it would
 * change on the platform, computed by that kind's own planner (`src/controllers/<kind>/plan.ts`,
 * its external client in read-only mode), found through the list of kinds.
 * Exit code like `kubectl diff`: 0 nothing would change, 1 something would, 2 an error.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import { type KindModule } from '../../controllers/kind-module.js';
import { isOwnApiVersion } from '../../controllers/kind-names.js';
import { findKind, KINDS } from '../../controllers/kinds.js';
import type { ObjectPlan, PlanContext } from '../../controllers/shared/manifest-plan.js';
import { isObserveOnly } from '../../runtime/management-policy.js';
import type { ManagedObject } from '../../runtime/types.js';
import type { Manifest } from './manifests.js';

/** The outcome of one object. */
export interface DiffEntry {
  kind: string;
  namespace: string;
  name: string;
  plan?: ObjectPlan;
  error?: string;
}

/** Every outcome, and the exit code they add up to. */
export interface DiffReport {
  entries: DiffEntry[];
  exitCode: 0 | 1 | 2;
}

/** The note of an observe-only object. */
export const OBSERVE_ONLY_NOTE =
  'observe-only (spec.managementPolicy: Observe): applying it writes nothing';

const nsOf = (m: Manifest): string => m.metadata.namespace ?? 'default';

/** A manifest as the planners read it (a spec always present). */
function objectOf(m: Manifest): ManagedObject {
  return { ...m, spec: m.spec ?? {} } as unknown as ManagedObject;
}

/** The other manifests one in `namespace` may refer to. */
function contextIn(manifests: readonly Manifest[], namespace: string): PlanContext {
  return {
    objectsOf: (kind) =>
      manifests.filter((m) => m.kind === kind && nsOf(m) === namespace).map(objectOf),
  };
}

async function planOne(
  client: CdnClient,
  m: Manifest,
  kind: KindModule | undefined,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  if (!kind?.planner) {
    return {
      action: 'skipped',
      diffs: [],
      note: `cdnctl diff does not compare ${String(m.kind)} objects yet`,
    };
  }
  const obj = objectOf(m);
  // An observe-only object never writes, whatever its spec says (docs/observe-only.md).
  if (isObserveOnly(obj)) return { action: 'none', diffs: [], note: OBSERVE_ONLY_NOTE };
  const plan = await kind.planner();
  return plan(client, obj, ctx);
}

function describeError(e: unknown): string {
  if (isCdnApiError(e))
    return `${e.operation}: ${e.detail}${e.status ? ` [HTTP ${e.status}]` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

/** A kind the operator reconciles nothing for (CdnAccount): its manifests are not compared. */
function isUnreconciled(kind: KindModule | undefined): boolean {
  return kind !== undefined && kind.controller === undefined;
}

/**
 * See the module comment; objects outside the operator's API group, and objects of kinds with
 * no platform resource (CdnAccount), are left out.
 */
export async function diffManifests(
  client: CdnClient,
  manifests: readonly Manifest[],
  kinds: readonly KindModule[] = KINDS,
): Promise<DiffReport> {
  const entries: DiffEntry[] = [];
  for (const m of manifests) {
    const kind = findKind(m.kind, kinds);
    if (!isOwnApiVersion(m.apiVersion) || isUnreconciled(kind)) continue;
    const entry: DiffEntry = { kind: String(m.kind), namespace: nsOf(m), name: m.metadata.name };
    try {
      entry.plan = await planOne(client, m, kind, contextIn(manifests, entry.namespace));
    } catch (e) {
      entry.error = describeError(e);
    }
    entries.push(entry);
  }
  return { entries, exitCode: exitCodeOf(entries) };
}

function exitCodeOf(entries: readonly DiffEntry[]): 0 | 1 | 2 {
  if (entries.some((e) => e.error !== undefined)) return 2;
  const changes = entries.some((e) => e.plan?.action === 'update' || e.plan?.action === 'create');
  return changes ? 1 : 0;
}

function headline(e: DiffEntry): string {
  const at = `${e.kind} ${e.namespace}/${e.name}${e.plan?.id ? ` (id ${e.plan.id})` : ''}`;
  if (e.error !== undefined) return `${at}: error: ${e.error}`;
  const plan = e.plan!;
  if (plan.action === 'create') return `${at}: would be created`;
  if (plan.action === 'skipped') return `${at}: not compared: ${plan.note ?? ''}`;
  if (plan.action === 'none') return `${at}: no changes`;
  return `${at}: ${plan.diffs.length} change(s)`;
}

/** The report as text: one headline per object, one line per change, and a summary. */
export function renderDiffReport(report: DiffReport): string {
  const lines: string[] = [];
  for (const e of report.entries) {
    lines.push(headline(e));
    for (const d of e.plan?.diffs ?? []) lines.push(`  ~ ${d.field}: ${d.live} -> ${d.desired}`);
  }
  const count = (a: ObjectPlan['action']): number =>
    report.entries.filter((e) => e.plan?.action === a).length;
  const errors = report.entries.filter((e) => e.error !== undefined).length;
  lines.push(
    `${report.entries.length} object(s): ${count('none')} unchanged, ${count('update')} to update, ${count('create')} to create, ${count('skipped')} not compared, ${errors} error(s)`,
  );
  return `${lines.join('\n')}\n`;
}
