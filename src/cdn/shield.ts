/**
 * Shield endpoints (`/shield`). Answers come in `{data, error}` envelopes; an `error` member
 * reporting failure, or a bare status result (`{statusCode}` or the single-zone
 * `location`/`declaredType`/`statusCode` result) in place of `data`, becomes a CdnApiError
 * even when the HTTP status is 2xx.
 */
import { pathOf, type HttpTransport } from './http.js';
import type { CallOptions, PagedCallOptions } from './options.js';
import { isRecord } from './response.js';
import { followShieldPages, unwrapData } from './shield-answers.js';
import type {
  PagedShieldZones,
  ShieldZone,
  ShieldZoneCreate,
  ShieldZoneListItem,
  ShieldZoneSettings,
  ShieldZoneUpdate,
  WafRuleMetrics,
} from './types.js';
import { checkId, checkIntRange } from './validate.js';

const RULE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The shield zone of a pull zone; undefined when the API says it has none (404). */
export async function getShieldZoneByPullZone(
  http: HttpTransport,
  pullZoneId: number,
  opts?: CallOptions,
): Promise<ShieldZone | undefined> {
  const operation = 'getShieldZoneByPullZone';
  checkId(http, operation, 'pullZoneId', pullZoneId);
  try {
    const res = await http.request(
      { operation, method: 'GET', path: pathOf`/shield/shield-zone/get-by-pullzone/${pullZoneId}` },
      opts,
    );
    return unwrapData(http, operation, res.body) as ShieldZone;
  } catch (e) {
    if ((e as { kind?: unknown }).kind === 'notFound') return undefined;
    throw e;
  }
}

export async function getShieldZone(
  http: HttpTransport,
  shieldZoneId: number,
  opts?: CallOptions,
): Promise<ShieldZone> {
  const operation = 'getShieldZone';
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  const res = await http.request(
    { operation, method: 'GET', path: pathOf`/shield/shield-zone/${shieldZoneId}` },
    opts,
  );
  return unwrapData(http, operation, res.body) as ShieldZone;
}

export async function listShieldZones(
  http: HttpTransport,
  query: { page?: number; perPage?: number },
  opts?: CallOptions,
): Promise<PagedShieldZones> {
  const operation = 'listShieldZones';
  checkIntRange(http, operation, 'page', query.page, 1, 2147483647);
  checkIntRange(http, operation, 'perPage', query.perPage, 1, 1000);
  const res = await http.request(
    {
      operation,
      method: 'GET',
      path: '/shield/shield-zones',
      query: { page: query.page, perPage: query.perPage },
    },
    opts,
  );
  const data = unwrapData(http, operation, res.body);
  if (!Array.isArray(data))
    throw http.failure(operation, 'server', 'unexpected answer: data is not a list');
  const page =
    isRecord(res.body) && isRecord(res.body.page)
      ? (res.body.page as PagedShieldZones['page'])
      : {};
  return { data: data as ShieldZoneListItem[], page };
}

/** Follows `page.nextPage` (or `currentPage < totalPages`) until the last page. */
export function listAllShieldZones(
  http: HttpTransport,
  opts?: PagedCallOptions,
): Promise<ShieldZoneListItem[]> {
  return followShieldPages((page, perPage, o) => listShieldZones(http, { page, perPage }, o), opts);
}

/** `POST /shield/shield-zone` with `{pullZoneId, shieldZone: {...}}`. Retried only after a 429. */
export async function createShieldZone(
  http: HttpTransport,
  body: ShieldZoneCreate,
  opts?: CallOptions,
): Promise<ShieldZone> {
  const operation = 'createShieldZone';
  checkId(http, operation, 'pullZoneId', body.pullZoneId);
  const res = await http.request(
    { operation, method: 'POST', path: '/shield/shield-zone', body },
    opts,
  );
  const echo = unwrapData(http, operation, res.body) as Partial<ShieldZoneCreate>;
  return zoneFromEcho(
    http,
    operation,
    echo.shieldZone,
    echo.pullZoneId ?? body.pullZoneId,
    undefined,
    opts,
  );
}

/**
 * `PATCH /shield/shield-zone` with `{shieldZoneId, shieldZone: {...}}`. Retried only after a 429.
 */
export async function updateShieldZone(
  http: HttpTransport,
  body: ShieldZoneUpdate,
  opts?: CallOptions,
): Promise<ShieldZone> {
  const operation = 'updateShieldZone';
  checkId(http, operation, 'shieldZoneId', body.shieldZoneId);
  const res = await http.request(
    { operation, method: 'PATCH', path: '/shield/shield-zone', body },
    opts,
  );
  const echo = unwrapData(http, operation, res.body) as Partial<
    ShieldZoneUpdate & ShieldZoneCreate
  >;
  return zoneFromEcho(
    http,
    operation,
    echo.shieldZone,
    echo.pullZoneId,
    echo.shieldZoneId ?? body.shieldZoneId,
    opts,
  );
}

/**
 * Create and update answer with an echo of the request, not the zone record. The record is
 * read back when the echo lacks the zone id; otherwise the echoed settings are returned.
 */
async function zoneFromEcho(
  http: HttpTransport,
  operation: string,
  settings: ShieldZoneSettings | undefined,
  pullZoneId: number | undefined,
  shieldZoneId: number | undefined,
  opts?: CallOptions,
): Promise<ShieldZone> {
  const id = settings?.shieldZoneId || shieldZoneId;
  if (id && settings) {
    const { premiumPlan: _deprecated, ...rest } = settings;
    return { ...rest, shieldZoneId: id, ...(pullZoneId ? { pullZoneId } : {}) } as ShieldZone;
  }
  if (id) return getShieldZone(http, id, opts);
  const zone = pullZoneId ? await getShieldZoneByPullZone(http, pullZoneId, opts) : undefined;
  if (!zone) throw http.failure(operation, 'server', 'the API did not return the shield zone');
  return zone;
}

/** Trigger metrics of one WAF rule (`ruleId` matches `[A-Za-z0-9_-]{1,64}`). */
export async function getWafRuleMetrics(
  http: HttpTransport,
  shieldZoneId: number,
  ruleId: string,
  opts?: CallOptions,
): Promise<WafRuleMetrics> {
  const operation = 'getWafRuleMetrics';
  checkId(http, operation, 'shieldZoneId', shieldZoneId);
  if (!RULE_ID.test(ruleId)) {
    throw http.failure(
      operation,
      'invalid',
      `ruleId must match [A-Za-z0-9_-]{1,64}, got ${JSON.stringify(ruleId)}`,
      {
        field: 'ruleId',
      },
    );
  }
  const res = await http.request(
    {
      operation,
      method: 'GET',
      path: pathOf`/shield/metrics/shield-zone/${shieldZoneId}/waf-rule/${ruleId}`,
    },
    opts,
  );
  return unwrapData(http, operation, res.body) as WafRuleMetrics;
}
