/**
 * Contract exceptions of the DNS routes (see contract-exceptions.ts for the two kinds). Kept
 * apart so the area's deviations read as one list; contract-exceptions.ts includes them. The
 * contract says nothing of DNS, so each row rests on the document's own gaps.
 */
import type { ResponseException } from './contract-exception-types.js';

const ref = (name: string): Record<string, unknown> => ({ $ref: `#/components/schemas/${name}` });
const apiError = ref('ApiErrorData');

function row(
  method: string,
  path: string,
  status: number,
  schema: Record<string, unknown> | null,
  reason: string,
): ResponseException {
  return { kind: 'response', area: 'core', method, path, status, schema, reason };
}

/** Deviations of the DNS routes. */
export const DNS_EXCEPTIONS: readonly ResponseException[] = [
  row(
    'POST',
    '/dnszone',
    201,
    ref('DnsZoneModel'),
    'The document declares no body for 201; the simulator returns the created zone (as the live service does, which the vendor Terraform provider reads the Id from).',
  ),
  row(
    'GET',
    '/dnszone',
    400,
    apiError,
    'Same paging ranges as /pullzone (page 1..2147483647, perPage 5..1000, from the document), enforced the same way; the document lists no 400.',
  ),
  row(
    'POST',
    '/dnszone/{id}',
    400,
    apiError,
    'An update with an invalid setting (custom nameserver not a host name, SoaEmail not an e-mail address, an enum out of range) gets ApiErrorData; the document lists no 400.',
  ),
  row(
    'POST',
    '/dnszone/checkavailability',
    200,
    {
      type: 'object',
      additionalProperties: false,
      required: ['Available'],
      properties: { Available: { type: 'boolean' } },
    },
    'The document shows no success body; the simulator returns { Available } like the storage zone check.',
  ),
  row(
    'GET',
    '/dnszone/{id}/export',
    404,
    null,
    'The document declares only 200 for the export; an unknown zone is 404 without a body like every other DNS zone route.',
  ),
  row(
    'GET',
    '/dnszone/{id}/export',
    401,
    null,
    'The document declares only 200 for the export; a request without a valid AccessKey is 401 without a body like every core route.',
  ),
  row(
    'GET',
    '/dnszone/{id}/statistics',
    400,
    apiError,
    'A dateFrom or dateTo that is not a date-time gets ApiErrorData; the document lists no 400.',
  ),
];
