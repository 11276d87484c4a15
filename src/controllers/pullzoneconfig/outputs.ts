/**
 * The outputs Secret (`spec.outputSecretRef`): values other workloads need to use the zone.
 *
 * The kind only returns them (connection details of observe and update); the runtime
 * publishes them (runtime/connection-secret.ts) after the claim check and the leader fence,
 * never for a refused object. Their outcome is a condition of its own (`OutputsReady`) and a
 * failure never blocks recording the zone id, adding hostnames or reporting Ready/Synced. The
 * Secret is written only when this object controls it. Needs RBAC `create` and `patch` on
 * Secrets (`outputs.enabled` in the Helm chart).
 */
import { ConnectionSecretReason } from '../../runtime/connection-secret.js';
import type { ConnectionDetails, ConnectionSecret } from '../../runtime/types.js';
import { outputSecretOf } from '../shared/output-secret.js';
import type { PullZoneConfig } from './types.js';

export { OUTPUTS_READY } from '../shared/output-secret.js';

/** Reasons of the OutputsReady condition. */
export const OutputsReason = ConnectionSecretReason;

/** Keys of the outputs Secret. */
export interface PullZoneOutputs {
  pullZoneId: string;
  pullZoneName: string;
  cdnHostname: string;
  /** `https://<cdnHostname>`. */
  cdnUrl: string;
  /** Custom hostnames, comma-separated. */
  hostnames: string;
  /** URL token authentication key; present only when the platform returns one. */
  zoneSecurityKey?: string;
}

/** Secret data for the outputs (undefined keys left out). */
export function outputsData(o: PullZoneOutputs): ConnectionDetails {
  const data: ConnectionDetails = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') data[k] = v;
  return data;
}

/** The outputs Secret as the runtime publishes it: only when `spec.outputSecretRef` names one. */
export const OUTPUTS_SECRET: ConnectionSecret<PullZoneConfig> = outputSecretOf<PullZoneConfig>();
