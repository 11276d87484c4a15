/**
 * The ownership check of a raw `spec.shieldZoneId` that no ShieldPolicy manages (every kind on a
 * shield zone). Such a zone may still protect a pull zone another object manages (a
 * PullZoneConfig, perhaps of another namespace), known only after a read: checked in observe,
 * before any write. The claim index cannot tell the pull zone's namespace: any managed one is
 * refused (refusing too much is safe).
 */
import { TerminalError } from '../../runtime/errors.js';
import { isDeleting } from '../../runtime/finalizer.js';
import type { ExternalContext } from '../../runtime/types.js';
import { PULL_ZONE_CONFIG_NAMES } from '../pullzoneconfig/types.js';
import { SHIELD_ZONE_CLAIM } from '../shieldpolicy/types.js';
import type { ZonedObject } from './zone.js';

/** Reason when a raw shield zone id names the zone of a pull zone another object manages. */
export const ReferenceNotAllowed = 'ReferenceNotAllowed';

/** The pull zone a shield zone protects (one GET); undefined when it has none. */
export type PullZoneOf = (shieldZoneId: number, signal: AbortSignal) => Promise<number | undefined>;

/**
 * Throws `ReferenceNotAllowed` when `obj` names shield zone `zone` by raw id, no ShieldPolicy
 * manages it, and its pull zone is managed by another object (see the module comment). Without
 * `pullZoneOf` (cdnctl diff) or a claim index nothing is checked.
 */
export async function checkUnmanagedZone(
  obj: ZonedObject,
  zone: number | undefined,
  pullZoneOf: PullZoneOf | undefined,
  ctx: ExternalContext,
): Promise<void> {
  const claimed = (type: string, id: number): boolean =>
    ctx.claimedByOther?.(type, String(id)) === true;
  if (obj.spec?.shieldZoneId === undefined || zone === undefined || isDeleting(obj)) return;
  if (!pullZoneOf || !ctx.claimedByOther || claimed(SHIELD_ZONE_CLAIM, zone)) return;
  const pullZoneId = await pullZoneOf(zone, ctx.signal);
  if (pullZoneId === undefined || !claimed(PULL_ZONE_CONFIG_NAMES.kind, pullZoneId)) return;
  throw new TerminalError(
    ReferenceNotAllowed,
    `cannot use spec.shieldZoneId ${zone}: it protects pull zone ${pullZoneId}, which a PullZoneConfig manages, and no ShieldPolicy manages the shield zone; nothing is sent to the platform for this object (put a ShieldPolicy on the pull zone in the namespace that manages it and name it with spec.shieldPolicyRef)`,
  );
}
