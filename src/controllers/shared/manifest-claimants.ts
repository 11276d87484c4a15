/**
 * The claim lookup (`ExternalContext.claimantsOf`) of a `cdnctl diff`: cdnctl has no claim
 * index, so the manifests compared in the same run stand in for it, each with the claims the
 * operator's index would hold for it right after it is applied. They are compared together with
 * the planned object, so each is taken in that object's namespace whatever its file says.
 */
import type { ClaimHolder, ClaimRef, ManagedObject } from '../../runtime/types.js';
import type { PlanContext } from './manifest-plan.js';

/** A kind whose manifests claim, and how its claims are read from an object. */
export interface ClaimSource {
  kind: string;
  claimsOf(obj: ManagedObject): ClaimRef[];
}

const keyOf = (type: string, id: string): string => `${type}\u0000${id}`;

/** See the module comment: the claimants of the `sources` manifests, in `namespace`. */
export function manifestClaimants(
  namespace: string,
  sources: readonly ClaimSource[],
  ctx: PlanContext,
): (type: string, id: string) => readonly ClaimHolder[] {
  const index = new Map<string, ClaimHolder[]>();
  for (const source of sources) {
    for (const manifest of ctx.objectsOf(source.kind)) {
      const obj = { ...manifest, metadata: { ...manifest.metadata, namespace } };
      for (const claim of source.claimsOf(obj)) {
        const key = keyOf(claim.type, claim.id);
        const holder: ClaimHolder = {
          kind: source.kind,
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
