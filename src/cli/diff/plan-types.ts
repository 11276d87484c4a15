/** Shapes shared by the planners of `cdnctl diff`. */
import pino from 'pino';
import type { ExternalContext, FieldDiff, Observation } from '../../runtime/types.js';

/** What applying one object would do on the platform. */
export interface ObjectPlan {
  /** none: nothing changes; update: the diffs are written; create: a new resource is made. */
  action: 'none' | 'update' | 'create' | 'skipped';
  diffs: FieldDiff[];
  /** Platform id of the compared resource. */
  id?: string;
  /** Why the object was not compared (action skipped), or what was assumed. */
  note?: string;
}

/** The external context of a read-only comparison. */
export function diffContext(externalId: string | number | undefined): ExternalContext {
  return {
    ...(externalId === undefined ? {} : { externalId: String(externalId) }),
    createPending: false,
    log: pino({ level: 'silent' }),
    signal: new AbortController().signal,
  };
}

/** The plan an observation describes. */
export function planOf(seen: Observation): ObjectPlan {
  if (!seen.exists) return { action: 'create', diffs: [] };
  return {
    action: seen.diff.length > 0 ? 'update' : 'none',
    diffs: seen.diff,
    ...(seen.externalId !== undefined ? { id: seen.externalId } : {}),
  };
}
