/**
 * The claim index of a `cdnctl diff` of a ShieldPolicy with `rulePolicy: Exact`. The operator
 * never deletes an item a ShieldWafRule, ShieldRateLimit or ShieldAccessList claims
 * (rule-sweep.ts); cdnctl has no claim index, so the manifests of those kinds compared in the
 * same run (the policy's namespace) stand in for it, each with the claims the operator's index
 * would hold for it right after it is applied (shieldrule-common/rule-claims.ts): the id it
 * adopts, else the name it declares on this policy's zone, not yet recorded. A live item one
 * of them adopts by id, or whose name one of them declares, is therefore not planned as deleted.
 */
import type { ClaimHolder } from '../../runtime/types.js';
import type { PlanContext } from '../shared/manifest-plan.js';
import { ZONED_CLAIM_KINDS, zonedClaimsOf } from '../shieldrule-common/rule-claims.js';
import type { ZonedObject } from '../shieldrule-common/zone.js';
import type { ShieldPolicy } from './types.js';

const keyOf = (type: string, id: string): string => `${type}\u0000${id}`;

/** The claim lookup (`ExternalContext.claimantsOf`) a diff of `policy` runs with. */
export function manifestRuleClaims(
  policy: ShieldPolicy,
  ctx: PlanContext,
): (type: string, id: string) => readonly ClaimHolder[] {
  const namespace = policy.metadata.namespace;
  const index = new Map<string, ClaimHolder[]>();
  for (const k of ZONED_CLAIM_KINDS) {
    for (const manifest of ctx.objectsOf(k.kind)) {
      // Compared together, so in the policy's namespace whatever the file says.
      const obj = { ...manifest, metadata: { ...manifest.metadata, namespace } } as ZonedObject;
      for (const claim of zonedClaimsOf(k, obj)) {
        const key = keyOf(claim.type, claim.id);
        const holder: ClaimHolder = {
          kind: k.kind,
          namespace,
          name: obj.metadata.name,
          recorded: claim.recorded,
        };
        index.set(key, [...(index.get(key) ?? []), holder]);
      }
    }
  }
  return (type, id) => index.get(keyOf(type, id)) ?? [];
}
