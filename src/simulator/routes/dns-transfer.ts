/**
 * Zone file export (`GET /dnszone/{id}/export`: `application/octet-stream`, as documented) and
 * import (`POST /dnszone/{zoneId}/import`). The document declares no request body for the
 * import; the zone file is the raw request body (any content type but JSON's), and the answer
 * counts records added, failed (unreadable or refused by the record rules) and skipped (SOA,
 * apex NS, types the platform does not have, records the zone already has).
 */
import { apiError } from '../errors.js';
import { textOf, type StoredDnsZone } from '../dns-state.js';
import type { SimState } from '../state.js';
import type { JsonObject, RouteDef, SimContext, SimRequest, SimResponse } from '../types.js';
import { dnsZoneOr404, isDnsResponse } from './dns-common.js';
import { touchZone } from './dns-model.js';
import { checkedRecord, commitNewRecord } from './dns-records.js';
import { parseZoneFile, renderZoneFile } from './dns-zonefile.js';

function exportZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.id, ctx);
  if (isDnsResponse(zone)) return zone;
  return { status: 200, body: renderZoneFile(zone), contentType: 'application/octet-stream' };
}

const SAME_FIELDS = ['Type', 'Name', 'Value', 'Priority', 'Weight', 'Port', 'Flags', 'Tag'];

/** The zone has a record with every field the file line gives. */
function alreadyThere(zone: StoredDnsZone, candidate: JsonObject): boolean {
  const fields = SAME_FIELDS.filter((f) => candidate[f] !== undefined);
  const same = (a: unknown, b: unknown): boolean =>
    textOf(a).toLowerCase() === textOf(b).toLowerCase();
  return zone.records.some((r) => fields.every((f) => same(r[f], candidate[f])));
}

type Outcome = 'RecordsSuccessful' | 'RecordsFailed' | 'RecordsSkipped';

function importOne(state: SimState, zone: StoredDnsZone, candidate: JsonObject): Outcome {
  if (alreadyThere(zone, candidate)) return 'RecordsSkipped';
  const checked = checkedRecord(state, zone, candidate, 0);
  if ('problem' in checked) return 'RecordsFailed';
  commitNewRecord(state, zone, checked.record);
  return 'RecordsSuccessful';
}

function importZone(req: SimRequest, ctx: SimContext): SimResponse {
  const zone = dnsZoneOr404(req.params.zoneId, ctx);
  if (isDnsResponse(zone)) return zone;
  if (typeof req.body !== 'string' || req.body.trim() === '') {
    return apiError(400, 'dnszone.import_empty', 'body', 'the zone file to import is missing');
  }
  const result = { RecordsSuccessful: 0, RecordsFailed: 0, RecordsSkipped: 0 };
  for (const line of parseZoneFile(req.body, String(zone.zone.Domain))) {
    if (line.kind === 'record') result[importOne(ctx.state, zone, line.candidate)]++;
    else if (line.kind === 'skip') result.RecordsSkipped++;
    else if (line.kind === 'fail') result.RecordsFailed++;
  }
  if (result.RecordsSuccessful > 0) touchZone(ctx.state, zone);
  return { status: 200, body: result };
}

/** Export and import routes. */
export const DNS_TRANSFER_ROUTES: RouteDef[] = [
  { method: 'GET', template: '/dnszone/{id}/export', area: 'core', handler: exportZone },
  {
    method: 'POST',
    template: '/dnszone/{zoneId}/import',
    area: 'core',
    handler: importZone,
    rawBody: true,
  },
];
