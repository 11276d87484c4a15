/**
 * Per-zone shield features: bot detection and upload scanning (`{data, error}` envelopes,
 * `PATCH` with only the members that change), custom response pages (the HTML is sent as the
 * raw body, `text/html`, and read back as a string), the managed WAF rules a zone's plan has,
 * the rules each plan adds, and the review of triggered rules (which moves a rule to the
 * zone's log-only or disabled list). Writes are retried only after a 429.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions } from './options.js';
import { expectArray, isRecord } from './response.js';
import type {
  BotDetection,
  BotDetectionUpdate,
  TriggeredRule,
  TriggeredRuleReview,
  UploadScanning,
  UploadScanningUpdate,
  WafRuleGroup,
  WafRulesByPlan,
} from './security-types.js';
import {
  checkGenericResult,
  checkShieldZoneId,
  throwErrorMember,
  unwrapData,
  unwrapRecord,
} from './shield-answers.js';
import { checkId, checkNonEmpty } from './validate.js';

/** Largest custom page the client sends (the platform states no bound; 1 MiB). */
export const MAX_CUSTOM_PAGE_BYTES = 1024 * 1024;

/**
 * The custom response page types: the platform's documentation names challenge, block and
 * rate limit pages; the API document leaves `{pageType}` an open string, so this is the list
 * `cdnctl export` reads (and cdn-sim accepts).
 */
export const CUSTOM_PAGE_TYPES: readonly string[] = ['block', 'challenge', 'ratelimit'];

function zonePath(shieldZoneId: number, rest: string): string {
  return `${pathOf`/shield/shield-zone/${shieldZoneId}`}${rest}`;
}

async function readSetting<T>(
  http: HttpTransport,
  operation: string,
  shieldZoneId: number,
  rest: string,
  opts?: CallOptions,
): Promise<T> {
  checkShieldZoneId(http, operation, shieldZoneId);
  const res = await http.request(
    { operation, method: 'GET', path: zonePath(shieldZoneId, rest) },
    opts,
  );
  return unwrapData(http, operation, res.body) as T;
}

async function patchSetting<T>(
  http: HttpTransport,
  operation: string,
  shieldZoneId: number,
  rest: string,
  patch: object,
  opts?: CallOptions,
): Promise<T> {
  checkShieldZoneId(http, operation, shieldZoneId);
  if (Object.values(patch).every((v) => v === undefined))
    throw http.failure(operation, 'invalid', 'nothing to change: the patch is empty');
  const res = await http.request(
    { operation, method: 'PATCH', path: zonePath(shieldZoneId, rest), body: patch },
    opts,
  );
  return unwrapData(http, operation, res.body) as T;
}

