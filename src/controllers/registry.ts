/** The kinds this operator runs. main.ts registers every kind returned here. */
import type { ManagedKind } from '../runtime/types.js';
import type { ControllerDeps } from './shared/deps.js';
import { createPullZoneConfigKind } from './pullzoneconfig/index.js';
import { createShieldPolicyKind } from './shieldpolicy/index.js';
import { createContainerAppKind } from './containerapp/index.js';

/** Builds one ManagedKind per CRD served by the operator. */
export function createManagedKinds(deps: ControllerDeps): ManagedKind[] {
  return [
    createPullZoneConfigKind(deps),
    createShieldPolicyKind(deps),
    createContainerAppKind(deps),
  ];
}
