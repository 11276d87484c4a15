/**
 * The claim index of a `cdnctl diff` of a ShieldPolicy with `rulePolicy: Exact`. The operator
 * never deletes an item a ShieldWafRule, ShieldRateLimit or ShieldAccessList claims
 * (rule-sweep.ts); cdnctl has no claim index, so the manifests of those kinds compared in the
 * same run (the policy's namespace) stand in for it, each with the claims the operator's index
 * would hold for it right after it is applied (shieldrule-common/rule-claims.ts): the id it
 * adopts, else the name it declares on this policy's zone, not yet recorded. A live item one
 * of them adopts by id, or whose name one of them declares, is therefore not planned as deleted.
 */
import type { ClaimHolder, ManagedObject } from '../../runtime/types.js';
import { manifestClaimants } from '../shared/manifest-claimants.js';
import type { PlanContext } from '../shared/manifest-plan.js';
import { ZONED_CLAIM_KINDS, zonedClaimsOf } from '../shieldrule-common/rule-claims.js';
import type { ZonedObject } from '../shieldrule-common/zone.js';
import type { ShieldPolicy } from './types.js';

/** The claim lookup (`ExternalContext.claimantsOf`) a diff of `policy` runs with. */
export function manifestRuleClaims(
  policy: ShieldPolicy,
  ctx: PlanContext,
): (type: string, id: string) => readonly ClaimHolder[] {
  const sources = ZONED_CLAIM_KINDS.map((k) => ({
    kind: k.kind,
    claimsOf: (obj: ManagedObject) => zonedClaimsOf(k, obj as ZonedObject),
  }));
  return manifestClaimants(policy.metadata.namespace, sources, ctx);
}
