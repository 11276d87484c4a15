/**
 * The date range of the statistics routes (DNS zones, edge scripts): `dateFrom` and `dateTo`
 * query parameters (date-time; default the last 30 days up to now) and the chart keys of the
 * range, one per day (at most the last 366 days) or per hour (at most the last 744 hours, 31
 * days). No traffic is served in a simulation, so the routes answer a zero for every key.
 */
import { apiError } from '../errors.js';
import type { SimRequest, SimResponse } from '../types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MAX_DAYS = 366;
const MAX_HOURS = 31 * 24;
const DEFAULT_DAYS = 30;

/** A statistics range: its first and last instant. */
export interface StatsRange {
  from: Date;
  to: Date;
}

function dateParam(req: SimRequest, name: string): Date | undefined | SimResponse {
  const raw = req.query.get(name);
  if (raw === null || raw === '') return undefined;
  const t = Date.parse(raw);
  return Number.isNaN(t)
    ? apiError(400, 'validation.invalid_value', name, `${name} must be a date-time, got ${raw}`)
    : new Date(t);
}

/** The range `dateFrom`..`dateTo` of a request, or the 400 answer naming a bad parameter. */
export function statsRangeOf(req: SimRequest): StatsRange | SimResponse {
  const to = dateParam(req, 'dateTo');
  if (to && !(to instanceof Date)) return to;
  const from = dateParam(req, 'dateFrom');
  if (from && !(from instanceof Date)) return from;
  const end = to ?? new Date();
  return { from: from ?? new Date(end.getTime() - DEFAULT_DAYS * DAY_MS), to: end };
}

/** True when `value` is the 400 answer of {@link statsRangeOf}. */
export function isStatsProblem(value: StatsRange | SimResponse): value is SimResponse {
  return 'status' in value;
}

/** A chart with a zero for each day (or hour) of the range, keyed by ISO date-time. */
export function zeroChart(range: StatsRange, hourly = false): Record<string, number> {
  const step = hourly ? HOUR_MS : DAY_MS;
  const last = Math.floor(range.to.getTime() / step);
  const first = Math.max(
    Math.floor(range.from.getTime() / step),
    last - (hourly ? MAX_HOURS : MAX_DAYS) + 1,
  );
  const chart: Record<string, number> = {};
  for (let n = first; n <= last; n++) chart[new Date(n * step).toISOString()] = 0;
  return chart;
}
