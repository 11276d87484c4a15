/** The ShieldRateLimit kind: one rate limit rule of a shield zone. */
import type { KindModule } from '../kind-module.js';
import { ruleKindParts } from '../shieldrule-common/family.js';
import { RATE_LIMIT_LEGACY_MOVES } from '../shieldrule-common/legacy-moves.js';
import { SHIELD_RATE_LIMIT_NAMES } from './types.js';

export const SHIELD_RATE_LIMIT: KindModule = {
  ...SHIELD_RATE_LIMIT_NAMES,
  ...ruleKindParts(async () => (await import('./family.js')).RATE_LIMIT_FAMILY),
  // It needs a ShieldPolicy of its own namespace; kept beside the WAF rule example.
  example: 'shield/shieldratelimit.yaml',
  legacyMoves: RATE_LIMIT_LEGACY_MOVES,
};
