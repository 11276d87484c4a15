/**
 * The DnsZone kind on the kit: its settings (fields.ts), its identity (domains are unique on
 * the platform: adoption by domain and the recovery of a lost create search by domain,
 * case-insensitive as the platform compares domains), and the zone as a CRUD resource
 * (kit/crud-external.ts) that the kind's own client (external.ts) completes with DNSSEC and the
 * inline records:
 *
 * - create checks the domain (`POST /dnszone/checkavailability`), then sends one
 *   `POST /dnszone` with the domain alone, one create per domain and account at a time; a
 *   domain already on the platform is reported (NameTaken) and never adopted;
 * - the settings that differ go in one `POST /dnszone/{id}`; `spec.dnssec.enabled` turns DNSSEC on or
 *   off, and only that: a zone already signed gets no DNSSEC call, even while status holds no
 *   DS record (an adopted zone, or one signed outside the operator). The platform answers the
 *   DS record only to the call that turns DNSSEC on, a write whose effect on a signed zone the
 *   documents do not state (a new key would break the chain of trust until the registrar is
 *   updated), so adopting a signed zone writes nothing and `status.dnssec` shows `enabled`
 *   without the DS record;
 * - delete sends `DELETE /dnszone/{id}` (deletion policy Delete only; the runtime resolves the
 *   default, Orphan for an adopted zone).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { DnsZone as ZoneRecord } from '../../cdn/dns-types.js';
import { isCdnApiError } from '../../cdn/errors.js';
import { TerminalError } from '../../runtime/errors.js';
import { SyncedReason } from '../../runtime/reasons.js';
import type { ManagedKind } from '../../runtime/types.js';
import { classifyChildError } from '../kit/child-errors.js';
import { connector, type Connection } from '../kit/connector.js';
import type { CrudResource } from '../kit/crud-external.js';
import { crudKind } from '../kit/crud-kind.js';
import { specPathOf } from '../kit/fields.js';
import type { IdentityRules } from '../kit/identity.js';
import type { ControllerDeps } from '../shared/deps.js';
import { withKeyedLock } from '../shared/keyed-mutex.js';
import { renderValue } from '../shared/plan.js';
import { DnsZoneExternal } from './external.js';
import { DNS_ZONE_FIELDS } from './fields.js';
import { ZONE_RECORDS } from './records.js';
import { dnssecChange, zoneStatus } from './status.js';
import { DNS_ZONE_NAMES, type DnsZone } from './types.js';
import type { KindPart } from '../kit/kind-parts.js';
import { listSweep } from '../shared/list-sweep.js';

/** Reason when the domain already has a zone and adoption was not asked for. */
export const NameTaken = 'NameTaken';
/** Claim type of DNS zones (the runtime's default: the kind). */
export const DNS_ZONE_CLAIM = 'DnsZone';

/** The zone's domain as the spec gives it (lowercased, as the platform stores it). */
function domainOf(obj: DnsZone): string | undefined {
  return obj.spec?.domain?.toLowerCase();
}

/** A listed zone that carries its records (what the read by id answers), else undefined. */
function withRecords(zone: ZoneRecord): ZoneRecord | undefined {
  return Array.isArray(zone.Records) ? zone : undefined;
}

/** How DNS zones are found: by id, else by domain (unique on the platform). */
export function dnsZoneIdentity(client: CdnClient): IdentityRules<ZoneRecord, DnsZone> {
  return {
    what: 'DNS zone',
    claimType: DNS_ZONE_CLAIM,
    names: DNS_ZONE_NAMES.platformNames,
    nameOf: domainOf,
    read: (id, signal) => client.getDnsZone(Number(id), { signal }),
    search: (domain, signal) => client.listDnsZones({ search: domain }, { signal }),
    // The listing answers zones without their records.
    summaries: true,
    idOf: (z) => String(z.Id),
    recordNameOf: (z) => z.Domain,
    sameName: (live, wanted) => live?.toLowerCase() === wanted.toLowerCase(),
    // The full view lists each zone with its records; one listed without them is read by id.
    sweep: listSweep(DNS_ZONE_CLAIM, client, (n, o) => client.dnsZonePage(n, o), withRecords),
  };
}

