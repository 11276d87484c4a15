/**
 * Wiring of the ContainerRegistry kind (`/mc/registries`) into the runtime: credentials ->
 * shared CDN client -> {@link ContainerRegistryExternal}. References: what the credentials
 * depend on and the password Secret, so a rotated password re-enqueues the object at once.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import type { ClassifiedError } from '../../runtime/errors.js';
import type { ManagedKind } from '../../runtime/types.js';
import { managedNames } from '../kind-names.js';
import { classifyCdnError } from '../shared/classify-error.js';
import { getCdnClient } from '../shared/client-pool.js';
import { credentialReferences, resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withMarkerKey } from '../shared/marker-key.js';
import { ContainerRegistryExternal } from './external.js';
import { passwordSecretReference, readPassword } from './password.js';
import { CONTAINER_REGISTRY_NAMES, type ContainerRegistry } from './types.js';

const SPEC_PATHS: Record<string, string> = {
  displayName: 'spec.displayName',
  type: 'spec.type',
  'passwordCredentials.userName': 'spec.username',
  'passwordCredentials.password': 'spec.passwordSecretRef',
};

/** Maps an API field named in a platform error to the spec path a user edits. */
export function specPathForApiField(apiField: string): string {
  const path = SPEC_PATHS[apiField];
  return path ? `${path} (${apiField})` : apiField;
}

/** Builds the ContainerRegistry ManagedKind. */
export function createContainerRegistryKind(deps: ControllerDeps): ManagedKind<ContainerRegistry> {
  return {
    ...managedNames(CONTAINER_REGISTRY_NAMES),
    idStatusField: 'registryId',
    specExternalId: (obj) =>
      obj.spec?.registryId !== undefined ? String(obj.spec.registryId) : undefined,
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const external = new ContainerRegistryExternal({
        client: getCdnClient(deps, apiKey),
        accountId: accountIdFor(apiKey),
        // Read when used (observe/create/update), never for a deletion.
        readPassword: (o) => readPassword(o, ctx),
      });
      return withMarkerKey(external, apiKey);
    },
    references: (obj) => [...credentialReferences(obj, deps), ...passwordSecretReference(obj)],
    classifyError: (err: unknown): ClassifiedError =>
      classifyCdnError(err, { specPathForField: specPathForApiField }),
  };
}

export type { ContainerRegistry } from './types.js';
