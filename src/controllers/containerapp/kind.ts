/** The ContainerApp kind: a Magic Containers application (`/mc`). */
import type { KindModule } from '../kind-module.js';
import { CONTAINER_APP_NAMES } from './types.js';

export const CONTAINER_APP: KindModule = {
  ...CONTAINER_APP_NAMES,
  schema: async () => (await import('./crd.js')).containerAppSchema,
  controller: async () => (await import('./index.js')).createContainerAppKind,
  planner: async () => (await import('./plan.js')).planContainerApp,
  exporter: async () => (await import('./export.js')).exportContainerApps,
  example: 'containerapp.yaml',
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
