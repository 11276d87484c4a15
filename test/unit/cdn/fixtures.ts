/** Request bodies shared by the client and cdnctl tests (valid against the official schemas). */
import type { AppRequest } from '../../../src/cdn/types.js';

export function appRequest(name: string): AppRequest {
  return {
    name,
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 2 },
    regionSettings: { allowedRegionIds: ['DE'], requiredRegionIds: ['DE'] },
    containerTemplates: [
      {
        name: 'web',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: 'latest',
        imageRegistryId: 'registry-1',
        environmentVariables: [{ name: 'MODE', value: 'test' }],
        endpoints: [
          {
            displayName: 'http',
            cdn: {
              isSslEnabled: true,
              portMappings: [{ containerPort: 80, exposedPort: 80, protocols: ['tcp'] }],
            },
          },
        ],
      },
    ],
    volumes: [{ name: 'data', size: 1 }],
  };
}

/** A self-signed-looking PEM pair, base64 encoded as the API takes them (content is not checked). */
export const CERT_B64 = Buffer.from(
  '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
).toString('base64');
export const KEY_B64 = Buffer.from(
  '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n',
).toString('base64');

/** The smallest valid app: one container from `registryId` (1 is the platform's Docker Hub). */
export function minimalAppRequest(name: string, registryId = '1'): AppRequest {
  return {
    name,
    runtimeType: 'shared',
    autoScaling: { min: 1, max: 1 },
    regionSettings: {},
    containerTemplates: [
      {
        name: 'c',
        imageName: 'nginx',
        imageNamespace: 'library',
        imageTag: '1',
        imageRegistryId: registryId,
      },
    ],
  };
}
