/**
 * Accelerated DNS records: turning `Accelerated` on makes the platform put a pull zone in front
 * of the record (origin type DnsAccelerate, the record's name as its hostname), and the record
 * shows that zone as `AcceleratedPullZoneId` with `AccelerationStatus` Completed. The zone is an
 * ordinary pull zone (it can be read, updated and adopted); turning acceleration off, deleting
 * the record or its DNS zone removes it, as the endpoint pull zones of container apps are.
 */
import type { SimState } from '../state.js';
import { recordHostname, type StoredDnsZone } from '../dns-state.js';
import type { JsonObject } from '../types.js';
import type { SettingsProblem } from './pullzone-settings.js';
import {
  createPullZone,
  findHostname,
  freePullZoneName,
  hostnamesOf,
  newHostname,
  removePullZone,
} from './pullzone-model.js';
import { RECORD_TYPE } from './dns-record-rules.js';

/** AcceleratedStatus values. */
const ACCELERATION_NONE = 0;
const ACCELERATION_COMPLETED = 3;
/** PullZoneOriginType DnsAccelerate. */
const ORIGIN_DNS_ACCELERATE = 1;

function acceleratedZoneId(state: SimState, record: JsonObject): number | undefined {
  const id = record.AcceleratedPullZoneId;
  return typeof id === 'number' && state.pullZones.has(id) ? id : undefined;
}

/**
 * The hostname of an accelerated record must be free (hostnames are unique across pull zones),
 * unless it is already on the record's own accelerated zone.
 */
export function accelerationConflict(
  state: SimState,
  zone: StoredDnsZone,
  record: JsonObject,
): SettingsProblem | undefined {
  if (record.Accelerated !== true) return undefined;
  const host = recordHostname(zone, record);
  const found = findHostname(state, host);
  if (!found || Number(found.zone.record.Id) === acceleratedZoneId(state, record)) return undefined;
  return {
    errorKey: 'dnsrecord.hostname_taken',
    field: 'Accelerated',
    message: `${host} is already a hostname of pull zone ${String(found.zone.record.Id)}`,
  };
}

function originOf(record: JsonObject): string {
  const value = String(record.Value);
  return record.Type === RECORD_TYPE.AAAA ? `http://[${value}]` : `http://${value}`;
}

function createZoneFor(state: SimState, zone: StoredDnsZone, record: JsonObject): number {
  const pullZone = createPullZone(state, freePullZoneName(state, `dns-${String(record.Id)}`), {
    OriginUrl: originOf(record),
    OriginType: ORIGIN_DNS_ACCELERATE,
    DnsRecordId: record.Id,
    DnsZoneId: zone.zone.Id,
    DnsRecordValue: record.Value,
  });
  hostnamesOf(pullZone).push(
    newHostname(state.allocateId('hostname'), recordHostname(zone, record), false),
  );
  return Number(pullZone.record.Id);
}

function updateZoneFor(
  state: SimState,
  pullZoneId: number,
  record: JsonObject,
  hosts: { now: string; before: string | undefined },
): void {
  const pullZone = state.pullZones.get(pullZoneId)!;
  Object.assign(pullZone.record, { OriginUrl: originOf(record), DnsRecordValue: record.Value });
  const has = (host: string): boolean =>
    hostnamesOf(pullZone).some((h) => String(h.Value).toLowerCase() === host);
  // A renamed record: its old name leaves the zone, the new one joins it.
  if (hosts.before !== undefined && hosts.before !== hosts.now) {
    pullZone.record.Hostnames = hostnamesOf(pullZone).filter(
      (h) => String(h.Value).toLowerCase() !== hosts.before,
    );
  }
  if (!has(hosts.now))
    hostnamesOf(pullZone).push(newHostname(state.allocateId('hostname'), hosts.now, false));
}

/**
 * Brings the pull zone of `record` in line with its `Accelerated` flag (after
 * {@link accelerationConflict} found nothing) and sets the record's acceleration fields.
 * `previousHost` is the record's full name before an update (a rename moves the hostname).
 */
export function syncAcceleration(
  state: SimState,
  zone: StoredDnsZone,
  record: JsonObject,
  previousHost?: string,
): void {
  const existing = acceleratedZoneId(state, record);
  if (record.Accelerated !== true) {
    if (existing !== undefined) removePullZone(state, existing);
    Object.assign(record, { AcceleratedPullZoneId: 0, AccelerationStatus: ACCELERATION_NONE });
    return;
  }
  if (existing === undefined) {
    record.AcceleratedPullZoneId = createZoneFor(state, zone, record);
  } else {
    const now = recordHostname(zone, record);
    updateZoneFor(state, existing, record, { now, before: previousHost });
  }
  record.AccelerationStatus = ACCELERATION_COMPLETED;
}

/** Removes the accelerated pull zone of a record that is deleted. */
export function dropAcceleration(state: SimState, record: JsonObject): void {
  const existing = acceleratedZoneId(state, record);
  if (existing !== undefined) removePullZone(state, existing);
}
