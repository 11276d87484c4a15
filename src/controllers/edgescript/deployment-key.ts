/**
 * The script's deployment key in an outputs Secret (`spec.outputSecretRef`, the one shape of
 * an output: shared/output-secret.ts), written only when the spec names one. The kind returns
 * the values as connection details of observe, create and update; the runtime writes the Secret
 * after the claim check and the leader fence, reports it in `OutputsReady` and never writes a
 * Secret another object controls. The key is read from the script (`DeploymentKey`, which the
 * client registers as a secret) and is never put in status, a plan or a log.
 *
 * Keys: `deploymentKey`, `scriptId` and, for a standalone script that has one, `hostname`.
 * A key rotated on the platform (`POST .../deploymentKey/rotate`, not sent by the operator) is
 * seen by the next read of the script and written to the Secret then.
 */
import type { ConnectionDetails, ConnectionSecret } from '../../runtime/types.js';
import { outputSecretOf } from '../shared/output-secret.js';
import type { EdgeScript } from './types.js';

/** The outputs Secret of an EdgeScript: only when `spec.outputSecretRef` names one. */
export const DEPLOYMENT_KEY_SECRET: ConnectionSecret<EdgeScript> = outputSecretOf<EdgeScript>();

/** The members of a script record the outputs come from. */
interface ScriptOutputs {
  Id?: number;
  DeploymentKey?: string | null;
}

/**
 * The outputs Secret's data; undefined while the record has no deployment key (a create's
 * answer may not carry one: the next read does). `hostname`: a standalone script's own.
 */
export function deploymentKeyDetails(
  record: ScriptOutputs,
  hostname: string | undefined,
): ConnectionDetails | undefined {
  if (!record.DeploymentKey || record.Id === undefined) return undefined;
  return {
    deploymentKey: record.DeploymentKey,
    scriptId: String(record.Id),
    ...(hostname ? { hostname } : {}),
  };
}
