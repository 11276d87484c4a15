/**
 * `cdnctl diff`: for each manifest of a kind the operator manages, what applying it would change
 * on the platform, computed by that kind's own external client in read-only mode (plan-*.ts).
 * Exit code like `kubectl diff`: 0 nothing would change, 1 something would, 2 an error.
 */
import type { CdnClient } from '../../cdn/client.js';
import { isCdnApiError } from '../../cdn/errors.js';
import type { ContainerApp } from '../../controllers/containerapp/types.js';
import type { PullZoneConfig } from '../../controllers/pullzoneconfig/types.js';
import type { ShieldPolicy } from '../../controllers/shieldpolicy/types.js';
import type { Manifest } from './manifests.js';
import { planContainerApp } from './plan-container-app.js';
import { planStorageZone } from './plan-storage-zone.js';
import type { StorageZone } from '../../controllers/storagezone/types.js';
import { planPullZone } from './plan-pull-zone.js';
import { planShieldPolicy } from './plan-shield-policy.js';
import type { ObjectPlan } from './plan-types.js';

const GROUP = 'cdn.operator.io/';

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

const key = (namespace: string, name: string): string => `${namespace}/${name}`;
const nsOf = (m: Manifest): string => m.metadata.namespace ?? 'default';

/** PullZoneConfig namespace/name -> spec.pullZoneId, for references between manifests. */
function pullZoneIds(manifests: readonly Manifest[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of manifests) {
    const id = m.spec?.pullZoneId;
    if (m.kind === 'PullZoneConfig' && typeof id === 'number')
      out.set(key(nsOf(m), m.metadata.name), id);
  }
  return out;
}

/** The pull zone ids visible from one namespace, by PullZoneConfig name. */
function zonesFrom(all: ReadonlyMap<string, number>, namespace: string): Map<string, number> {
  const prefix = `${namespace}/`;
  return new Map(
    [...all].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]),
  );
}

async function planOne(
  client: CdnClient,
  m: Manifest,
  zones: ReadonlyMap<string, number>,
): Promise<ObjectPlan> {
  const obj = { ...m, spec: m.spec ?? {} } as unknown;
  switch (m.kind) {
    case 'PullZoneConfig':
      return planPullZone(client, obj as PullZoneConfig);
    case 'ShieldPolicy':
      return planShieldPolicy(client, obj as ShieldPolicy, zones);
    case 'ContainerApp':
      return planContainerApp(client, obj as ContainerApp, zones);
    case 'StorageZone':
      return planStorageZone(client, obj as StorageZone);
    default:
      return {
        action: 'skipped',
        diffs: [],
        note: `cdnctl diff does not compare ${String(m.kind)} objects yet`,
      };
  }
}

function describeError(e: unknown): string {
  if (isCdnApiError(e))
    return `${e.operation}: ${e.detail}${e.status ? ` [HTTP ${e.status}]` : ''}`;
  return e instanceof Error ? e.message : String(e);
}

/** See the module comment; objects outside the operator's API group are ignored. */
export async function diffManifests(
  client: CdnClient,
  manifests: readonly Manifest[],
): Promise<DiffReport> {
  const zones = pullZoneIds(manifests);
  const entries: DiffEntry[] = [];
  for (const m of manifests) {
    if (!m.apiVersion?.startsWith(GROUP) || m.kind === 'CdnAccount') continue;
    const entry: DiffEntry = { kind: String(m.kind), namespace: nsOf(m), name: m.metadata.name };
    try {
      entry.plan = await planOne(client, m, zonesFrom(zones, entry.namespace));
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
