/**
 * What `deletionPolicy: Reset` puts back. The platform cannot delete a shield zone, so
 * "deleting" a ShieldPolicy returns every field the policy manages (every field its spec sets)
 * to the value a freshly created zone has; fields the policy never managed are left alone.
 *
 * The values are those a zone gets when it is created without settings (cdn-sim's creation
 * defaults). Two fields are not reset:
 * - `learningModeUntil` (spec.learningModeEndTime): a new zone gets "creation time + 7 days", which has no fixed value,
 *   and the update call ignores `null`, so the field cannot be cleared;
 * - `dDoSExecutionMode`: the update call cannot carry it (see NOT_WRITABLE in external.ts);
 * - `planType`: the plan is billing, and rules other objects own (ShieldWafRule, rate limits)
 *   count against its limits, so deleting a policy never downgrades it.
 */
import { toDesiredWire, type WireZone } from './mapping.js';
import type { ShieldPolicySpec } from './types.js';

/** The value of each resettable field on a new zone, by API name. */
export const RESET_DEFAULTS: Readonly<WireZone> = Object.freeze({
  learningMode: true,
  wafEnabled: true,
  wafExecutionMode: 1,
  wafDisabledRules: [],
  wafLogOnlyRules: [],
  wafCustomRuleOrder: [],
  wafRequestHeaderLoggingEnabled: false,
  requestBodyLoggingEnabled: false,
  wafRequestIgnoredHeaders: [],
  wafRealtimeThreatIntelligenceEnabled: false,
  wafProfileId: 1,
  wafEngineConfig: [],
  wafRequestBodyLimitAction: 0,
  wafResponseBodyLimitAction: 0,
  dDoSShieldSensitivity: 2,
  dDoSChallengeWindow: 3600,
  whitelabelResponsePages: false,
});

/** The reset target: the default of every field the spec manages. */
export function toResetWire(spec: ShieldPolicySpec): WireZone {
  const out: WireZone = {};
  for (const field of Object.keys(toDesiredWire(spec))) {
    if (field in RESET_DEFAULTS) out[field] = RESET_DEFAULTS[field];
  }
  return out;
}
