/**
 * Wiring of a shield rule kind ({@link zoneKindParts} serves any kind on a shield zone): the
 * zone (shieldPolicyRef or shieldZoneId), then the kit's connector, then the rule resource
 * (external.ts). A change to the named ShieldPolicy re-enqueues the object; claims:
 * rule-claims.ts; `spec.shieldZoneId` is checked as a reference.
 */
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ExternalClient, ManagedKind, ObjectReference } from '../../runtime/types.js';
import { connector, type Connection } from '../kit/connector.js';
import { CrudExternal } from '../kit/crud-external.js';
import { specPathOf, type AnyField } from '../kit/fields.js';
import { managedNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { credentialReferences } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { PlanNotSufficientError, ruleResource } from './external.js';
import type { RuleFamily } from './family.js';
import { ruleClaimKind, zonedClaimsOf } from './rule-claims.js';
import {
  resolveShieldZoneId,
  shieldPolicyRefOf,
  zoneIdReferencesOf,
  type RuleObject,
  type ZonedObject,
} from './zone.js';
import type { PullZoneOf } from './unmanaged-zone.js';

/** Synced reason while the zone's plan does not allow the rule. */
export const PlanNotSufficient = 'PlanNotSufficient';
/** How long a rule the plan refused waits before it is tried again (a plan change is rare). */
export const PLAN_RETRY_MS = 5 * 60_000;

/**
 * The error classifier of a kind on a shield zone: a plan refusal is retried slowly (not a hot
 * loop, not InvalidSpec: a plan upgrade is picked up without touching the object); the rest as
 * for every kind, a platform field shown as its spec path (the table's `fields`, `specPaths`).
 */
export function shieldErrorClassifier(
  specPaths: Record<string, string>,
  fields: readonly AnyField[] = [],
): (err: unknown) => ClassifiedError {
  const specPathForField = (apiField: string): string => specPathOf(fields, apiField, specPaths);
  return (err) => {
    if (err instanceof PlanNotSufficientError) {
      return {
        class: 'retryable',
        reason: PlanNotSufficient,
        message: err.message,
        retryAfterMs: PLAN_RETRY_MS,
        notApplied: true,
      };
    }
    return classifyCdnError(err, { specPathForField });
  };
}

/** What a kind on a shield zone is connected with (see {@link zoneKindParts}). */
export interface ZoneConnection extends Connection {
  /** The zone; undefined only while deleting with the zone unknown. */
  shieldZoneId: number | undefined;
  /** For the ownership check of a raw `spec.shieldZoneId` (unmanaged-zone.ts). */
  pullZoneOf: PullZoneOf;
}

/**
 * The parts of the ManagedKind every kind on a shield zone shares: `connect` (the zone from
 * shieldPolicyRef or shieldZoneId, the credentials, the shared CDN client, then `make`), the
 * references (credentials and the ShieldPolicy, whose change re-enqueues the object) and
 * `spec.shieldZoneId` as an id reference.
 */
export function zoneKindParts<T extends ZonedObject>(
  deps: ControllerDeps,
  make: (c: ZoneConnection) => ExternalClient<T>,
): Pick<ManagedKind<T>, 'connect' | 'references' | 'idReferences'> {
  return {
    async connect(obj, ctx) {
      // The zone first: a spec naming none is refused before its credentials are read.
      const shieldZoneId = resolveShieldZoneId(obj, (ref) => ctx.getObject(ref));
      const build = connector<T>(deps, (conn) =>
        make({
          ...conn,
          shieldZoneId,
          pullZoneOf: async (id, signal) =>
            (await conn.client.getShieldZone(id, { signal })).pullZoneId ?? undefined,
        }),
      );
      return build(obj, ctx);
    },
    idReferences: zoneIdReferencesOf,
    references(obj): ObjectReference[] {
      const refs = credentialReferences(obj, deps);
      const policy = shieldPolicyRefOf(obj);
      return policy ? [...refs, policy] : refs;
    },
  };
}

/** The ManagedKind of one shield rule kind. */
export function createRuleKind(family: RuleFamily, deps: ControllerDeps): ManagedKind<RuleObject> {
  const claims = ruleClaimKind(family.names.kind);
  return {
    ...managedNames(family.names),
    idStatusField: claims.idStatusField,
    specExternalId: (obj) => adoptionIdOf(obj.spec),
    claimsOf: (obj) => zonedClaimsOf(claims, obj),
    ...zoneKindParts<RuleObject>(
      deps,
      ({ client, ...bound }) =>
        new CrudExternal(ruleResource({ family, api: family.api(client), ...bound })),
    ),
    classifyError: shieldErrorClassifier({ shieldZoneId: 'spec.shieldZoneId' }, family.members),
  };
}
