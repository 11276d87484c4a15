/** The ContainerApp kind: a Magic Containers application (`/mc`). */
import type { KindModule } from '../kind-module.js';
import { CONTAINER_APP_NAMES } from './types.js';
import { LOG_FORMAT_NAMES, LOG_TYPE_NAMES, PROTOCOL_NAMES, legacyValuesOf } from './wire-enums.js';

const ENDPOINT = 'spec.containerTemplates[].endpoints[]';

export const CONTAINER_APP: KindModule = {
  ...CONTAINER_APP_NAMES,
  schema: async () => (await import('./crd.js')).containerAppSchema,
  controller: async () => (await import('./index.js')).createContainerAppKind,
  planner: async () => (await import('./plan.js')).planContainerApp,
  exporter: async () => (await import('./export.js')).exportContainerApps,
  example: 'containerapp.yaml',
  legacyMoves: [
    {
      from: `${ENDPOINT}.cdn.portMappings[].protocols[]`,
      to: `${ENDPOINT}.cdn.portMappings[].protocols[]`,
      values: legacyValuesOf(PROTOCOL_NAMES),
    },
    { from: `${ENDPOINT}.cdn.isSslEnabled`, to: `${ENDPOINT}.cdn.sslEnabled` },
    { from: 'spec.volumes[].size', to: 'spec.volumes[].sizeGigabytes' },
    { from: 'status.volumes[].size', to: 'status.volumes[].sizeGigabytes' },
    {
      from: 'spec.logForwarding.type',
      to: 'spec.logForwarding.type',
      values: legacyValuesOf(LOG_TYPE_NAMES),
    },
    {
      from: 'spec.logForwarding.format',
      to: 'spec.logForwarding.format',
      values: legacyValuesOf(LOG_FORMAT_NAMES),
    },
  ],
  sample: {
    spec: (name) => ({
      name,
      autoScaling: { min: 1, max: 2 },
      containerTemplates: [
        {
          name: 'web',
          imageName: 'nginx',
          imageNamespace: 'library',
          imageTag: '1.27',
          imageRegistryId: 'dockerhub',
        },
      ],
    }),
  },
};
