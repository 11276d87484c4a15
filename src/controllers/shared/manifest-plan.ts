/**
 * What `cdnctl diff` asks of a kind ({@link KindPlanner}): what applying one manifest would
 * change on the platform, computed by the kind's own external client in read-only mode.
 */
import pino from 'pino';
import type { CdnClient } from '../../cdn/client.js';
import type {
  ConnectContext,
  ExternalContext,
  FieldDiff,
  ManagedObject,
  Observation,
} from '../../runtime/types.js';
import { adoptionIdOf } from './ownership-schema.js';
import { parseIntegerId } from './platform-id.js';

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

/** The other manifests a plan may refer to. */
export interface PlanContext {
  /** The compared manifests of `kind` in the namespace of the planned one. */
  objectsOf(kind: string): readonly ManagedObject[];
}

/**
 * A kind's planner. `obj` is a manifest of the kind, typed as the kind's own object (declared
 * with method syntax so that a planner of `ContainerApp` fits: the dispatcher only passes
 * manifests of the planner's kind, with a spec present; the values are the user's).
 */
export type KindPlanner = {
  plan(client: CdnClient, obj: ManagedObject, ctx: PlanContext): Promise<ObjectPlan>;
}['plan'];

/**
 * Name -> numeric id each of `objects` adopts (`spec.adoption.id`; e.g. PullZoneConfig name ->
 * its pull zone id): what `cdnctl diff` reads where the operator reads the status id.
 */
export function adoptedIdsByName(objects: readonly ManagedObject[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const o of objects) {
    const id = parseIntegerId(adoptionIdOf(o.spec));
    if (id !== undefined) out.set(o.metadata.name, id);
  }
  return out;
}

/**
 * The ConfigMaps among the compared manifests, read the way the operator reads the cluster's
 * (`ctx.objectsOf` is already the planned object's namespace).
 */
export function manifestConfigMaps(ctx: PlanContext): Pick<ConnectContext, 'readConfigMap'> {
  const maps = ctx.objectsOf('ConfigMap') as ReadonlyArray<{
    metadata: { name: string };
    data?: Record<string, string>;
  }>;
  return {
    readConfigMap: (_ns, name) => Promise.resolve(maps.find((m) => m.metadata.name === name)?.data),
  };
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
