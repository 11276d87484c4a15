/**
 * The managed WAF rules of a zone waiting for review (`GET /shield/waf/rules/review-triggered/
 * {shieldZoneId}`), shown in `status.waf`: the {@link SHOWN_TRIGGERED_RULES} with the most
 * triggered requests and the total count. Pure mapping; external.ts reads the answer at most
 * once per poll interval and only while the zone's WAF is on.
 *
 * The order is fixed (requests, then rule id) and nothing time-dependent is kept, so the same
 * answer always maps to the same status and a read that finds nothing new writes nothing.
 */
import type { TriggeredRule } from '../../cdn/security-types.js';
import type { TriggeredRuleStatus, WafStatus } from './types.js';

/** Rules shown in status (the total counts them all). */
export const SHOWN_TRIGGERED_RULES = 20;
/** Longest description kept in status (longer ones are cut, ending in `…`). */
export const MAX_DESCRIPTION = 200;

function count(v: unknown): number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

function shorten(text: string): string {
  return text.length <= MAX_DESCRIPTION ? text : `${text.slice(0, MAX_DESCRIPTION - 1)}…`;
}

function entryOf(rule: TriggeredRule): TriggeredRuleStatus | undefined {
  if (typeof rule.ruleId !== 'string' || rule.ruleId === '') return undefined;
  const description =
    typeof rule.ruleDescription === 'string' && rule.ruleDescription.trim() !== ''
      ? shorten(rule.ruleDescription.trim())
      : undefined;
  return {
    ruleId: rule.ruleId,
    ...(description !== undefined ? { description } : {}),
    requests: count(rule.totalTriggeredRequests),
  };
}

function byRequests(a: TriggeredRuleStatus, b: TriggeredRuleStatus): number {
  if (a.requests !== b.requests) return b.requests - a.requests;
  return a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0;
}

/** `status.waf` of a triggered-rules answer. */
export function triggeredStatus(answer: {
  rules: readonly TriggeredRule[];
  total: number;
}): WafStatus {
  // One entry per rule id (the highest count, should the platform list one twice).
  const unique = new Map<string, TriggeredRuleStatus>();
  for (const e of answer.rules.map(entryOf)) {
    if (e && (unique.get(e.ruleId)?.requests ?? -1) < e.requests) unique.set(e.ruleId, e);
  }
  const entries = [...unique.values()];
  const shown = entries.sort(byRequests).slice(0, SHOWN_TRIGGERED_RULES);
  const total = Math.max(count(answer.total), entries.length);
  return { triggeredRulesTotal: total, ...(shown.length > 0 ? { triggeredRules: shown } : {}) };
}
