/**
 * What `deletionPolicy: Reset` puts back. The platform cannot delete a shield zone, so
 * "deleting" a ShieldPolicy returns every field the policy manages (every field its spec sets)
 * to the value a freshly created zone has; fields the policy never managed are left alone.
 *
 * The values are those a shield zone gets when it is created without settings (cdn-sim's
 * creation defaults, which follow the platform's recommended defaults): see docs/shieldpolicy.md.
 */
import { toDesiredWire, type WireZone } from './mapping.js';
import type { ShieldPolicySpec } from './types.js';

/** The value of each managed field on a new zone, by API name (null = not set). */
export const RESET_DEFAULTS: Readonly<WireZone> = Object.freeze({
  learningMode: false,
  learningModeUntil: null,
  wafEnabled: true,
  wafExecutionMode: 0,
  wafDisabledRules: [],
  wafLogOnlyRules: [],
  wafCustomRuleOrder: [],
  wafRequestHeaderLoggingEnabled: false,
  requestBodyLoggingEnabled: false,
  wafRequestIgnoredHeaders: [],
  wafRealtimeThreatIntelligenceEnabled: false,
  wafProfileId: null,
  wafEngineConfig: [],
  wafRequestBodyLimitAction: 0,
  wafResponseBodyLimitAction: 0,
  dDoSShieldSensitivity: 2,
  dDoSExecutionMode: 1,
  dDoSChallengeWindow: 300,
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
