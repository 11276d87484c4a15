/**
 * The one place that lists where cdn-sim deliberately differs from the official OpenAPI
 * documents, each with its reason. Two kinds:
 *
 * - `schema-patch`: a change applied to a document component before validation (the contract
 *   needs a field or a relaxation the document lacks).
 * - `response`: a response the document does not declare (status or body), with the JSON schema
 *   the simulator's body follows instead. `path: '*'` matches every route of the area.
 *
 * test/support/openapi.ts applies this table when it validates requests and responses, and
 * docs/simulator.md repeats it for users. The contract (management-api.md) wins over the
 * documents; where the contract is silent the simulator follows the document.
 */

import { FEATURE_EXCEPTIONS } from './feature-exceptions.js';
import { SECURITY_EXCEPTIONS } from './security-exceptions.js';

/** Area of the management API a rule applies to. */
export type ExceptionArea = 'core' | 'mc' | 'shield';

/** Changes one component schema of a document. */
export interface SchemaPatchException {
  kind: 'schema-patch';
  area: ExceptionArea;
  /** Component schema name; created when `define` is set. */
  schema: string;
  /** Copy this component first (used to derive a relaxed variant). */
  define?: string;
  addProperties?: Record<string, unknown>;
  dropRequired?: string[];
  /** Replace a property's schema. */
  setProperties?: Record<string, unknown>;
  /** The only operations (`METHOD /path`) whose bodies see the patched schema. */
  operations: string[];
  /** The line of management-api.md the deviation rests on. */
  contract: string;
  reason: string;
}

/** Declares the body of a response the document leaves undeclared or declares differently. */
export interface ResponseException {
  kind: 'response';
  area: ExceptionArea;
  method: string;
  /** Path template as written in the contract, e.g. `/pullzone/{id}`; `*` = any route. */
  path: string;
  status: number;
  /** JSON schema of the body (`#/components/schemas/...` refs resolve in the area's document); null = no body. */
  schema: Record<string, unknown> | null;
  reason: string;
}

/** A schema patch, as the document compiler sees it. */
export type SchemaPatchDeviation = SchemaPatchException;

/** One documented difference. */
export type ContractException = SchemaPatchException | ResponseException;

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });
const apiError = ref('ApiErrorData');

/** The contract line the PATCH id deviations rest on (management-api.md, Applications). */
export const PATCH_ID_RULE =
  'PATCH rules: JSON Merge Patch semantics. [...] For the arrays (containers, volumes, endpoints): an item with a matching `id` is updated; an item without `id` is added as new; an item not included is deleted.';