function nameTaken(domain: string): TerminalError {
  return new TerminalError(
    NameTaken,
    `cannot create DNS zone ${JSON.stringify(domain)}: the domain already has a zone on the platform; adopt it explicitly with spec.adoption (policy ById or ByName) (refused when another object manages it)`,
  );
}

/** Checks the domain, then adds the zone; a domain with a zone is NameTaken, never adopted. */
async function addChecked(
  client: CdnClient,
  domain: string,
  signal: AbortSignal,
): Promise<ZoneRecord> {
  if (!(await client.checkDnsZoneAvailability(domain, { signal })).available)
    throw nameTaken(domain);
  try {
    return await client.addDnsZone({ Domain: domain }, { signal });
  } catch (err) {
    if (!isCdnApiError(err) || err.kind !== 'invalid') throw err;
    // Added between the check and the add (another writer), or another refusal.
    if ((await client.checkDnsZoneAvailability(domain, { signal })).available) throw err;
    throw nameTaken(domain);
  }
}

/** The DNS zone of one connection, as a CRUD resource (see the module comment). */
export function dnsZoneResource(conn: Connection): CrudResource<DnsZone, ZoneRecord> {
  const { client, account } = conn;
  return {
    idField: 'dnsZoneId',
    identity: dnsZoneIdentity(client),
    fields: DNS_ZONE_FIELDS,
    nameApi: 'Domain',
    account,
    api: {
      create: (body, signal) => {
        const domain = String(body.Domain);
        return withKeyedLock(`create-dnszone:${account}:${domain}`, () =>
          addChecked(client, domain, signal),
        );
      },
      update: (id, body, signal) => client.updateDnsZone(Number(id), body, { signal }),
      remove: (id, signal) => client.deleteDnsZone(Number(id), { signal }),
    },
    hooks: {
      createBody: (obj, body) => {
        if (domainOf(obj) !== undefined) return Promise.resolve(body);
        throw new TerminalError(
          SyncedReason.InvalidSpec,
          'cannot create DNS zone: spec.domain is required to create a zone (it may be left out only when adopting one by id: spec.adoption.id)',
        );
      },
      // DNSSEC has calls of its own (external.ts): planned here, never in the settings body.
      compare: (obj, record, diff) => {
        const dnssec = dnssecChange(obj, record);
        if (dnssec !== undefined) {
          const live = renderValue(record.DnsSecEnabled === true);
          diff.diffs.push({ field: 'DnsSecEnabled', live, desired: renderValue(dnssec) });
        }
        return Promise.resolve(diff);
      },
      status: (record, obj) => ({ ...zoneStatus(record, obj) }),
    },
  };
}

/** Builds the DnsZone ManagedKind. */
export function createDnsZoneKind(deps: ControllerDeps): ManagedKind<DnsZone> {
  return {
    ...crudKind<DnsZone, ZoneRecord>(deps, {
      names: DNS_ZONE_NAMES,
      idField: 'dnsZoneId',
      fields: DNS_ZONE_FIELDS,
      resource: dnsZoneResource,
    }),
    connect: connector<DnsZone>(deps, (conn) => new DnsZoneExternal(conn, dnsZoneResource(conn))),
    // A member an error names: a setting's, else an inline record's (kit/child-errors.ts).
    classifyError: (err) =>
      classifyChildError(ZONE_RECORDS, err, (f) => specPathOf(DNS_ZONE_FIELDS, f)),
  };
}

export type { DnsZone } from './types.js';

/** The kind's controller, under its part's name (kit/kind-parts.ts). */
export const controller: KindPart<'controller'> = createDnsZoneKind;
