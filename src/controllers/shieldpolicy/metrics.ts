/**
 * WAF rule trigger metrics copied into `status.ruleMetrics`. They are read at most once per
 * poll interval: `status.lastMetricsTime` (and, within one operator process, the time of the
 * last read) decide. A read whose values equal those in status changes nothing in status, so it
 * never causes a status write on its own.
 */
import { isCdnApiError } from '../../cdn/errors.js';
import { jsonEqual } from '../shared/plan.js';
import type { RuleMetricStatus } from './types.js';

/** The reader of one rule's metrics (`CdnClient.getWafRuleMetrics`). */
export type ReadRuleMetrics = (shieldZoneId: number, ruleId: string) => Promise<unknown>;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : 0;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Turns a metrics answer into a status entry. Accepts the `data` object the client returns or a
 * whole `{data, error}` envelope; an `error` member that reports failure yields an entry with
 * `error` instead of counters.
 */
export function parseRuleMetrics(ruleId: string, answer: unknown): RuleMetricStatus {
  const envelope = isRecord(answer) && ('data' in answer || 'error' in answer);
  const error = envelope ? answer.error : undefined;
  if (isRecord(error) && (error.success === false || count(error.statusCode) >= 400)) {
    return { ruleId, error: describeApiError(error) };
  }
  const data = envelope ? answer.data : answer;
  if (!isRecord(data)) return { ruleId, error: 'the metrics answer carried no data' };
  return {
    ruleId,
    totalTriggers: count(data.totalTriggers),
    blocked: count(data.blockedRequests),
    logged: count(data.loggedRequests),
    challenged: count(data.challengedRequests),
  };
}

function describeApiError(error: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof error.message === 'string' && error.message) parts.push(error.message);
  if (typeof error.errorKey === 'string' && error.errorKey) parts.push(`(${error.errorKey})`);
  if (parts.length === 0) parts.push(`status ${count(error.statusCode)}`);
  return parts.join(' ');
}

/** True when the error is worth reading again soon (network, 5xx, 429, 401). */
function isTransient(err: unknown): boolean {
  return !isCdnApiError(err) || err.retryable || err.kind === 'unauthorized';
}

/** Result of one metrics read. */
export interface MetricsRead {
  entries: RuleMetricStatus[];
  /** False when some rule could not be read for a transient reason (kept its old entry). */
  complete: boolean;
}

/**
 * Reads every rule in order. A rule the API rejects (unknown rule, invalid id) gets an entry
 * with `error`; a transient failure keeps the previous entry and marks the read incomplete.
 */
export async function readRuleMetrics(
  read: ReadRuleMetrics,
  shieldZoneId: number,
  ruleIds: readonly string[],
  previous: readonly RuleMetricStatus[] = [],
): Promise<MetricsRead> {
  const entries: RuleMetricStatus[] = [];
  let complete = true;
  for (const ruleId of ruleIds) {
    try {
      entries.push(parseRuleMetrics(ruleId, await read(shieldZoneId, ruleId)));
    } catch (err) {
      if (isTransient(err)) {
        complete = false;
        const old = previous.find((p) => p.ruleId === ruleId);
        if (old) entries.push(old);
        continue;
      }
      const e = err as { detail?: string; message?: string; errorKey?: string };
      const text = e.detail ?? e.message ?? 'unknown error';
      entries.push({ ruleId, error: e.errorKey ? `${text} (${e.errorKey})` : text });
    }
  }
  return { entries, complete };
}

/** Inputs of {@link metricsDue}. */
export interface MetricsClock {
  now: number;
  pollIntervalMs: number;
  /** `status.lastMetricsTime`. */
  lastMetricsTime?: string;
  /** When this process last read the metrics of the object (any outcome). */
  lastReadAt?: number;
  wantedRuleIds: readonly string[];
  current: readonly RuleMetricStatus[] | undefined;
}

/** True when the metrics must be read now: rule list changed, or the last read is a poll interval old. */
export function metricsDue(c: MetricsClock): boolean {
  if (c.wantedRuleIds.length === 0) return false;
  const shown = (c.current ?? []).map((m) => m.ruleId);
  if (!jsonEqual(shown, [...c.wantedRuleIds])) return true;
  const fromStatus = c.lastMetricsTime ? Date.parse(c.lastMetricsTime) : NaN;
  const last = Math.max(Number.isNaN(fromStatus) ? 0 : fromStatus, c.lastReadAt ?? 0);
  return c.now - last >= c.pollIntervalMs;
}

/**
 * The status members after a read: `lastMetricsTime` moves only when the values changed, so an
 * unchanged read leaves status exactly as it was.
 */
export function metricsStatus(
  entries: RuleMetricStatus[],
  current: readonly RuleMetricStatus[] | undefined,
  lastMetricsTime: string | undefined,
  now: Date,
): { ruleMetrics: RuleMetricStatus[]; lastMetricsTime: string } {
  if (current && lastMetricsTime && jsonEqual(entries, current)) {
    return { ruleMetrics: [...current], lastMetricsTime };
  }
  return { ruleMetrics: entries, lastMetricsTime: now.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}