/** The zone's bot detection settings (the service defaults until changed). */
export function getBotDetection(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<BotDetection> {
  return readSetting(http, 'getBotDetection', shieldZoneId, '/bot-detection', opts);
}

/** Changes bot detection; a nested object given replaces the whole object (send it complete). */
export function updateBotDetection(
  http: HttpTransport,
  shieldZoneId: number,
  patch: BotDetectionUpdate,
  opts?: CallOptions,
): Promise<BotDetection> {
  return patchSetting(http, 'updateBotDetection', shieldZoneId, '/bot-detection', patch, opts);
}

/** The zone's upload scanning settings. */
export function getUploadScanning(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<UploadScanning> {
  return readSetting(http, 'getUploadScanning', shieldZoneId, '/upload-scanning', opts);
}

/** Changes upload scanning (only the members given). */
export function updateUploadScanning(
  http: HttpTransport,
  shieldZoneId: number,
  patch: UploadScanningUpdate,
  opts?: CallOptions,
): Promise<UploadScanning> {
  const rest = '/upload-scanning';
  return patchSetting(http, 'updateUploadScanning', shieldZoneId, rest, patch, opts);
}

function pagePath(http: HttpTransport, operation: string, zone: number, pageType: string): string {
  checkShieldZoneId(http, operation, zone);
  checkNonEmpty(http, operation, 'pageType', pageType);
  return zonePath(zone, pathOf`/custom-page/${pageType}`);
}

/** A custom response page's HTML, or undefined when the zone has none of that type. */
export async function getCustomPage(
  http: HttpTransport,
  shieldZoneId: number,
  pageType: string,
  opts?: CallOptions,
): Promise<string | undefined> {
  const operation = 'getCustomPage';
  const path = pagePath(http, operation, shieldZoneId, pageType);
  try {
    const res = await http.request({ operation, method: 'GET', path }, opts);
    if (typeof res.body !== 'string')
      throw http.failure(operation, 'server', 'unexpected answer: the page is not a string');
    return res.body;
  } catch (e) {
    if ((e as { kind?: unknown }).kind === 'notFound') return undefined;
    throw e;
  }
}

/**
 * Uploads (or replaces) a custom response page; `html` goes as the raw `text/html` body.
 * Advanced plan or higher (403 otherwise).
 */
export async function putCustomPage(
  http: HttpTransport,
  shieldZoneId: number,
  pageType: string,
  html: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'putCustomPage';
  const path = pagePath(http, operation, shieldZoneId, pageType);
  checkNonEmpty(http, operation, 'html', html);
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > MAX_CUSTOM_PAGE_BYTES) {
    const why = `html is ${bytes} bytes, more than ${MAX_CUSTOM_PAGE_BYTES}`;
    throw http.failure(operation, 'invalid', why, { field: 'html' });
  }
  const res = await http.request(
    { operation, method: 'PUT', path, body: html, contentType: 'text/html; charset=utf-8' },
    opts,
  );
  checkGenericResult(http, operation, res.body);
}

/** Deletes a custom response page (`notFound` when there is none). */
export async function deleteCustomPage(
  http: HttpTransport,
  shieldZoneId: number,
  pageType: string,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'deleteCustomPage';
  const path = pagePath(http, operation, shieldZoneId, pageType);
  const res = await http.request({ operation, method: 'DELETE', path }, opts);
  checkGenericResult(http, operation, res.body);
}

/** The managed WAF rules the zone's plan has. */
export async function listWafRules(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<WafRuleGroup[]> {
  const operation = 'listWafRules';
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  const res = await http.request(
    { operation, method: 'GET', path: pathOf`/shield/waf/rules/${shieldZoneId}` },
    opts,
  );
  return expectArray<WafRuleGroup>(http, operation, res.body);
}

/** Each plan with the managed rules it adds: tells which plan a rule id needs. */
export async function getWafRulesByPlan(
  http: HttpTransport,
  opts?: CallOptions,
): Promise<WafRulesByPlan[]> {
  const operation = 'getWafRulesByPlan';
  const res = await http.request(
    { operation, method: 'GET', path: '/shield/waf/rules/plan-segmentation' },
    opts,
  );
  const data = unwrapData(http, operation, res.body);
  return expectArray<WafRulesByPlan>(http, operation, data);
}

/** Triggered managed rules of a zone waiting for review, and their number. */
export async function listTriggeredRules(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<{ rules: TriggeredRule[]; total: number }> {
  const operation = 'listTriggeredRules';
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  const res = await http.request(
    {
      operation,
      method: 'GET',
      path: pathOf`/shield/waf/rules/review-triggered/${shieldZoneId}`,
    },
    opts,
  );
  const body = unwrapRecord<{
    triggeredRules?: TriggeredRule[] | null;
    totalTriggeredRules?: number;
  }>(http, operation, res.body);
  const rules = body.triggeredRules ?? [];
  return { rules, total: body.totalTriggeredRules ?? rules.length };
}

/**
 * Reviews a triggered rule: action 0 ignores it, 1 makes it log-only, 2 disables it on the
 * zone. A rule the zone's plan does not have is refused (403).
 */
export async function reviewTriggeredRule(
  http: HttpTransport,
  shieldZoneId: number,
  review: TriggeredRuleReview,
  opts?: CallOptions,
): Promise<void> {
  const operation = 'reviewTriggeredRule';
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  checkNonEmpty(http, operation, 'ruleId', review.ruleId ?? '');
  const res = await http.request(
    {
      operation,
      method: 'POST',
      path: pathOf`/shield/waf/rules/review-triggered/${shieldZoneId}`,
      body: review,
    },
    opts,
  );
  const body = unwrapRecord<{ success?: boolean }>(http, operation, res.body);
  if (isRecord(body) && body.success === false)
    throwErrorMember(http, operation, { success: false, message: 'the review was not applied' });
}
