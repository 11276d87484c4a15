/** The ContainerRegistry kind: a Magic Containers image registry and its credentials. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { REGISTRY_TYPE_NAMES } from '../containerapp/wire-enums.js';
import { legacyValuesOf, respelledAt } from '../kit/enum-spelling.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { CONTAINER_REGISTRY_NAMES } from './types.js';

export const CONTAINER_REGISTRY: KindModule = {
  ...CONTAINER_REGISTRY_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // It needs a password Secret the user creates first.
  example: 'containers/containerregistry.yaml',
  uidDigests: async () => [(await import('./credentials.js')).PASSWORD_DIGEST],
  legacyMoves: [
    legacyAdoptionIdMove('registryId'),
    respelledAt('spec.type', legacyValuesOf(REGISTRY_TYPE_NAMES)),
    { from: 'spec.displayName', to: 'spec.name' },
    { from: 'status.displayName', to: 'status.name' },
    { from: 'status.hostName', to: 'status.hostname' },
  ],
};
