/**
 * The shield zone a rule lives on: the `status.shieldZoneId` of the ShieldPolicy named by
 * `spec.shieldPolicyRef` (same namespace), or a raw `spec.shieldZoneId`, a reference like a
 * `*Ref`: refused by the runtime (`ReferenceNotAllowed`, nothing sent) when a ShieldPolicy of
 * another namespace claims the zone (claim type `ShieldZone`).
 */
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type {
  ConnectContext,
  IdReference,
  ManagedObject,
  ObjectReference,
} from '../../runtime/types.js';
import { namedRefOf } from '../kit/ref-or-id.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { SHIELD_POLICY_NAMES, SHIELD_ZONE_CLAIM } from '../shieldpolicy/types.js';
import type { ShieldRuleSpecBase, ShieldRuleStatusBase } from './types.js';

/**
 * An object on a shield zone (a shield rule, a ShieldAccessList): what the zone code reads of
 * it, its shieldPolicyRef or raw shieldZoneId and the zone recorded in status.
 */
export interface ZonedObject extends ManagedObject {
  spec?: { shieldPolicyRef?: { name: string }; shieldZoneId?: number } & Record<string, unknown>;
  status?: { shieldZoneId?: number };
}

/** A shield rule object as the common code reads it. */
export interface RuleObject extends ZonedObject {
  spec?: ShieldRuleSpecBase & Record<string, unknown>;
  status?: ShieldRuleStatusBase;
}

/** The ShieldPolicy a rule names with `spec.shieldPolicyRef`, if any. */
export function shieldPolicyRefOf(obj: ZonedObject): ObjectReference | undefined {
  return namedRefOf(obj, 'shieldPolicyRef', SHIELD_POLICY_NAMES);
}

/** `spec.shieldZoneId` as a reference checked against the ShieldPolicies' claims. */
export function zoneIdReferencesOf(obj: ZonedObject): IdReference[] {
  const id = parseIntegerId(obj.spec?.shieldZoneId);
  return id === undefined
    ? []
    : [{ field: 'spec.shieldZoneId', type: SHIELD_ZONE_CLAIM, id: String(id) }];
}

function directZoneId(direct: unknown): number {
  const id = parseIntegerId(direct);
  if (id !== undefined) return id;
  throw new TerminalError(
    SyncedReason.InvalidSpec,
    `cannot use spec.shieldZoneId ${JSON.stringify(direct)}: expected a positive integer`,
  );
}

/**
 * Resolves the shield zone id. While the referenced ShieldPolicy is missing or has no zone yet
 * this throws a WaitingError (ReferenceNotReady). During deletion a vanished reference falls
 * back to the zone recorded in status; undefined then means the zone is not known.
 */
export function resolveShieldZoneId(
  obj: ZonedObject,
  getObject: ConnectContext['getObject'],
): number | undefined {
  const ref = shieldPolicyRefOf(obj);
  const direct = obj.spec?.shieldZoneId;
  if ((ref === undefined) === (direct === undefined)) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      'cannot resolve the shield zone: set exactly one of spec.shieldPolicyRef and spec.shieldZoneId',
    );
  }
  if (direct !== undefined) return directZoneId(direct);
  const target = ref as ObjectReference;
  const policy = getObject(target);
  const referenced = parseIntegerId(policy?.status?.shieldZoneId);
  if (referenced !== undefined) return referenced;
  if (isDeleting(obj)) return parseIntegerId(obj.status?.shieldZoneId);
  throw new WaitingError(
    ReadyReason.ReferenceNotReady,
    `cannot resolve spec.shieldPolicyRef: ShieldPolicy ${target.namespace}/${target.name} ${
      policy ? 'has no status.shieldZoneId yet' : 'was not found'
    }`,
  );
}
