/** A PullZoneConfig of namespace team-a for the reference tests (storage origin, scripts). */
import { apiVersionOfKind } from '../../../../src/controllers/kinds.js';
import type { PullZoneConfig } from '../../../../src/controllers/pullzoneconfig/types.js';

/** PullZoneConfig team-a/site with `spec`; `deleting`: with a deletionTimestamp. */
export function pzc(spec: Record<string, unknown>, deleting = false): PullZoneConfig {
  return {
    apiVersion: apiVersionOfKind('PullZoneConfig'),
    kind: 'PullZoneConfig',
    metadata: {
      name: 'site',
      namespace: 'team-a',
      ...(deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
    },
    spec,
  };
}
