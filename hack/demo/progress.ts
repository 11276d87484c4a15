/**
 * Pure helpers of `make demo`: which of the expected objects are Ready and, for the others,
 * why not (from their conditions), rendered as the progress lines printed while waiting.
 */

/** The fields of an object of the operator's kinds that the demo reads. */
export interface CdnObject {
  kind: string;
  metadata: { name: string; namespace?: string; generation?: number };
  status?: {
    observedGeneration?: number;
    conditions?: {
      type: string;
      status: string;
      reason?: string;
      message?: string;
      observedGeneration?: number;
    }[];
  };
}

/** An object the demo waits for, `Kind/name`. */
export type ObjectRef = string;

/** Result of {@link summarizeReadiness}. */
export interface Readiness {
  ready: ObjectRef[];
  /** Not Ready yet, with the reason in the operator's words. */
  pending: { ref: ObjectRef; why: string }[];
}

/** `Kind/name` of an object. */
export function refOf(o: Pick<CdnObject, 'kind' | 'metadata'>): ObjectRef {
  return `${o.kind}/${o.metadata.name}`;
}

function describeCondition(c: {
  type: string;
  status: string;
  reason?: string;
  message?: string;
}): string {
  const reason = c.reason ? ` ${c.reason}` : '';
  const message = c.message ? `: ${c.message}` : '';
  return `${c.type}=${c.status}${reason}${message}`;
}

/** True when Ready=True was recorded for the object's current generation. */
export function isReady(o: CdnObject): boolean {
  const ready = o.status?.conditions?.find((c) => c.type === 'Ready');
  if (ready?.status !== 'True') return false;
  const observed = ready.observedGeneration ?? o.status?.observedGeneration;
  return o.metadata.generation === undefined || observed === o.metadata.generation;
}

/** Why an object is not Ready: its Ready condition, plus a failing Synced condition. */
export function whyNotReady(o: CdnObject | undefined): string {
  if (!o) return 'not created yet';
  const conditions = o.status?.conditions ?? [];
  if (conditions.length === 0) return 'waiting for the operator to reconcile it';
  const ready = conditions.find((c) => c.type === 'Ready');
  const failing = conditions.filter((c) => c.type === 'Synced' && c.status !== 'True');
  const parts = [...(ready ? [ready] : []), ...failing].map(describeCondition);
  if (ready?.status === 'True') parts.push('for an older generation; reconciling the change');
  return parts.join('; ') || 'no Ready condition yet';
}

/** Splits the expected objects into Ready and pending (absent ones are pending). */
export function summarizeReadiness(expected: ObjectRef[], objects: CdnObject[]): Readiness {
  const byRef = new Map(objects.map((o) => [refOf(o), o]));
  const result: Readiness = { ready: [], pending: [] };
  for (const ref of expected) {
    const o = byRef.get(ref);
    if (o && isReady(o)) result.ready.push(ref);
    else result.pending.push({ ref, why: whyNotReady(o) });
  }
  return result;
}

/** The progress block: a count line, then one line per pending object. */
export function formatProgress(elapsedSeconds: number, r: Readiness): string[] {
  const total = r.ready.length + r.pending.length;
  const head = `  [${String(elapsedSeconds).padStart(3)}s] ${r.ready.length}/${total} Ready`;
  return [head, ...r.pending.map((p) => `         waiting for ${p.ref}: ${truncate(p.why, 160)}`)];
}

function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 3)}...`;
}