/** Every difference between cdn-sim and the official documents, with the reason. */
export const CONTRACT_EXCEPTIONS: readonly ContractException[] = [
  {
    kind: 'schema-patch',
    area: 'mc',
    schema: 'SimPatchVolumeRequest',
    define: 'VolumeRequest',
    addProperties: { id: { type: 'string', nullable: true } },
    operations: ['PATCH /mc/apps/{appId}'],
    contract: PATCH_ID_RULE,
    reason:
      'The contract matches PATCH volume items by id; the document has no id on volume writes. Only the PATCH body accepts it.',
  },
  {
    kind: 'schema-patch',
    area: 'mc',
    schema: 'SimPatchEndpointRequest',
    define: 'EndpointRequest',
    addProperties: { id: { type: 'string', nullable: true } },
    operations: ['PATCH /mc/apps/{appId}'],
    contract: PATCH_ID_RULE,
    reason:
      'The contract matches PATCH endpoint items by id; the document has no id on endpoint writes. Only the PATCH body accepts it.',
  },
  {
    kind: 'schema-patch',
    area: 'mc',
    schema: 'SimPatchContainerRequest',
    define: 'ContainerRequest',
    setProperties: { endpoints: { type: 'array', items: ref('SimPatchEndpointRequest') } },
    operations: ['PATCH /mc/apps/{appId}'],
    contract: PATCH_ID_RULE,
    reason:
      'The full documented container item, whose endpoints may carry their id (above). Every required member stays required.',
  },
  {
    kind: 'schema-patch',
    area: 'mc',
    schema: 'PatchApplicationRequest',
    setProperties: {
      containerTemplates: { type: 'array', nullable: true, items: ref('SimPatchContainerRequest') },
      volumes: { type: 'array', nullable: true, items: ref('SimPatchVolumeRequest') },
    },
    operations: ['PATCH /mc/apps/{appId}'],
    contract: PATCH_ID_RULE,
    reason:
      'Wires the two id-carrying items above into the PATCH body (PatchApplicationRequest is used by no other operation).',
  },
  {
    kind: 'response',
    area: 'core',
    method: 'POST',
    path: '/pullzone',
    status: 201,
    schema: ref('PullZoneModel'),
    reason:
      'The document declares no body for 201; the simulator returns the created record (as the live service does) so a client learns the new Id.',
  },
  {
    kind: 'response',
    area: 'core',
    method: 'GET',
    path: '/pullzone',
    status: 200,
    schema: {
      anyOf: [
        { type: 'array', items: ref('PullZoneModel') },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            Items: { type: 'array', items: ref('PullZoneModel') },
            CurrentPage: { type: 'integer' },
            TotalItems: { type: 'integer' },
            HasMoreItems: { type: 'boolean' },
          },
        },
      ],
    },
    reason:
      "The document's text says page > 0 returns a paged object, but its schema only shows the plain array.",
  },
  {
    kind: 'response',
    area: 'core',
    method: 'POST',
    path: '/pullzone/{id}/addHostname',
    status: 400,
    schema: apiError,
    reason:
      "A hostname already registered on any pull zone is rejected; the document lists no 400, the simulator uses the area's ApiErrorData.",
  },
  {
    kind: 'response',
    area: 'core',
    method: 'POST',
    path: '/storagezone/checkavailability',
    status: 200,
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['Available'],
      properties: { Available: { type: 'boolean' } },
    },
    reason:
      'Neither the contract nor the document shows the success body; the simulator returns { Available }.',
  },
  {
    kind: 'response',
    area: 'core',
    method: 'GET',
    path: '/apikey',
    status: 400,
    schema: apiError,
    reason:
      'The contract states ranges for page (1..2147483647) and perPage (5..1000); out-of-range values get ApiErrorData naming the parameter, a status the document does not list.',
  },
  {
    kind: 'response',
    area: 'core',
    method: 'GET',
    path: '/pullzone',
    status: 400,
    schema: apiError,
    reason: 'Same paging ranges as /apikey, enforced the same way.',
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'GET',
    path: '/shield/shield-zone/get-by-pullzone/{pullZoneId}',
    status: 404,
    schema: ref('AcceptedResult'),
    reason:
      'No shield zone for the pull zone: the contract\'s "shield single-zone error" shape, which the document only declares (as AcceptedResult) for 202.',
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'GET',
    path: '/shield/shield-zone/{shieldZoneId}',
    status: 404,
    schema: ref('AcceptedResult'),
    reason: 'Unknown shield zone: same single-zone error shape as get-by-pullzone.',
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'GET',
    path: '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}',
    status: 404,
    schema: ref('GetWafRuleMetricsResponse'),
    reason:
      "Unknown shield zone: the contract's metrics `error` member; the document lists no 404.",
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'GET',
    path: '/shield/metrics/shield-zone/{shieldZoneId}/waf-rule/{ruleId}',
    status: 400,
    schema: ref('GetWafRuleMetricsResponse'),
    reason:
      'A rule id outside ^[A-Za-z0-9_-]{1,64}$: metrics `error` member; the document lists no 400.',
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'PATCH',
    path: '/shield/shield-zone',
    status: 404,
    schema: ref('UpdateShieldZoneResponse'),
    reason:
      'Unknown shieldZoneId: `error` member of the update response; the document lists no 404.',
  },
  {
    kind: 'response',
    area: 'shield',
    method: 'PATCH',
    path: '/shield/shield-zone',
    status: 400,
    schema: ref('UpdateShieldZoneResponse'),
    reason:
      'Invalid update body: `error` member of the update response; the document lists no 400.',
  },
  // Before the route-wide 400 below: the first matching entry wins.
  ...SECURITY_EXCEPTIONS,
  ...(
    [
      ['core', apiError],
      ['mc', ref('ErrorDetails')],
      ['shield', ref('GetWafRuleMetricsResponse')],
    ] as const
  ).map(([area, schema]): ResponseException => ({
    kind: 'response',
    area,
    method: '*',
    path: '*',
    status: 400,
    schema,
    reason:
      "A request the official document rejects (strict mode), on an operation that declares no 400: the area's validation error shape.",
  })),
  ...FEATURE_EXCEPTIONS,
  ...(['core', 'mc', 'shield'] as const).map((area): ResponseException => ({
    kind: 'response',
    area,
    method: '*',
    path: '*',
    status: 429,
    schema: null,
    reason:
      'Injected by the rate-limit fault (token bucket) with a Retry-After header; request rate limits are not shown in the contract.',
  })),
];
