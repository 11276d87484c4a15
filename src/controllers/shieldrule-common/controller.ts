/**
 * Wiring of a shield rule kind (and, through {@link zoneKindParts}, of every kind on a shield
 * zone) into the runtime: the zone (shieldPolicyRef or shieldZoneId) -> the kit's connector
 * (credentials, shared CDN client, marker key) -> {@link RuleExternal}. References: the credentials and the
 * ShieldPolicy named by `spec.shieldPolicyRef` (a change to it re-enqueues the rule). Claims:
 * the rule id under the kind's name and, while the rule may be created, its name on the zone
 * (rule-claims.ts); `spec.shieldZoneId` is checked as a reference.
 */
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ExternalClient, ManagedKind, ObjectReference } from '../../runtime/types.js';
import { connector, type Connection } from '../kit/connector.js';
import { managedNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { credentialReferences } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { PlanNotSufficientError, RuleExternal } from './external.js';
import type { RuleFamily } from './family.js';
import { ruleClaimKind, specIdOf, zonedClaimsOf } from './rule-claims.js';
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

const SPEC_PATHS: Record<string, string> = {
  ruleName: 'spec.name',
  ruleDescription: 'spec.description',
  shieldZoneId: 'spec.shieldZoneId',
};

/**
 * The error classifier of a kind on a shield zone: a plan refusal
 * ({@link PlanNotSufficientError}) is retried slowly (not a hot loop, not a terminal
 * InvalidSpec: upgrading the plan on the platform is picked up without touching the object);
 * the rest as for every kind, an API field named in a platform error shown as the spec path a
 * user edits (`specPaths`: API field -> spec path).
 */
export function shieldErrorClassifier(
  specPaths: Record<string, string>,
): (err: unknown) => ClassifiedError {
  const specPathForField = (apiField: string): string => {
    const path = specPaths[apiField];
    return path ? `${path} (${apiField})` : apiField;
  };
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

/** Classifies a shield rule kind's errors (see {@link shieldErrorClassifier}). */
export const classifyRuleError = shieldErrorClassifier(SPEC_PATHS);

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
    specExternalId: (obj) => specIdOf(claims, obj),
    claimsOf: (obj) => zonedClaimsOf(claims, obj),
    ...zoneKindParts<RuleObject>(
      deps,
      ({ client, ...bound }) => new RuleExternal({ family, api: family.api(client), ...bound }),
    ),
    classifyError: classifyRuleError,
  };
}
