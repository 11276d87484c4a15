/**
 * DNS zone routes: list (`GET /dnszone`, paged like every core list, `search` on the domain,
 * `view=1` leaves records out), add (201 with the zone; optional initial `Records`, added all
 * or none), get, update (200 with the zone), delete (204) and the availability check.
 *
 * Decisions where the documents are silent: a domain is unique in the account and
 * case-insensitive (400 `dnszone.domain_taken`); it must be a host name of at least two labels;
 * with `CustomNameserversEnabled` false the zone keeps the platform's nameservers and SOA
 * contact (values sent for them are ignored), with it true they must be a host name and an
 * e-mail address.
 */
import { emptyStatus } from '../errors.js';
import {
  draftDnsZone,
  findDnsZoneByDomain,
  normalizeHost,
  recordHostname,
  type StoredDnsZone,
} from '../dns-state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { dropAcceleration } from './dns-accelerate.js';
import { dnsZoneOr404, isDnsResponse, objectBody } from './dns-common.js';
import {
  createDnsZone,
  DEFAULT_NAMESERVERS,
  DEFAULT_SOA_EMAIL,
  renderDnsZone,
  touchZone,
} from './dns-model.js';
import { checkedRecord, commitNewRecord } from './dns-records.js';
import { hostnameProblem } from './dns-record-rules.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { badRequest } from './pullzone-common.js';
import type { SettingsProblem } from './pullzone-settings.js';

function isLite(req: SimRequest): boolean {
  return req.query.get('view') === '1' || req.query.get('view')?.toLowerCase() === 'lite';
}

function listZones(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const search = req.query.get('search')?.toLowerCase();
  const zones = [...ctx.state.dnsZones.values()];
  const found = search ? zones.filter((z) => String(z.zone.Domain).includes(search)) : zones;
  const lite = isLite(req);
  return { status: 200, body: pageOf(found, paging, (z) => renderDnsZone(ctx.state, z, lite)) };
}

/** Why `domain` cannot be a zone (a host name of two labels or more), or undefined. */
export function domainProblem(domain: unknown, field: string): SettingsProblem | undefined {
  if (typeof domain !== 'string' || domain.trim() === '')
    return { errorKey: 'validation.required', field, message: `${field} is required` };
  const why = hostnameProblem(domain.trim());
  if (why || !domain.includes('.') || domain.includes('_')) {
    return {
      errorKey: 'dnszone.invalid_domain',
      field,
      message: `${field} ${JSON.stringify(domain)} is not a domain name${why ? `: it ${why}` : ''}`,
    };
  }
  return undefined;
}

function takenProblem(ctx: SimContext, domain: string): SettingsProblem | undefined {
  if (!findDnsZoneByDomain(ctx.state, domain)) return undefined;
  return {
    errorKey: 'dnszone.domain_taken',
    field: 'Domain',
    message: `The DNS zone ${normalizeHost(domain)} already exists`,
  };
}

/** Two accelerated records of one name would need the same hostname on two pull zones. */
function acceleratedTwin(draft: StoredDnsZone, record: JsonObject): SettingsProblem | undefined {
  if (record.Accelerated !== true) return undefined;
  const host = recordHostname(draft, record);
  const twin = draft.records.some(
    (r) => r.Accelerated === true && recordHostname(draft, r) === host,
  );
  return twin
    ? {
        errorKey: 'dnsrecord.hostname_taken',
        field: 'Accelerated',
        message: `${host} is accelerated twice`,
      }
    : undefined;
}

/** Checks the initial records against a zone that is not stored yet. */
function initialRecords(
  ctx: SimContext,
  domain: string,
  records: unknown,
): { records: JsonObject[] } | { problem: SettingsProblem } {
  const draft: StoredDnsZone = draftDnsZone(domain);
  const list = Array.isArray(records) ? (records as unknown[]) : [];
  for (const [i, item] of list.entries()) {
    const candidate = typeof item === 'object' && item !== null ? { ...(item as JsonObject) } : {};
    const checked = checkedRecord(ctx.state, draft, candidate, -1 - i, `Records[${i}].`);
    if ('problem' in checked) return checked;
    const twin = acceleratedTwin(draft, checked.record);
    if (twin) return { problem: { ...twin, field: `Records[${i}].${twin.field}` } };
    draft.records.push(checked.record);
  }
  return { records: draft.records };
}

function addZone(req: SimRequest, ctx: SimContext): SimResponse {
  const body = objectBody(req.body);
  if (!body.ok) return body.response;
  const domain = body.body.Domain;
  const invalid = domainProblem(domain, 'Domain') ?? takenProblem(ctx, domain as string);
  if (invalid) return badRequest(invalid);
  const initial = initialRecords(ctx, (domain as string).trim(), body.body.Records);
  if ('problem' in initial) return badRequest(initial.problem);
  const zone = createDnsZone(ctx.state, (domain as string).trim());
  for (const record of initial.records) commitNewRecord(ctx.state, zone, record);
  return { status: 201, body: renderDnsZone(ctx.state, zone) };
}

function getZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.id, ctx);
  if (isDnsResponse(zone)) return zone;
  return { status: 200, body: renderDnsZone(ctx.state, zone, isLite(req)) };
}

const ENUMS: Record<string, readonly number[]> = {
  LogAnonymizationType: [0, 1],
  CertificateKeyType: [0, 1],
};
const FLAGS = ['CustomNameserversEnabled', 'LoggingEnabled', 'LoggingIPAnonymizationEnabled'];

function settingsProblem(body: JsonObject): SettingsProblem | undefined {
  const flag = FLAGS.find((f) => body[f] != null && typeof body[f] !== 'boolean');
  if (flag)
    return {
      errorKey: 'validation.invalid_value',
      field: flag,
      message: `${flag} must be a boolean`,
    };
  const bad = Object.keys(ENUMS).find(
    (f) => body[f] != null && !ENUMS[f]!.includes(body[f] as number),
  );
  if (bad)
    return { errorKey: 'validation.invalid_value', field: bad, message: `${bad} must be 0 or 1` };
  return undefined;
}

function nameserverProblem(body: JsonObject): SettingsProblem | undefined {
  for (const field of ['Nameserver1', 'Nameserver2']) {
    const value = body[field];
    const why =
      value == null
        ? undefined
        : typeof value === 'string'
          ? hostnameProblem(value)
          : 'must be a string';
    if (why) return { errorKey: 'validation.invalid_value', field, message: `${field} ${why}` };
  }
  const email = body.SoaEmail;
  if (email != null && !(typeof email === 'string' && /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)))
    return {
      errorKey: 'validation.invalid_value',
      field: 'SoaEmail',
      message: 'SoaEmail must be an e-mail address',
    };
  return undefined;
}

function applyZoneSettings(zone: StoredDnsZone, body: JsonObject): void {
  for (const field of [...FLAGS, ...Object.keys(ENUMS)]) {
    if (body[field] != null) zone.zone[field] = body[field];
  }
  if (zone.zone.CustomNameserversEnabled !== true) {
    Object.assign(zone.zone, DEFAULT_NAMESERVERS, { SoaEmail: DEFAULT_SOA_EMAIL });
    return;
  }
  for (const field of ['Nameserver1', 'Nameserver2', 'SoaEmail']) {
    if (body[field] != null) zone.zone[field] = body[field];
  }
}

function updateZone(req: SimRequest, ctx: SimContext): SimResponse {
  const body = objectBody(req.body);
  if (!body.ok) return body.response;
  const problem = settingsProblem(body.body);
  if (problem) return badRequest(problem);
  const zone = dnsZoneOr404(req.params.id, ctx);
  if (isDnsResponse(zone)) return zone;
  const custom = body.body.CustomNameserversEnabled ?? zone.zone.CustomNameserversEnabled;
  const invalid = custom === true ? nameserverProblem(body.body) : undefined;
  if (invalid) return badRequest(invalid);
  applyZoneSettings(zone, body.body);
  touchZone(ctx.state, zone);
  return { status: 200, body: renderDnsZone(ctx.state, zone) };
}

function deleteZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.id, ctx);
  if (isDnsResponse(zone)) return zone;
  for (const record of zone.records) dropAcceleration(ctx.state, record);
  ctx.state.dnsZones.delete(zone.zone.Id as number);
  ctx.state.touch();
  return emptyStatus(204);
}

function checkAvailability(req: SimRequest, ctx: SimContext): SimResponse {
  const body = objectBody(req.body);
  if (!body.ok) return body.response;
  const invalid = domainProblem(body.body.Name, 'Name');
  if (invalid) return badRequest(invalid);
  return {
    status: 200,
    body: { Available: !findDnsZoneByDomain(ctx.state, body.body.Name as string) },
  };
}

/** Zone lifecycle routes. */
export const DNS_ZONE_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/dnszone', area: 'core', handler: listZones },
  { method: 'POST', template: '/dnszone', area: 'core', handler: addZone },
  {
    method: 'POST',
    template: '/dnszone/checkavailability',
    area: 'core',
    handler: checkAvailability,
  },
  { method: 'GET', template: '/dnszone/{id}', area: 'core', handler: getZone },
  { method: 'POST', template: '/dnszone/{id}', area: 'core', handler: updateZone },
  { method: 'DELETE', template: '/dnszone/{id}', area: 'core', handler: deleteZone },
];
