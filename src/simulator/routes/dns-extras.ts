/**
 * The rest of the DNS area: query statistics, the wildcard certificate of a zone and record
 * scans.
 *
 * - Statistics: no queries are served in a simulation, so every count is 0; the charts have
 *   one entry per day of the range (default the last 30 days, at most the last 366 days of it).
 * - Wildcard certificate: `Domain` (default `*.<zone>`) must be the zone's domain or a name
 *   inside it; the issue is recorded in the state (`hidden.wildcardCertificates`).
 * - Scans (`POST /dnszone/records/scan` with exactly one of `ZoneId`, `Domain`): the scan of the
 *   domain's public DNS finishes at once and finds nothing (cdn-sim sees no DNS outside itself);
 *   `GET /dnszone/{zoneId}/records/scan` answers the latest scan of the zone's domain, made
 *   before or after the zone was added. A request with neither or both is 400 without a body,
 *   as the document declares it.
 */
import { randomUUID } from 'node:crypto';
import { apiError, emptyStatus } from '../errors.js';
import { normalizeHost, type StoredDnsZone } from '../dns-state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { dnsZoneOr404, isDnsResponse } from './dns-common.js';
import { touchZone } from './dns-model.js';
import { hostnameProblem } from './dns-record-rules.js';
import { domainProblem } from './dns-zones.js';
import { isStatsProblem, statsRangeOf, zeroChart } from './stats-range.js';

function statistics(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.id, ctx);
  if (isDnsResponse(zone)) return zone;
  const range = statsRangeOf(req);
  if (isStatsProblem(range)) return range;
  const zeros = zeroChart(range);
  return {
    status: 200,
    body: {
      TotalQueriesServed: 0,
      QueriesServedChart: zeros,
      NormalQueriesServedChart: { ...zeros },
      SmartQueriesServedChart: { ...zeros },
      QueriesByTypeChart: {},
    },
  };
}

function certificateDomainProblem(zone: StoredDnsZone, domain: string): string | undefined {
  const zoneDomain = normalizeHost(String(zone.zone.Domain));
  const name = normalizeHost(domain).replace(/^\*\./, '');
  if (hostnameProblem(name) !== undefined) return `${domain} is not a domain name`;
  return name === zoneDomain || name.endsWith(`.${zoneDomain}`)
    ? undefined
    : `${domain} is not inside the zone ${zoneDomain}`;
}

function issueWildcardCertificate(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const body = (req.body ?? {}) as JsonObject;
  const domain = typeof body.Domain === 'string' && body.Domain !== '' ? body.Domain : undefined;
  const wanted = domain ?? `*.${String(zone.zone.Domain)}`;
  const problem = certificateDomainProblem(zone, wanted);
  if (problem) return apiError(400, 'dnszone.certificate_domain', 'Domain', problem);
  const issued = new Set(zone.hidden.wildcardCertificates ?? []);
  issued.add(normalizeHost(wanted));
  zone.hidden.wildcardCertificates = [...issued];
  touchZone(ctx.state, zone);
  return emptyStatus(200);
}

/** The domain a scan request names: its zone's (ZoneId) or the given one (Domain). */
function scanTarget(body: JsonObject, ctx: SimContext): string | SimResponse {
  const hasZone = body.ZoneId !== undefined && body.ZoneId !== null;
  const hasDomain = body.Domain !== undefined && body.Domain !== null;
  if (hasZone === hasDomain) return emptyStatus(400);
  if (hasDomain)
    return domainProblem(body.Domain, 'Domain') ? emptyStatus(400) : (body.Domain as string);
  const zone = dnsZoneOr404(String(body.ZoneId), ctx);
  return isDnsResponse(zone) ? zone : String(zone.zone.Domain);
}

function triggerScan(req: SimRequest, ctx: SimContext): SimResponse {
  const body = typeof req.body === 'object' && req.body !== null ? (req.body as JsonObject) : {};
  const target = scanTarget(body, ctx);
  if (typeof target !== 'string') return target;
  const domain = normalizeHost(target);
  const now = new Date().toISOString();
  const job: JsonObject = {
    JobId: randomUUID(),
    Domain: domain,
    AccountId: 'sim-user',
    Status: 2,
    CreatedAt: now,
    CompletedAt: now,
    Records: [],
    Error: null,
  };
  ctx.state.dnsScans.set(domain, job);
  ctx.state.touch();
  // The scan runs in the background on the platform: the trigger answers Pending.
  return { status: 200, body: { JobId: job.JobId, Status: 0 } };
}

function latestScan(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const job = ctx.state.dnsScans.get(normalizeHost(String(zone.zone.Domain)));
  if (!job) return emptyStatus(404);
  return { status: 200, body: { ...structuredClone(job), ZoneId: zone.zone.Id } };
}

/** Statistics, wildcard certificate and scan routes. */
export const DNS_EXTRA_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/dnszone/{id}/statistics', area: 'core', handler: statistics },
  {
    method: 'POST',
    template: '/dnszone/{zoneId}/certificate/issue',
    area: 'core',
    handler: issueWildcardCertificate,
  },
  { method: 'POST', template: '/dnszone/records/scan', area: 'core', handler: triggerScan },
  { method: 'GET', template: '/dnszone/{zoneId}/records/scan', area: 'core', handler: latestScan },
];
