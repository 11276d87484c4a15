/**
 * The pull zone a ShieldPolicy protects: `spec.pullZoneId`, or the id recorded in the status of
 * the PullZoneConfig named by `spec.pullZoneRef` (same namespace).
 */
import { statusIdOf } from '../kit/ref-or-id.js';
import { TerminalError, WaitingError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import { ReadyReason, SyncedReason } from '../../runtime/reasons.js';
import type { ConnectContext, IdReference, ObjectReference } from '../../runtime/types.js';
import { namedRefOf } from '../kit/ref-or-id.js';
import { parseIntegerId } from '../shared/platform-id.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import type { ShieldPolicy } from './types.js';

/** The PullZoneConfig a policy refers to, if it uses `spec.pullZoneRef`. */
export function pullZoneConfigRef(obj: ShieldPolicy): ObjectReference | undefined {
  return namedRefOf(obj, 'pullZoneRef', PULL_ZONE_CONFIG_NAMES);
}

/**
 * The target given by id (`spec.pullZoneId`): a reference checked by the runtime like
 * `pullZoneRef` (ReferenceNotAllowed when another namespace manages the zone), so a policy
 * cannot change the shield of another tenant's zone.
 */
export function idReferencesOf(obj: ShieldPolicy): IdReference[] {
  const id = parseIntegerId(obj.spec?.pullZoneId);
  return id === undefined
    ? []
    : [{ field: 'spec.pullZoneId', type: 'PullZoneConfig', id: String(id) }];
}

function directId(direct: unknown): number {
  const id = parseIntegerId(direct);
  if (id === undefined) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      `cannot use spec.pullZoneId ${JSON.stringify(direct)}: expected a positive integer`,
    );
  }
  return id;
}

/**
 * Resolves the pull zone id. While the referenced PullZoneConfig is missing or has no id yet
 * this throws a WaitingError (ReferenceNotReady). During deletion a vanished reference falls
 * back to the id recorded in this policy's status; undefined means there is nothing to reset.
 */
export function resolvePullZoneId(
  obj: ShieldPolicy,
  getObject: ConnectContext['getObject'],
): number | undefined {
  const spec = obj.spec ?? {};
  const ref = pullZoneConfigRef(obj);
  const direct = spec.pullZoneId;
  if ((ref === undefined) === (direct === undefined)) {
    throw new TerminalError(
      SyncedReason.InvalidSpec,
      'cannot resolve the target: set exactly one of spec.pullZoneRef and spec.pullZoneId',
    );
  }
  if (direct !== undefined) return directId(direct);
  const target = ref as ObjectReference;
  const referenced = statusIdOf(getObject(target), 'pullZoneId');
  if (referenced !== undefined) return referenced;
  if (isDeleting(obj)) return parseIntegerId(obj.status?.pullZoneId);
  const found = getObject(target) !== undefined;
  throw new WaitingError(
    ReadyReason.ReferenceNotReady,
    `cannot resolve spec.pullZoneRef: PullZoneConfig ${target.namespace}/${target.name} ${
      found ? 'has no status.pullZoneId yet' : 'was not found'
    }`,
  );
}
