/** The ShieldRateLimit CRD schema: the shield rule schema of its family (family.ts). */
import type { DocumentBounds, KindSchema } from '../shared/crd-schema.js';
import { ruleSchema } from '../shieldrule-common/crd.js';
import { RATE_LIMIT_FAMILY } from './family.js';

/** The ShieldRateLimit schema (shieldratelimits). */
export function shieldRateLimitSchema(docs: DocumentBounds): KindSchema {
  return ruleSchema(docs, RATE_LIMIT_FAMILY);
}
