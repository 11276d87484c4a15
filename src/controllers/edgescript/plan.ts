/**
 * `cdnctl diff` of an EdgeScript manifest: the kit's CRUD planner (read-only observe) with the
 * code and the variables' ConfigMaps read from the ConfigMap manifests of the same namespace
 * given in the same run. The plan shows the code by its SHA-256 digest, never the code; a
 * manifest whose ConfigMap is not among them is not compared, naming it. Secrets are not read
 * (cdnctl reads no Kubernetes object), so no secret value can reach the plan.
 */
import type { CdnClient } from '../../cdn/client.js';
import { WaitingError } from '../../runtime/errors.js';
import type { ManagedObject } from '../../runtime/types.js';
import { crudPlanner } from '../kit/crud-plan.js';
import { manifestConfigMaps, type ObjectPlan, type PlanContext } from '../shared/manifest-plan.js';
import { edgeScriptResource, type EdgeScript } from './index.js';
import type { KindPart } from '../kit/kind-parts.js';

/** See the module comment. */
export async function planEdgeScript(
  client: CdnClient,
  obj: ManagedObject,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const maps = manifestConfigMaps(ctx);
  const plan = crudPlanner((conn, o: EdgeScript) => edgeScriptResource(conn, o, maps));
  try {
    return await plan(client, obj, ctx);
  } catch (err) {
    if (!(err instanceof WaitingError)) throw err;
    const note = `${err.message}: compare it together with the ConfigMaps it names`;
    return { action: 'skipped', diffs: [], note };
  }
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planEdgeScript;
