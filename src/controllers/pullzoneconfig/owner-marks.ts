/**
 * How a pull zone the platform made names its owner on the platform: its origin type and the
 * member holding the owner's platform id. What `cdnctl export` and `cdnctl diff` read, having
 * no owner status (the operator reads the owner's status: pull-zone-from.ts). One row per owner
 * kind of the owner table.
 */
import type { PullZone } from '../../cdn/types.js';
import { CONTAINER_APP_NAMES } from '../containerapp/types.js';
import { DNS_RECORD_NAMES } from '../dnsrecord/types.js';
import { EDGE_SCRIPT_NAMES } from '../edgescript/types.js';
import { ENUMS } from './fields.js';

/** One owner kind's mark on the zones the platform makes for it. */
interface OwnerMark {
  kind: string;
  /** The zone's `OriginType` (by name). */
  originType: (typeof ENUMS.OriginType)[number];
  /** The owner's platform id as the zone records it. */
  ownerIdOf(zone: PullZone): unknown;
  /**
   * Where the owner's exported manifest names the zone, per link member (kit/link-path.ts, on
   * the spec), for an owner with several zones.
   */
  manifestIdPath?: string;
}

const OWNER_MARKS: readonly OwnerMark[] = [
  { kind: DNS_RECORD_NAMES.kind, originType: 'DnsAccelerate', ownerIdOf: (z) => z.DnsRecordId },
  {
    kind: CONTAINER_APP_NAMES.kind,
    originType: 'MagicContainers',
    ownerIdOf: (z) => z.MagicContainersAppId,
    manifestIdPath:
      'containerTemplates[name=container?].endpoints[displayName=endpoint].cdn.pullZoneId',
  },
  { kind: EDGE_SCRIPT_NAMES.kind, originType: 'EdgeScript', ownerIdOf: (z) => z.EdgeScriptId },
];

/** The owner a zone names: its kind, platform id and row; undefined for a zone of no owner. */
export function ownerMarkOf(
  zone: PullZone,
): { kind: string; ownerId: string; manifestIdPath?: string } | undefined {
  for (const m of OWNER_MARKS) {
    if (zone.OriginType !== ENUMS.OriginType.indexOf(m.originType)) continue;
    const id = m.ownerIdOf(zone);
    if ((typeof id === 'number' && id > 0) || (typeof id === 'string' && id !== ''))
      return {
        kind: m.kind,
        ownerId: String(id),
        ...(m.manifestIdPath ? { manifestIdPath: m.manifestIdPath } : {}),
      };
  }
  return undefined;
}

/** Where the exported manifest of an owner of `kind` names its zones, if it does. */
export function manifestIdPathOf(kind: string): string | undefined {
  return OWNER_MARKS.find((m) => m.kind === kind)?.manifestIdPath;
}
