/**
 * DNS record routes: add (`PUT /dnszone/{zoneId}/records`, 201 with the record), update
 * (`POST .../records/{id}`, 204; null or absent members leave a field unchanged), delete (204)
 * and the paged list (`GET /dnszone/{zoneId}/records?page=&perPage=&type=&search=`). Record ids
 * are unique across zones. A missing zone or record is 404 without a body, as documented.
 */
import { apiError, emptyStatus } from '../errors.js';
import type { StoredDnsZone } from '../dns-state.js';
import { recordHostname, textOf } from '../dns-state.js';
import type { SimState } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { accelerationConflict, dropAcceleration, syncAcceleration } from './dns-accelerate.js';
import { dnsZoneOr404, isDnsResponse, objectBody } from './dns-common.js';
import { buildRecord, mergeRecord, renderRecord, settledRecord, touchZone } from './dns-model.js';
import { recordTypeOf } from '../../cdn/dns-record-types.js';
import { conflictProblem, recordProblem } from './dns-record-rules.js';
import { pageOf, pageQueryProblem } from './paging.js';
import { badRequest, parseId } from './pullzone-common.js';
import type { SettingsProblem } from './pullzone-settings.js';

/**
 * Checks a candidate against the rules, the zone's other records and the hostnames of pull
 * zones, and builds the stored record; a problem names the field with `prefix` before it.
 */
export function checkedRecord(
  state: SimState,
  zone: StoredDnsZone,
  candidate: JsonObject,
  id: number,
  prefix = '',
): { record: JsonObject } | { problem: SettingsProblem } {
  const others = zone.records.filter((r) => r.Id !== id);
  const found = recordProblem(candidate, state) ?? conflictProblem(candidate, others);
  const record = found ? undefined : buildRecord(id, candidate, state);
  const problem = found ?? accelerationConflict(state, zone, record!);
  if (problem) return { problem: { ...problem, field: `${prefix}${problem.field}` } };
  return { record: record! };
}

/** Adds a validated record to a zone (ids are allocated here, after every check passed). */
export function commitNewRecord(state: SimState, zone: StoredDnsZone, record: JsonObject): void {
  record.Id = state.allocateId('dnsRecord');
  zone.records.push(record);
  syncAcceleration(state, zone, record);
}

function addRecord(req: SimRequest, ctx: SimContext): SimResponse {
  const body = objectBody(req.body);
  if (!body.ok) return body.response;
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const checked = checkedRecord(ctx.state, zone, { ...body.body }, 0);
  if ('problem' in checked) return badRequest(checked.problem);
  commitNewRecord(ctx.state, zone, checked.record);
  touchZone(ctx.state, zone);
  return { status: 201, body: renderRecord(ctx.state, checked.record) };
}

function recordIndexOr404(zone: StoredDnsZone, raw: string | undefined): number | SimResponse {
  const id = parseId(raw);
  const index = zone.records.findIndex((r) => r.Id === id);
  return index < 0 ? emptyStatus(404) : index;
}

function updateRecord(req: SimRequest, ctx: SimContext): SimResponse {
  const body = objectBody(req.body);
  if (!body.ok) return body.response;
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const index = recordIndexOr404(zone, req.params.id);
  if (typeof index !== 'number') return index;
  const stored = settledRecord(ctx.state, zone.records[index]!);
  const bodyId = body.body.Id;
  if (bodyId !== undefined && bodyId !== null && bodyId !== stored.Id) {
    return apiError(
      400,
      'dnsrecord.id_mismatch',
      'Id',
      `Id ${JSON.stringify(bodyId)} in the body is not record ${String(stored.Id)} of the path`,
    );
  }
  const checked = checkedRecord(
    ctx.state,
    zone,
    mergeRecord(stored, body.body),
    stored.Id as number,
  );
  if ('problem' in checked) return badRequest(checked.problem);
  zone.records[index] = checked.record;
  syncAcceleration(ctx.state, zone, checked.record, recordHostname(zone, stored));
  touchZone(ctx.state, zone);
  return emptyStatus(204);
}

function deleteRecord(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const index = recordIndexOr404(zone, req.params.id);
  if (typeof index !== 'number') return index;
  const [removed] = zone.records.splice(index, 1);
  dropAcceleration(ctx.state, removed!);
  touchZone(ctx.state, zone);
  return emptyStatus(204);
}

function typeFilter(raw: string | null): number | undefined | SettingsProblem {
  if (raw === null || raw === '') return undefined;
  return (
    recordTypeOf(raw) ?? {
      errorKey: 'validation.invalid_value',
      field: 'type',
      message: `type ${raw} is not a record type`,
    }
  );
}

function matchesSearch(record: JsonObject, search: string | null): boolean {
  if (!search) return true;
  const wanted = search.toLowerCase();
  return [record.Name, record.Value].some((v) => textOf(v).toLowerCase().includes(wanted));
}

function listRecords(req: SimRequest, ctx: SimContext): SimResponse {
  const paging = pageQueryProblem(req.query, { pageDefault: 1, perPageDefault: 1000 });
  if ('errorKey' in paging) return badRequest(paging);
  const type = typeFilter(req.query.get('type'));
  if (typeof type === 'object') return badRequest(type);
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  const items = zone.records
    .filter((r) => type === undefined || r.Type === type)
    .filter((r) => matchesSearch(r, req.query.get('search')))
    .map((r) => renderRecord(ctx.state, r));
  return { status: 200, body: pageOf(items, paging) };
}

/** Record routes. */
export const DNS_RECORD_ROUTES: RouteDef[] = [
  { method: 'PUT', template: '/dnszone/{zoneId}/records', area: 'core', handler: addRecord },
  { method: 'GET', template: '/dnszone/{zoneId}/records', area: 'core', handler: listRecords },
  {
    method: 'POST',
    template: '/dnszone/{zoneId}/records/{id}',
    area: 'core',
    handler: updateRecord,
  },
  {
    method: 'DELETE',
    template: '/dnszone/{zoneId}/records/{id}',
    area: 'core',
    handler: deleteRecord,
  },
];
