/** The StorageZone kind: a storage zone and the Secret with its passwords. */
import type { KindModule } from '../kind-module.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { STORAGE_ZONE_NAMES } from './types.js';

export const STORAGE_ZONE: KindModule = {
  ...STORAGE_ZONE_NAMES,
  schema: async () => (await import('./crd.js')).storageZoneSchema,
  controller: async () => (await import('./index.js')).createStorageZoneKind,
  planner: async () => (await import('./plan.js')).planStorageZone,
  exporter: async () => (await import('./export.js')).exportStorageZones,
  // It writes its password Secret, which the chart allows only with outputs.enabled=true.
  example: 'storage/storagezone.yaml',
  sample: { spec: () => ({ region: 'DE' }) },
  // One output Secret block in every kind (docs/api.md).
  legacyMoves: [
    legacyAdoptionIdMove('storageZoneId'),
    { from: 'spec.passwordSecretRef', to: 'spec.outputSecretRef' },
  ],
};
