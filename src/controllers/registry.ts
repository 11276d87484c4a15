/** The kinds this operator runs. main.ts registers every kind returned here. */
import type { ManagedKind } from '../runtime/types.js';
import type { ControllerDeps } from './shared/deps.js';
import { withSecretRedaction } from './shared/secret-registration.js';
import { createPullZoneConfigKind } from './pullzoneconfig/index.js';
import { createShieldPolicyKind } from './shieldpolicy/index.js';
import { createContainerAppKind } from './containerapp/index.js';
import { createStorageZoneKind } from './storagezone/index.js';

/**
 * Builds one ManagedKind per CRD served by the operator; every kind registers the Secret
 * values it reads for redaction (see shared/secret-registration.ts).
 */
export function createManagedKinds(deps: ControllerDeps): ManagedKind[] {
  return [
    withSecretRedaction(createPullZoneConfigKind(deps)),
    withSecretRedaction(createShieldPolicyKind(deps)),
    withSecretRedaction(createContainerAppKind(deps)),
    withSecretRedaction(createStorageZoneKind(deps)),
  ];
}
