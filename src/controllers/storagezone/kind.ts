/** The StorageZone kind: a storage zone and the Secret with its passwords. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { STORAGE_ZONE_NAMES } from './types.js';

export const STORAGE_ZONE: KindModule = {
  ...STORAGE_ZONE_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  // It writes its password Secret, which the chart allows only with outputs.enabled=true.
  example: 'storage/storagezone.yaml',
  sample: { spec: () => ({ region: 'DE' }) },
  // One output Secret block in every kind (docs/api.md).
  legacyMoves: [
    legacyAdoptionIdMove('storageZoneId'),
    { from: 'spec.passwordSecretRef', to: 'spec.outputSecretRef' },
  ],
};
