/** The ShieldAccessList kind: one custom access list of a shield zone and its configuration. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { SHIELD_ACCESS_LIST_NAMES } from './types.js';

export const SHIELD_ACCESS_LIST: KindModule = {
  ...SHIELD_ACCESS_LIST_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  legacyMoves: [legacyAdoptionIdMove('listId')],
  // It needs a ShieldPolicy of its own namespace; kept beside the shield rule examples.
  example: 'shield/shieldaccesslist.yaml',
};
