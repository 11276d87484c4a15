/**
 * Contract exceptions that rest on the live platform rather than on the contract: where a public
 * client that runs against the live API (the platform vendor's Terraform provider, whose
 * acceptance tests pass there) shows a model differs from the official document. Kept apart so
 * they read as one list; contract-exceptions.ts includes them (issue 49, docs/simulator.md).
 */
import type { SchemaPatchException } from './contract-exception-types.js';

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });

/** The vendor's provider, which every row below cites. */
const VENDOR = "BunnyWay/terraform-provider-bunnynet (the platform vendor's Terraform provider)";

/** Deviations shown by clients of the live API. */
export const LIVE_EXCEPTIONS: readonly SchemaPatchException[] = [
  {
    kind: 'schema-patch',
    area: 'mc',
    schema: 'EndpointPortMapping',
    dropRequired: ['exposedPort'],
    operations: [
      'GET /mc/apps',
      'GET /mc/apps/{appId}',
      'GET /mc/apps/{appId}/containers/{containerId}',
    ],
    liveEvidence: `${VENDOR}: sends a CDN endpoint's port without exposedPort, keeps the exposed port it reads back only when it is above 0, and its acceptance test fails on "inconsistent result after apply" unless the read leaves it unset.`,
    reason:
      'The read model answers an exposed port only when the request gave one (the live API echoes the request); the document requires it. A read-model component: no request body sees it.',
  },
  {
    kind: 'schema-patch',
    area: 'core',
    schema: 'PullZoneModel',
    addProperties: {
      DnsOriginPort: { type: 'integer', format: 'int32', nullable: true },
      DnsOriginScheme: { type: 'string', nullable: true },
    },
    operations: ['GET /pullzone', 'GET /pullzone/{id}', 'POST /pullzone', 'POST /pullzone/{id}'],
    liveEvidence: `${VENDOR}: its one pull zone model, read and written, has DnsOriginPort and DnsOriginScheme.`,
    reason:
      'The pull zone record shows the DNS origin port and scheme it was given (the add and settings models have them, the read model of the document does not). A read-model component: no request body sees it.',
  },
  {
    kind: 'schema-patch',
    area: 'shield',
    schema: 'ShieldZoneRequest',
    addProperties: { dDoSExecutionMode: ref('DDoSExecutionMode') },
    operations: ['POST /shield/shield-zone', 'PATCH /shield/shield-zone'],
    liveEvidence: `${VENDOR}: writes dDoSExecutionMode (Log by default) with every create and update of a shield zone and reads it back from the zone; its state would never settle if the platform dropped it.`,
    reason:
      'The DDoS execution mode is written like the other zone settings; the document lists it on the read model only.',
  },
];
