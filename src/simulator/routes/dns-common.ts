/** Helpers shared by the DNS route files: zone lookup, body shape, paging envelope. */
import { apiError, emptyStatus } from '../errors.js';
import type { StoredDnsZone } from '../dns-state.js';
import type { JsonObject, SimContext, SimResponse } from '../types.js';
import { parseId } from './pullzone-common.js';

/** The DNS zone named by a path parameter, or the 404 the documents declare (no body). */
export function dnsZoneOr404(
  raw: string | undefined,
  ctx: SimContext,
): StoredDnsZone | SimResponse {
  const id = parseId(raw);
  return (id === undefined ? undefined : ctx.state.dnsZones.get(id)) ?? emptyStatus(404);
}

/** True when `value` is a response rather than a found zone. */
export function isDnsResponse(value: StoredDnsZone | SimResponse): value is SimResponse {
  return 'status' in value;
}

/** A request body that is a JSON object, or the 400 for one that is not. */
export type ObjectBody = { ok: true; body: JsonObject } | { ok: false; response: SimResponse };

/** The body as an object, or the 400 for a body that is not one. */
export function objectBody(body: unknown): ObjectBody {
  if (typeof body === 'object' && body !== null && !Array.isArray(body))
    return { ok: true, body: body as JsonObject };
  return {
    ok: false,
    response: apiError(400, 'validation.invalid_body', 'body', 'body must be a JSON object'),
  };
}
