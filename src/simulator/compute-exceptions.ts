/**
 * Contract exceptions of the compute routes (edge scripts; see contract-exceptions.ts for the
 * kinds). Kept apart so the area's deviations read as one list; contract-exceptions.ts includes
 * them. The contract says nothing of edge scripts, so each row rests on the document's own gaps.
 */
import type { ResponseException } from './contract-exception-types.js';

const apiError = { $ref: '#/components/schemas/ApiErrorData' };

function row(
  method: string,
  path: string,
  status: number,
  schema: Record<string, unknown> | null,
  reason: string,
): ResponseException {
  return { kind: 'response', area: 'compute', method, path, status, schema, reason };
}

const PUBLISH_400 =
  "The document declares 400 without a body; the simulator says why in ApiErrorData (no code to publish, or no release with that uuid), the area's error shape.";

/** Deviations of the compute routes. */
export const COMPUTE_EXCEPTIONS: readonly ResponseException[] = [
  row('POST', '/compute/script/{id}/publish', 400, apiError, PUBLISH_400),
  row('POST', '/compute/script/{id}/publish/{uuid}', 400, apiError, PUBLISH_400),
  row(
    'POST',
    '/compute/script/{id}/variables/add',
    400,
    apiError,
    'A name the script already has is refused with ApiErrorData (an upsert by name could not tell them apart); the document lists no 400.',
  ),
  row(
    'GET',
    '/compute/script/{id}/secrets',
    404,
    null,
    'An unknown script answers 404 without a body, as every other operation on a script does; the document lists no 404 for this one.',
  ),
  ...['variables', 'secrets'].map((what) =>
    row(
      'PUT',
      `/compute/script/{id}/${what}`,
      204,
      null,
      'An upsert that updated an existing one answers 204 without a body: HTTP gives a 204 none, though the document declares one.',
    ),
  ),
];
