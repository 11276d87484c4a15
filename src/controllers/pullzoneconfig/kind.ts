/** The PullZoneConfig kind: a pull zone (CDN delivery zone) with its hostnames and edge rules. */
import type { KindModule } from '../kind-module.js';
import { PULL_ZONE_CONFIG_NAMES } from './types.js';

export const PULL_ZONE_CONFIG: KindModule = {
  ...PULL_ZONE_CONFIG_NAMES,
  schema: async () => (await import('./crd.js')).pullZoneConfigSchema,
  controller: async () => (await import('./index.js')).createPullZoneConfigKind,
  planner: async () => (await import('./plan.js')).planPullZone,
  exporter: async () => (await import('./export.js')).exportPullZones,
  example: 'pullzoneconfig.yaml',
  sample: { spec: (name) => ({ settings: { originUrl: `https://origin-${name}.example.com` } }) },
};
