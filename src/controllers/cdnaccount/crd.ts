/** The CdnAccount CRD (generated into crds/ by hack/generate-crds.ts). */
import { CDN_ACCOUNT_SPEC_SCHEMA } from '../shared/account-schema.js';
import { GROUP, KIND, PLURAL, VERSION } from './types.js';

const CONDITIONS = {
  type: 'array',
  description: 'Ready: the credentials Secret and its key resolve.',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
  items: {
    type: 'object',
    required: ['type', 'status'],
    properties: {
      type: { type: 'string' },
      status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
      reason: { type: 'string' },
      message: { type: 'string' },
      lastTransitionTime: { type: 'string', format: 'date-time' },
      observedGeneration: { type: 'integer', format: 'int64' },
    },
  },
};

/** Builds the CRD object. */
export function buildCdnAccountCrd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: 'cdnaccount',
        shortNames: ['cdnacct'],
      },
      scope: 'Cluster',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'SECRET', type: 'string', jsonPath: '.spec.secretRef.name' },
            {
              name: 'READY',
              type: 'string',
              jsonPath: ".status.conditions[?(@.type=='Ready')].status",
            },
            { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description:
                'A bunny.net account (API key) and the namespaces allowed to use it. Cluster-scoped: only cluster admins create CdnAccounts.',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: CDN_ACCOUNT_SPEC_SCHEMA,
                status: { type: 'object', properties: { conditions: CONDITIONS } },
              },
            },
          },
        },
      ],
    },
  };
}
