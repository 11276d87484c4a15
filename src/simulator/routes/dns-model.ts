/**
 * The DNS zone and record models (shaped as the official DnsZoneModel and DnsRecordModel):
 * a new zone's defaults (the platform's nameservers and SOA contact), building a stored record
 * from a validated candidate, and rendering both.
 */
import type { SimState } from '../state.js';
import type { StoredDnsZone } from '../dns-state.js';
import { storedRecordName } from '../dns-state.js';
import type { JsonObject } from '../types.js';
import { RECORD_TYPE, WEIGHT_LIMITS } from './dns-record-rules.js';

/** The platform's nameservers and SOA contact, used unless custom nameservers are enabled. */
export const DEFAULT_NAMESERVERS = { Nameserver1: 'kiki.bunny.net', Nameserver2: 'coco.bunny.net' };
export const DEFAULT_SOA_EMAIL = 'hostmaster@bunny.net';
/** TTL of a record added without one. */
export const DEFAULT_TTL = 300;

/** Creates and stores an empty zone for `domain`. */
export function createDnsZone(state: SimState, domain: string): StoredDnsZone {
  const id = state.allocateId('dnsZone');
  const now = new Date();
  const zone: StoredDnsZone = {
    zone: {
      Id: id,
      Domain: domain.toLowerCase(),
      DateModified: now.toISOString(),
      DateCreated: now.toISOString(),
      // The simulated world never delegates a domain to the platform's nameservers.
      NameserversDetected: false,
      CustomNameserversEnabled: false,
      ...DEFAULT_NAMESERVERS,
      SoaEmail: DEFAULT_SOA_EMAIL,
      NameserversNextCheck: new Date(now.getTime() + 3_600_000).toISOString(),
      LoggingEnabled: false,
      LoggingIPAnonymizationEnabled: true,
      LogAnonymizationType: 0,
      DnsSecEnabled: false,
      CertificateKeyType: 0,
    },
    records: [],
    hidden: {},
  };
  state.dnsZones.set(id, zone);
  state.touch();
  return zone;
}

/** Marks the zone changed now. */
export function touchZone(state: SimState, zone: StoredDnsZone): void {
  zone.zone.DateModified = new Date().toISOString();
  state.touch();
}

/**
 * A record whose accelerated pull zone was deleted (through `DELETE /pullzone/{id}`) is no
 * longer accelerated: shown, and handled on the next write, as not accelerated.
 */
export function settledRecord(state: SimState, record: JsonObject): JsonObject {
  const pullZoneId = record.AcceleratedPullZoneId;
  if (typeof pullZoneId !== 'number' || pullZoneId === 0 || state.pullZones.has(pullZoneId))
    return record;
  return { ...record, Accelerated: false, AcceleratedPullZoneId: 0, AccelerationStatus: 0 };
}

/** A record as the API returns it. */
export function renderRecord(state: SimState, record: JsonObject): JsonObject {
  return structuredClone(settledRecord(state, record));
}

/** The zone as the API returns it; the Lite view (`view=1`) leaves the records out. */
export function renderDnsZone(state: SimState, zone: StoredDnsZone, lite = false): JsonObject {
  return {
    ...structuredClone(zone.zone),
    Records: lite ? null : zone.records.map((r) => renderRecord(state, r)),
  };
}

/**
 * The candidate an update is checked as: the stored record, its link (PullZoneId/ScriptId)
 * as the write model names it, and every non-null member of the update on top.
 */
export function mergeRecord(stored: JsonObject, update: JsonObject): JsonObject {
  const link = Number(stored.LinkName);
  const candidate: JsonObject = { ...settledLink(stored) };
  if (stored.Type === RECORD_TYPE.PullZone) candidate.PullZoneId = link;
  if (stored.Type === RECORD_TYPE.Script) candidate.ScriptId = link;
  for (const [field, value] of Object.entries(update)) {
    if (value !== null && value !== undefined && field !== 'Id') candidate[field] = value;
  }
  // A record linked to another pull zone shows that zone's name unless a Value is given.
  if (update.PullZoneId != null && update.Value == null) delete candidate.Value;
  return candidate;
}

function settledLink(stored: JsonObject): JsonObject {
  const { LinkName: _link, ...rest } = stored;
  return rest;
}

/** The location of a record routed by geolocation (SmartRoutingType 2); null otherwise. */
function geolocationInfo(c: JsonObject): JsonObject | null {
  if (c.SmartRoutingType !== 2) return null;
  // No reverse geocoding in the simulator: the coordinates only.
  return {
    Country: null,
    City: null,
    Latitude: c.GeolocationLatitude,
    Longitude: c.GeolocationLongitude,
  };
}

function linkOf(c: JsonObject, state: SimState): { Value: unknown; LinkName: string } {
  if (c.Type === RECORD_TYPE.PullZone) {
    const zone = state.pullZones.get(c.PullZoneId as number);
    // The platform resolves the record to the zone; a Value the caller gave is kept.
    const value = typeof c.Value === 'string' && c.Value !== '' ? c.Value : zone?.record.Name;
    return { Value: value, LinkName: String(c.PullZoneId) };
  }
  if (c.Type === RECORD_TYPE.Script)
    return { Value: String(c.ScriptId), LinkName: String(c.ScriptId) };
  return { Value: c.Value, LinkName: '' };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

/**
 * The stored record built from a validated candidate (acceleration fields are set by
 * dns-accelerate.ts). Weight is discarded for types that have none, as the platform does.
 */
export function buildRecord(id: number, c: JsonObject, state: SimState): JsonObject {
  const type = c.Type as number;
  const monitorType = numberOr(c.MonitorType, 0);
  return {
    Id: id,
    Type: type,
    Ttl: numberOr(c.Ttl, DEFAULT_TTL),
    ...linkOf(c, state),
    Name: storedRecordName(String(c.Name)),
    Weight: WEIGHT_LIMITS[type] === undefined ? 0 : numberOr(c.Weight, 0),
    Priority: numberOr(c.Priority, 0),
    Port: numberOr(c.Port, 0),
    Flags: numberOr(c.Flags, 0),
    Tag: typeof c.Tag === 'string' ? c.Tag : '',
    Accelerated: c.Accelerated === true,
    AcceleratedPullZoneId: numberOr(c.AcceleratedPullZoneId, 0),
    IPGeoLocationInfo: null,
    GeolocationInfo: geolocationInfo(c),
    // The simulated world is healthy: a monitored record is online.
    MonitorStatus: monitorType === 0 ? 0 : 1,
    MonitorType: monitorType,
    GeolocationLatitude: numberOr(c.GeolocationLatitude, 0),
    GeolocationLongitude: numberOr(c.GeolocationLongitude, 0),
    EnviromentalVariables: structuredClone(
      (c.EnviromentalVariables as unknown[] | undefined) ?? [],
    ),
    LatencyZone: typeof c.LatencyZone === 'string' ? c.LatencyZone : null,
    SmartRoutingType: numberOr(c.SmartRoutingType, 0),
    Disabled: c.Disabled === true,
    Comment: typeof c.Comment === 'string' ? c.Comment : null,
    AutoSslIssuance: c.AutoSslIssuance === true,
    AccelerationStatus: numberOr(c.AccelerationStatus, 0),
  };
}
