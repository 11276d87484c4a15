/**
 * One shield zone as a ShieldPolicy: its target is the exported PullZoneConfig
 * (`pullZoneRef`) when the pull zone is part of the export, else the pull zone id; every field
 * the zone shows comes from shieldpolicy/reverse-mapping.ts. Shield zones hold no secrets.
 */
import { mergeLiveZone, type WireZone } from '../../controllers/shieldpolicy/mapping.js';
import { specFromLiveZone } from '../../controllers/shieldpolicy/reverse-mapping.js';
import { API_VERSION, metadataOf, type ExportOptions, type ExportedObject } from './types.js';

/**
 * The ShieldPolicy of the live zone `single` (single-zone GET) completed with its entry in the
 * zone list. `zoneRef` names the exported PullZoneConfig of the target zone, if any.
 */
export function exportShieldPolicy(
  single: WireZone,
  listItem: WireZone | undefined,
  pullZoneId: number,
  name: string,
  zoneRef: string | undefined,
  opts: ExportOptions,
): ExportedObject {
  const live = mergeLiveZone(single, listItem);
  const target = zoneRef ? { pullZoneRef: { name: zoneRef } } : { pullZoneId };
  const spec = {
    ...target,
    ...opts.account,
    deletionPolicy: opts.deletionPolicy === 'Delete' ? 'Reset' : 'Orphan',
    ...specFromLiveZone(live),
  };
  return {
    kind: 'ShieldPolicy',
    name,
    manifest: {
      apiVersion: API_VERSION,
      kind: 'ShieldPolicy',
      metadata: metadataOf(name, opts.namespace),
      spec,
    },
  };
}
