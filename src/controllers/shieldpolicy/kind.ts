/** The ShieldPolicy kind: WAF and DDoS settings (a shield zone) of one pull zone. */
import type { KindModule } from '../kind-module.js';
import { SHIELD_POLICY_NAMES } from './types.js';

export const SHIELD_POLICY: KindModule = {
  ...SHIELD_POLICY_NAMES,
  schema: async () => (await import('./crd.js')).shieldPolicySchema,
  controller: async () => (await import('./index.js')).createShieldPolicyKind,
  planner: async () => (await import('./plan.js')).planShieldPolicy,
  exporter: async () => (await import('./export.js')).exportShieldPolicies,
  // Policies are named after the exported PullZoneConfigs and refer to them.
  exportNeeds: ['PullZoneConfig'],
  example: 'shieldpolicy.yaml',
  sample: {
    refersTo: ['PullZoneConfig'],
    spec: (_name, refs) => ({
      pullZoneRef: { name: refs('PullZoneConfig') },
      waf: { enabled: true },
    }),
  },
};
