/** The ShieldRateLimit custom resource as the controller reads it (its fields: family.ts). */
import type { SpecOf } from '../kit/fields.js';
import type { NamedResourceKind } from '../kind-names.js';
import type { ShieldRuleSpecBase, ShieldRuleStatusBase } from '../shieldrule-common/types.js';
import type { RATE_LIMIT_FIELDS } from './family.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_RATE_LIMIT_NAMES: NamedResourceKind = {
  kind: 'ShieldRateLimit',
  plural: 'shieldratelimits',
  shortNames: ['srl'],
  scope: 'Namespaced',
  family: 'shield',
  platformNames: 'shared',
};

/** `spec` of a ShieldRateLimit: the field table's members and the shared parts. */
export type ShieldRateLimitSpec = SpecOf<typeof RATE_LIMIT_FIELDS> & ShieldRuleSpecBase;

/** `status` of a ShieldRateLimit. */
export type ShieldRateLimitStatus = ShieldRuleStatusBase;
