/**
 * Contract exceptions of the edge rule, purge and storage zone routes (see
 * contract-exceptions.ts for the two kinds). Kept apart so the feature's deviations read as
 * one list; contract-exceptions.ts includes them.
 */
import type { ResponseException } from './contract-exceptions.js';

const apiError = { $ref: '#/components/schemas/ApiErrorData' };
const storageZone = { $ref: '#/components/schemas/StorageZoneModel' };

function badRequest(method: string, path: string, reason: string): ResponseException {
  return { kind: 'response', area: 'core', method, path, status: 400, schema: apiError, reason };
}

/** Deviations of the edge rule, purge and storage zone routes. */
export const FEATURE_EXCEPTIONS: readonly ResponseException[] = [
  badRequest(
    'POST',
    '/pullzone/{pullZoneId}/edgerules/addOrUpdate',
    'A body that fails model binding (unknown action or trigger type, unknown property) or a change to a read-only rule gets ApiErrorData; the document lists no 400.',
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
  {
    kind: 'response',
    area: 'core',
    method: 'GET',
    path: '/storagezone',
    status: 200,
    schema: {
      anyOf: [
        { type: 'array', items: storageZone },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            Items: { type: 'array', items: storageZone },
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
];
