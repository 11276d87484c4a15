/**
 * The one place that lists where cdn-sim deliberately differs from the official OpenAPI
 * documents, each with its reason (the row types are in contract-exception-types.ts):
 *
 * - `schema-patch`: a change applied to a document component before validation (the contract
 *   needs a field or a relaxation the document lacks).
 * - `response`: a response the document does not declare (status or body), with the JSON schema
 *   the simulator's body follows instead. `path: '*'` matches every route of the area.
 * - `binding`: a rule of the live platform's model binding (case-insensitive names, unknown
 *   members ignored, nulls for optional members) that accepts what the documents, read exactly,
 *   reject. Every use is recorded, so our own clients are still held to the exact documents.
 *
 * The rows of the shield rule, access list, registry and log forwarding routes are written in
 * security-exceptions.ts, those of the DNS routes in dns-exceptions.ts, those of the edge script
 * routes in compute-exceptions.ts, and those that rest on
 * the live platform (a public client's use) rather than the contract in live-exceptions.ts; all
 * are included here, so the table stays one list.
 *
 * test/support/openapi.ts applies this table when it validates requests and responses, and
 * docs/simulator.md repeats it for users. The contract (management-api.md) wins over the
 * documents where it is newer; where the contract is silent, or older than the documents, the
 * simulator follows the document.
 */
import type {
  BindingException,
  BindingRule,
  ContractException,
  ResponseException,
} from './contract-exception-types.js';
import { SECURITY_EXCEPTIONS } from './security-exceptions.js';

import { DNS_EXCEPTIONS } from './dns-exceptions.js';
import { COMPUTE_EXCEPTIONS } from './compute-exceptions.js';
import { LIVE_EXCEPTIONS } from './live-exceptions.js';

export type {
  BindingException,
  BindingRule,
  ContractException,
  ExceptionArea,
  ResponseException,
  SchemaPatchDeviation,
  SchemaPatchException,
} from './contract-exception-types.js';

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });
const PAGED_REASON =
  "The document's text says page > 0 returns a paged object, but its schema only shows the plain array.";
const apiError = ref('ApiErrorData');
/** The validation (400) and not-simulated (501) error shape of each area. */
const AREA_ERRORS = [
  ['core', apiError],
  ['mc', ref('ErrorDetails')],
  ['shield', ref('GetWafRuleMetricsResponse')],
  ['compute', apiError],
] as const;

function badRequest(method: string, path: string, reason: string): ResponseException {
  return { kind: 'response', area: 'core', method, path, status: 400, schema: apiError, reason };
}

/**
 * A core list that answers a plain array, or the paged object when `page >= 1` (and, for
 * `/pullzone`, when `search` is given).
 */
function pagedList(path: string, item: string, reason = PAGED_REASON): ResponseException {
  const items = { type: 'array', items: ref(item) };
  return {
    kind: 'response',
    area: 'core',
    method: 'GET',
    path,
    status: 200,
    schema: {
      anyOf: [
        items,
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            Items: items,
            CurrentPage: { type: 'integer' },
            TotalItems: { type: 'integer' },
            HasMoreItems: { type: 'boolean' },
          },
        },
      ],
    },
    reason,
  };
}

function binding(
  rule: BindingRule,
  accepts: string,
  binds: string,
  reason: string,
): BindingException {
  return { kind: 'binding', rule, accepts, binds, reason };
}

/** Why the binding rows exist at all. */
const LIVE_BINDING =
  "The live API binds bodies and query strings the way ASP.NET does, and widely used clients (the platform vendor's own among them) depend on it; a simulator that refuses what the platform accepts fails those clients.";

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
  ...LIVE_EXCEPTIONS,
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
  pagedList(
    '/pullzone',
    'PullZoneModel',
    `${PAGED_REASON} A search without page also answers the paged form: the vendor's Terraform provider and other live clients read \`?search=NAME\` that way.`,
  ),
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
  ...COMPUTE_EXCEPTIONS,
  ...AREA_ERRORS.map(([area, schema]): ResponseException => ({
    kind: 'response',
    area,
    method: '*',
    path: '*',
    status: 400,
    schema,
    reason:
      "A request the official document rejects (strict mode), on an operation that declares no 400: the area's validation error shape.",
  })),
  ...AREA_ERRORS.map(([area, schema]): ResponseException => ({
    kind: 'response',
    area,
    method: '*',
    path: '*',
    status: 501,
    schema,
    reason:
      "An operation the official document has but cdn-sim does not simulate: 501 in the area's error shape, naming the route. A 404 would tell a client the resource is gone.",
  })),
  {
    kind: 'response',
    area: 'core',
    method: 'POST',
    path: '/pullzone/{pullZoneId}/edgerules/addOrUpdate',
    status: 201,
    schema: ref('EdgeRuleV2Model'),
    reason:
      'The document declares no body for 201; live clients read the created or updated rule, its Guid included, from the answer (like the created record of POST /pullzone).',
  },
  badRequest(
    'POST',
    '/pullzone/{pullZoneId}/edgerules/addOrUpdate',
    'A body that fails model binding (unknown action or trigger type, a wrong type) or a change to a read-only rule gets ApiErrorData; the document lists no 400.',
  ),
  badRequest(
    'DELETE',
    '/pullzone/{pullZoneId}/edgerules/{edgeRuleId}',
    'Deleting a read-only rule is refused with ApiErrorData; the document lists no 400.',
  ),
  badRequest(
    'POST',
    '/pullzone/{id}/purgeCache',
    'A body other than null or { CacheTag } gets ApiErrorData; the document lists no 400.',
  ),
  badRequest(
    'POST',
    '/purge',
    'A missing or non-http(s) url, or a non-boolean async/exactPath, gets ApiErrorData; the document lists no 400.',
  ),
  badRequest(
    'GET',
    '/storagezone',
    'Same paging ranges as /pullzone (page 1..2147483647, perPage 5..1000), enforced the same way.',
  ),
  pagedList('/storagezone', 'StorageZoneModel'),
  ...DNS_EXCEPTIONS,
  ...(['core', 'mc', 'shield', 'compute'] as const).map((area): ResponseException => ({
    kind: 'response',
    area,
    method: '*',
    path: '*',
    status: 429,
    schema: null,
    reason:
      'Injected by the rate-limit fault (token bucket) with a Retry-After header; request rate limits are not shown in the contract.',
  })),
  binding(
    'member-case',
    'a member name in another case than the document spells it (EnableWebPVary, runtimeType given as RuntimeType)',
    'the member as the document spells it',
    LIVE_BINDING,
  ),
  binding(
    'unknown-member',
    'a member the model does not declare, e.g. read-model members sent back (Id, ZoneSecurityKey, Hostnames, packageId)',
    'dropped, as the live platform ignores it',
    LIVE_BINDING,
  ),
  binding(
    'null-optional',
    'null for an optional member the document does not declare nullable (probes.startup, stickySessions)',
    'dropped: the member counts as absent, its default applies',
    LIVE_BINDING,
  ),
  binding(
    'enum-case',
    'a string enum value in another case (runtimeType "Shared", imagePullPolicy "Always")',
    'the value as the document spells it',
    LIVE_BINDING,
  ),
  binding(
    'query-name-case',
    'a query parameter name in another case (PerPage)',
    'the parameter as the document spells it',
    LIVE_BINDING,
  ),
  binding(
    'query-unknown',
    'a query parameter the operation does not declare',
    'dropped, as the live platform ignores it',
    LIVE_BINDING,
  ),
  binding(
    'query-boolean-case',
    'a boolean query value in another case (True, FALSE)',
    'true or false',
    LIVE_BINDING,
  ),
];
