/** The ContainerApp kind: a Magic Containers application (`/mc`). */
import { HTTP_STATUS_CODES } from '../../cdn/http-status-names.js';
import type { KindModule, LegacyFieldMove } from '../kind-module.js';
import { kindParts } from '../kit/kind-parts.js';
import { legacyAdoptionIdMove } from '../shared/ownership-schema.js';
import { CONTAINER_APP_NAMES } from './types.js';
import { LOG_FORMAT_NAMES, LOG_TYPE_NAMES, PROTOCOL_NAMES } from './wire-enums.js';
import { legacyValuesOf, respelledAt } from '../kit/enum-spelling.js';

const ENDPOINT = 'spec.containerTemplates[].endpoints[]';

/** A probe's expected status: int-or-string in v1alpha1 (`ok`, `"200"`), an integer since. */
const PROBE_STATUS_MOVES: LegacyFieldMove[] = ['startup', 'readiness', 'liveness'].map((probe) => {
  const path = `spec.containerTemplates[].probes.${probe}.httpGet.response.expectedStatusCode`;
  return { from: path, to: path, values: HTTP_STATUS_CODES, toInteger: true };
});

export const CONTAINER_APP: KindModule = {
  ...CONTAINER_APP_NAMES,
  ...kindParts(import.meta.url, ['schema', 'controller', 'planner', 'exporter']),
  example: 'containerapp.yaml',
  uidDigests: async () => [(await import('./log-forwarding.js')).TOKEN_DIGEST],
  legacyMoves: [
    legacyAdoptionIdMove('appId'),
    respelledAt(`${ENDPOINT}.cdn.portMappings[].protocols[]`, legacyValuesOf(PROTOCOL_NAMES)),
    { from: `${ENDPOINT}.cdn.isSslEnabled`, to: `${ENDPOINT}.cdn.sslEnabled` },
    { from: 'spec.volumes[].size', to: 'spec.volumes[].sizeGigabytes' },
    { from: 'status.volumes[].size', to: 'status.volumes[].sizeGigabytes' },
    ...PROBE_STATUS_MOVES,
    // A string in v1alpha1's status; an integer since (the live move copies status).
    {
      from: 'status.containers[].endpoints[].pullZoneId',
      to: 'status.containers[].endpoints[].pullZoneId',
      toInteger: true,
    },
    respelledAt('spec.logForwarding.type', legacyValuesOf(LOG_TYPE_NAMES)),
    respelledAt('spec.logForwarding.format', legacyValuesOf(LOG_FORMAT_NAMES)),
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
