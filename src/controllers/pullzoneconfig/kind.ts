/** The PullZoneConfig kind: a pull zone (CDN delivery zone) with its hostnames and edge rules. */
import type { KindModule } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { legacyValuesOf, respelledAt } from '../kit/enum-spelling.js';
import { PRIVATE_KEY_TYPE_SPELLING } from '../shared/private-key-type.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { GRAVITY, OPTIMIZATION_LEVEL } from './optimizer-classes.js';
import { PULL_ZONE_CONFIG_NAMES } from './types.js';

export const PULL_ZONE_CONFIG: KindModule = {
  ...PULL_ZONE_CONFIG_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  example: 'pullzoneconfig.yaml',
  sample: { spec: (name) => ({ settings: { originUrl: `https://origin-${name}.example.com` } }) },
  legacyMoves: [
    legacyAdoptionIdMove('pullZoneId'),
    // One output Secret block in every kind (docs/api.md).
    { from: 'spec.writeOutputsTo', to: 'spec.outputSecretRef.name' },
    // Secret settings: `<spec>Ref` in v1alpha1, a `…SecretRef` since (fields.ts secretRefName).
    {
      from: 'spec.settings.awsSigningKeyRef',
      to: 'spec.settings.awsSigningAccessKeyIdSecretRef',
    },
    {
      from: 'spec.settings.awsSigningSecretRef',
      to: 'spec.settings.awsSigningSecretAccessKeySecretRef',
    },
    {
      from: 'spec.settings.logForwardingTokenRef',
      to: 'spec.settings.logForwardingTokenSecretRef',
    },
    respelledAt('spec.hostnames[].privateKeyType', PRIVATE_KEY_TYPE_SPELLING),
    respelledAt('spec.settings.optimizerClasses[].cropGravity', legacyValuesOf(GRAVITY)),
    respelledAt(
      'spec.settings.optimizerClasses[].autoOptimize',
      legacyValuesOf(OPTIMIZATION_LEVEL),
    ),
    { from: 'spec.settings.enableTLS1', to: 'spec.settings.enableTLS10' },
    { from: 'spec.settings.enableTLS1_1', to: 'spec.settings.enableTLS11' },
    { from: 'spec.settings.originConnectTimeout', to: 'spec.settings.originConnectTimeoutSeconds' },
    {
      from: 'spec.settings.originResponseTimeout',
      to: 'spec.settings.originResponseTimeoutSeconds',
    },
    { from: 'spec.settings.originRetryDelay', to: 'spec.settings.originRetryDelaySeconds' },
    {
      from: 'spec.settings.cacheControlMaxAgeOverride',
      to: 'spec.settings.cacheControlMaxAgeOverrideSeconds',
    },
    {
      from: 'spec.settings.cacheControlPublicMaxAgeOverride',
      to: 'spec.settings.cacheControlPublicMaxAgeOverrideSeconds',
    },
    { from: 'spec.settings.monthlyBandwidthLimit', to: 'spec.settings.monthlyBandwidthLimitBytes' },
    {
      from: 'spec.settings.originShieldQueueMaxWaitTime',
      to: 'spec.settings.originShieldQueueMaxWaitSeconds',
    },
    {
      from: 'spec.settings.requestCoalescingTimeout',
      to: 'spec.settings.requestCoalescingTimeoutSeconds',
    },
    {
      from: 'spec.settings.preloadingScreenDelay',
      to: 'spec.settings.preloadingScreenDelayMilliseconds',
    },
    { from: 'status.purge.requestedAt', to: 'status.purge.lastRequest' },
    { from: 'status.purge.inProgress', to: 'status.purge.inProgressRequest' },
    { from: 'status.purge.completedAt', to: 'status.purge.completionTime' },
    { from: 'status.purge.startedAt', to: 'status.purge.startTime' },
    { from: 'status.purge.deferredUntil', to: 'status.purge.scheduledTime' },
    { from: 'status.purge.urlsPurged', to: 'status.purge.entriesPurged' },
    {
      from: 'status.hostnames[].certificate.requestedAt',
      to: 'status.hostnames[].certificate.lastRequestTime',
    },
  ],
};
