/** The ShieldRateLimit controller, planner and exporter: the shield rule code for rate limits. */
import type { ManagedKind } from '../../runtime/types.js';
import type { ControllerDeps } from '../shared/deps.js';
import type { KindExporter } from '../shared/manifest-export.js';
import type { KindPlanner } from '../shared/manifest-plan.js';
import { createRuleKind } from '../shieldrule-common/controller.js';
import { ruleExporter } from '../shieldrule-common/export.js';
import { rulePlanner } from '../shieldrule-common/plan.js';
import type { RuleObject } from '../shieldrule-common/zone.js';
import { RATE_LIMIT_FAMILY } from './family.js';

/** Builds the ShieldRateLimit ManagedKind. */
export function createShieldRateLimitKind(deps: ControllerDeps): ManagedKind<RuleObject> {
  return createRuleKind(RATE_LIMIT_FAMILY, deps);
}

/** `cdnctl diff` of a ShieldRateLimit manifest. */
export const planShieldRateLimit: KindPlanner = rulePlanner(RATE_LIMIT_FAMILY);

/** `cdnctl export` of every rate limit of the account. */
export const exportShieldRateLimits: KindExporter = ruleExporter(RATE_LIMIT_FAMILY);
