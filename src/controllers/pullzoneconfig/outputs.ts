/**
 * The outputs Secret (`spec.writeOutputsTo`): values other workloads need to use the zone.
 *
 * Outputs are a side effect of the platform reconcile, never part of it: their outcome is a
 * condition of its own (`OutputsReady`) and a failure here never blocks recording the zone id,
 * adding hostnames or reporting Ready/Synced. The Secret is written only when this object
 * controls it (see shared/owned-secret.ts, which StorageZone's password Secret shares).
 * Needs RBAC `create` and `patch` on Secrets (`outputs.enabled` in the Helm chart).
 */
import type { ConditionInput } from '../../runtime/conditions.js';
import {
  ensureOwnedSecret,
  ownedSecretCondition,
  OwnedSecretReason,
  type SecretStore,
} from '../shared/owned-secret.js';
import type { PullZoneConfig } from './types.js';

export {
  controllerRefOf,
  createSecretStore,
  isControlledBy,
  type OwnerReference,
  type SecretStore,
  type StoredSecret,
} from '../shared/owned-secret.js';

/** Condition type reporting the outputs Secret. */
export const OUTPUTS_READY = 'OutputsReady';

/** Reasons of the OutputsReady condition. */
export const OutputsReason = OwnedSecretReason;

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
export function outputsData(o: PullZoneOutputs): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) if (typeof v === 'string') data[k] = v;
  return data;
}

/**
 * Brings the outputs Secret in line with `outputs` when `spec.writeOutputsTo` is set and
 * returns the OutputsReady condition to report. Never throws, except when `signal` aborted
 * (shutdown). Returns undefined when there is nothing to report.
 */
export async function ensureOutputs(
  obj: PullZoneConfig,
  outputs: PullZoneOutputs,
  store: SecretStore,
  signal?: AbortSignal,
): Promise<ConditionInput | undefined> {
  const name = obj.spec?.writeOutputsTo;
  if (!name) {
    const shown = obj.status?.conditions?.some((c) => c.type === OUTPUTS_READY);
    return shown
      ? ownedSecretCondition(
          obj,
          OUTPUTS_READY,
          'True',
          OutputsReason.NotRequested,
          'spec.writeOutputsTo is not set',
        )
      : undefined;
  }
  const target = {
    conditionType: OUTPUTS_READY,
    name,
    what: 'outputs Secret',
    field: 'spec.writeOutputsTo',
  };
  return ensureOwnedSecret(obj, target, outputsData(outputs), store, signal);
}
