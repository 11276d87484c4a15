/** The ShieldRateLimit custom resource as the controller reads it (crd.ts describes every field). */
import type { KindNames } from '../kind-names.js';
import type { ShieldRuleSpecBase, ShieldRuleStatusBase } from '../shieldrule-common/types.js';
import type { RuleObject } from '../shieldrule-common/zone.js';

/** The kind's names (its KindModule, kind.ts, adds the lazy parts). */
export const SHIELD_RATE_LIMIT_NAMES: KindNames = {
  kind: 'ShieldRateLimit',
  plural: 'shieldratelimits',
  shortNames: ['srl'],
  scope: 'Namespaced',
};

/** `spec` of a ShieldRateLimit. */
export interface ShieldRateLimitSpec extends ShieldRuleSpecBase {
  /** What a client over the limit gets (`RatelimitRuleActionType` name). */
  action: string;
  /** Requests allowed per timeframe. */
  requestCount: number;
  /** What the requests are counted per (`WafRatelimitCounterKeyType` name). */
  counterKey?: string;
  /** The counting window (`WafRateLimitTimeframeType` name). */
  timeframe: string;
  /** How long a client over the limit is held (`WafRatelimitBlockType` name). */
  blockTime: string;
}

/** `status` of a ShieldRateLimit. */
export type ShieldRateLimitStatus = ShieldRuleStatusBase;

/** A ShieldRateLimit object. */
export interface ShieldRateLimit extends RuleObject {
  spec?: ShieldRateLimitSpec & Record<string, unknown>;
}
