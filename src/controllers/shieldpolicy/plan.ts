/**
 * What applying a ShieldPolicy would change, computed by the operator's own external client
 * (createShieldExternal(...).observe: diffZone over the merged live zone), read-only. The
 * target is `spec.pullZoneId`, or the `spec.pullZoneId` of the PullZoneConfig named by
 * `spec.pullZoneRef` among the compared manifests; the HTML of `spec.customPages` comes from
 * the ConfigMaps among them. Under `rulePolicy: Exact` the items the rule manifests compared in
 * the same run claim are not planned as deleted (plan-claims.ts), as the operator would not
 * delete them.
 */
import type { CdnClient } from '../../cdn/client.js';
import {
  diffContext,
  adoptedIdsByName,
  manifestConfigMaps,
  type ObjectPlan,
  type PlanContext,
} from '../shared/manifest-plan.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { createShieldExternal, createShieldShared } from './external.js';
import type { ShieldPolicy } from './types.js';
import { WaitingError } from '../../runtime/errors.js';
import { resolveCustomPages } from './custom-page-refs.js';
import type { ResolvedPage } from './custom-pages.js';
import { manifestRuleClaims } from './plan-claims.js';
import type { KindPart } from '../kit/kind-parts.js';

function targetOf(obj: ShieldPolicy, ctx: PlanContext): number | undefined {
  const spec = obj.spec ?? {};
  if (typeof spec.pullZoneId === 'number') return spec.pullZoneId;
  const ref = spec.pullZoneRef?.name;
  if (ref === undefined) return undefined;
  return adoptedIdsByName(ctx.objectsOf(PULL_ZONE_CONFIG_NAMES.kind)).get(ref);
}

/** See the module comment (`cdnctl diff` of a ShieldPolicy manifest). */
export async function planShieldPolicy(
  client: CdnClient,
  obj: ShieldPolicy,
  ctx: PlanContext,
): Promise<ObjectPlan> {
  const pullZoneId = targetOf(obj, ctx);
  if (pullZoneId === undefined) {
    return {
      action: 'skipped',
      diffs: [],
      note: 'the target pull zone has no id yet (its PullZoneConfig creates it): compare again once it exists',
    };
  }
  let pages: ResolvedPage[];
  try {
    pages = await resolveCustomPages(obj, manifestConfigMaps(ctx));
  } catch (err) {
    if (!(err instanceof WaitingError)) throw err;
    const note = `${err.message}: compare it together with the ConfigMaps its customPages name`;
    return { action: 'skipped', diffs: [], note };
  }
  const external = createShieldExternal({
    api: client,
    account: 'cdnctl-diff',
    pullZoneId,
    pollIntervalMs: 60_000,
    shared: createShieldShared(),
    pages,
    // Rule metrics and triggered rules are status only: reading them changes nothing and
    // costs calls.
    statusReads: false,
  });
  const context = { ...diffContext(undefined), claimantsOf: manifestRuleClaims(obj, ctx) };
  const seen = await external.observe(obj, context);
  if (!seen.exists) return { action: 'create', diffs: [] };
  return {
    action: seen.diff.length > 0 ? 'update' : 'none',
    diffs: seen.diff,
    id: seen.externalId,
  };
}

/** The kind's `cdnctl diff` planner, under its part's name (kit/kind-parts.ts). */
export const planner: KindPart<'planner'> = planShieldPolicy;
