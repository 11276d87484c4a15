/** Helpers shared by the pull zone route files. */
import { apiError, emptyStatus } from '../errors.js';
import type { StoredPullZone } from '../state.js';
import type { SimContext, SimRequest, SimResponse } from '../types.js';
import type { SettingsProblem } from './pullzone-settings.js';

/** Parses a non-negative integer path/query value. */
export function parseId(raw: string | undefined): number | undefined {
  return raw !== undefined && /^\d{1,15}$/.test(raw) ? Number(raw) : undefined;
}

/** The pull zone named by `{id}`, or the 404 response. */
export function zoneOr404(req: SimRequest, ctx: SimContext): StoredPullZone | SimResponse {
  const id = parseId(req.params.id);
  const zone = id === undefined ? undefined : ctx.state.pullZones.get(id);
  return zone ?? emptyStatus(404);
}

/** True when `value` is a response rather than a found zone. */
export function isResponse(value: StoredPullZone | SimResponse): value is SimResponse {
  return 'status' in value;
}

/** ApiErrorData 400 from a validation problem. */
export function badRequest(problem: SettingsProblem): SimResponse {
  return apiError(400, problem.errorKey, problem.field, problem.message);
}
