/**
 * The DnsZone external client: the zone as a CRUD resource (index.ts) whose record holds its
 * inline records, a keyed child list (records.ts, kit/child-external.ts), and DNSSEC, turned on
 * or off by a call of its own after the settings (status.ts: only when the spec asks for the
 * other state). Observe is one `GET /dnszone/{id}` (the zone with its records); the update of
 * the same pass sends the settings, the DNSSEC call, then one call per record. A recorded id
 * that reads 404 is recreated (the zone was deleted outside Kubernetes), as for every kind; an
 * adopted id (`spec.adoption.id`) never leads to a create. The DNS-01 solver's challenge records
 * are never deleted by an `Exact` zone ({@link sparingChallenges}).
 */
import type { CdnClient } from '../../cdn/client.js';
import { isChallengeRecord } from '../../cdn/acme-challenge-records.js';
import type { DnsRecord as ZoneRecordLive, DnsZone as ZoneRecord } from '../../cdn/dns-types.js';
import type { ChildList } from '../kit/child-list.js';
import { CrudWithChildren, type ChildApi } from '../kit/child-external.js';
import type { Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { ZONE_RECORDS } from './records.js';
import { dnssecChange, dnssecStatusOf } from './status.js';
import type { DnsZone, RecordContent } from './types.js';

/** The record calls of a zone and its DNSSEC call, bound to `client`. */
function zoneCalls(client: CdnClient): ChildApi<DnsZone, ZoneRecord> {
  return {
    add: (zoneId, body, signal) => client.addDnsRecord(zoneId, body, { signal }),
    update: (zoneId, id, body, signal) => client.updateDnsRecord(zoneId, id, body, { signal }),
    remove: (zoneId, id, signal) => client.deleteDnsRecord(zoneId, id, { signal }),
    also: async (obj, zone, ctx) => {
      const on = dnssecChange(obj, zone);
      if (on === undefined) return {};
      const id = Number(zone.Id);
      const opts = { signal: ctx.signal };
      const ds = on ? await client.enableDnsSec(id, opts) : await client.disableDnsSec(id, opts);
      return { dnssec: dnssecStatusOf(ds) };
    },
  };
}

/**
 * The zone's records with the solver's ACME challenge records (cdn/acme-challenge-records.ts,
 * proven by their signed comment) counted as managed elsewhere: an `Exact` zone never deletes a
 * challenge in flight.
 */
function sparingChallenges(
  list: ChildList<RecordContent>,
  markerKey: Uint8Array | undefined,
): ChildList<RecordContent> {
  if (!markerKey) return list;
  return {
    ...list,
    managedElsewhere: (input) => {
      const ids = list.managedElsewhere(input);
      for (const r of input.live as ZoneRecordLive[])
        if (isChallengeRecord(markerKey, input.parentId, r)) ids.add(Number(r.Id));
      return ids;
    },
  };
}

/** See the module comment. */
export class DnsZoneExternal extends CrudWithChildren<DnsZone, ZoneRecord, RecordContent> {
  /** `resource`: the zone of the connection `conn` (index.ts). */
  constructor(conn: Connection, resource: CrudResource<DnsZone, ZoneRecord>) {
    super(resource, sparingChallenges(ZONE_RECORDS, conn.markerKey), zoneCalls(conn.client));
  }
}
