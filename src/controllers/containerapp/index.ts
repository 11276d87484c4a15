/**
 * Wiring of the ContainerApp kind (`/mc` applications) into
 * the runtime: credentials -> shared CDN client -> {@link ContainerAppExternal}.
 */
import { accountIdFor } from '../../cdn/credentials.js';
import { withMarkerKey } from '../shared/marker-key.js';
import type { ManagedKind } from '../../runtime/types.js';
import { getCdnClient } from '../shared/client-pool.js';
import { resolveApiKey } from '../shared/credentials.js';
import type { ControllerDeps } from '../shared/deps.js';
import { adoptionIdOf } from '../shared/ownership-schema.js';
import { containerAppClaimsOf } from './claims.js';
import { classifyContainerAppError } from './errors.js';
import { ContainerAppExternal } from './external.js';
import { idReferencesOf, referencesOf, resolveRefs } from './references.js';
import { managedNames } from '../kind-names.js';
import { CONTAINER_APP_NAMES, type ContainerApp } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';

/** Builds the ManagedKind of ContainerApp. */
export function createContainerAppKind(deps: ControllerDeps): ManagedKind {
  const kind: ManagedKind<ContainerApp> = {
    ...managedNames(CONTAINER_APP_NAMES),
    idStatusField: 'appId',
    specExternalId: (obj) => adoptionIdOf(obj.spec),
    async connect(obj, ctx) {
      const apiKey = await resolveApiKey(obj, ctx, deps);
      const api = getCdnClient(deps, apiKey);
      // References are read when used (observe/create/update), never for a deletion.
      const external = new ContainerAppExternal(
        api,
        (o) => resolveRefs(o, ctx),
        accountIdFor(apiKey),
      );
      return withMarkerKey(external, apiKey);
    },
    claimsOf: (obj) => containerAppClaimsOf(kind, obj),
    references: (obj) => referencesOf(obj, deps),
    idReferences: idReferencesOf,
    classifyError: classifyContainerAppError,
  };
  return kind;
}

export type { ContainerApp } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createContainerAppKind;
