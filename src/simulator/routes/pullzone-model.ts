/**
 * The pull zone record (shaped as the official PullZoneModel): defaults for a new zone,
 * applying update-model settings, and rendering (certificates only on request).
 */
import { randomUUID } from 'node:crypto';
import { RECORD_FIELDS } from '../generated/pull-zone-tables.js';
import type { RecordField } from '../generated/field-spec.js';
import { apiError } from '../errors.js';
import type { SimState, StoredPullZone } from '../state.js';
import type { JsonObject, SimResponse } from '../types.js';
import { keptValue } from './pullzone-prose-rules.js';

/** CDN system hostname suffix. */
export const SYSTEM_HOSTNAME_SUFFIX = '.b-cdn.net';

/** Update-model names that differ in the record. */
const RECORD_NAME: Record<string, string> = { EnableWebpVary: 'EnableWebPVary' };

/** Defaults that differ from the type's zero value (realistic service defaults). */
const DEFAULTS: JsonObject = {
  Enabled: true,
  EnableGeoZoneUS: true,
  EnableGeoZoneEU: true,
  EnableGeoZoneASIA: true,
  EnableGeoZoneSA: true,
  EnableGeoZoneAF: true,
  IpFamilyPolicy: 1,
  Type: 0,
  AddHostHeader: false,
  EnableLogging: true,
  EnableAutoSSL: true,
  TlsSecurityLevel: 1,
  OptimizerDesktopMaxWidth: 1600,
  OptimizerMobileMaxWidth: 800,
  OptimizerImageQuality: 85,
  OptimizerMobileImageQuality: 70,
  OriginShieldMaxConcurrentRequests: 200,
  OriginShieldQueueMaxWaitTime: 30,
  OriginShieldMaxQueuedRequests: 5000,
  OriginConnectTimeout: 10,
  OriginResponseTimeout: 60,
  OriginRetries: 0,
  OriginRetryDelay: 1,
  UseStaleWhileOffline: false,
  CacheControlMaxAgeOverride: -1,
  CacheControlPublicMaxAgeOverride: -1,
  LogForwardingPort: 0,
  RequestCoalescingTimeout: 30,
  PreloadingScreenDelay: 700,
  CacheVersion: 1,
  MaxWebSocketConnections: 0,
};

function zeroValue(field: RecordField): unknown {
  if (field.kind === 'string[]' || field.kind === 'object[]') return [];
  if (field.nullable) return null;
  if (field.kind === 'boolean') return false;
  if (field.kind === 'string') return '';
  return field.enum ? field.enum[0] : 0;
}

/** A new record with every PullZoneModel field set. */
export function newPullZoneRecord(id: number, name: string, userId: string): JsonObject {
  const record: JsonObject = {};
  for (const field of RECORD_FIELDS) {
    record[field.name] = field.name in DEFAULTS ? DEFAULTS[field.name] : zeroValue(field);
  }
  Object.assign(record, {
    Id: id,
    Name: name,
    UserId: userId,
    CnameDomain: `${name}${SYSTEM_HOSTNAME_SUFFIX}`,
    // Every zone on the platform has a token-authentication key, and clients read it
    // unconditionally; one per zone, never shared.
    ZoneSecurityKey: randomUUID(),
  });
  return record;
}

/** A hostname entry of the record. */
export function newHostname(id: number, value: string, system: boolean): JsonObject {
  return {
    Id: id,
    Value: value,
    ForceSSL: false,
    IsSystemHostname: system,
    IsManagedHostname: false,
    HasCertificate: system,
    Certificate: null,
    CertificateKey: null,
    CertificateKeyType: 0,
    CertificateProvisionType: system ? 4 : 0,
  };
}

const NAME_PATTERN = /^[a-zA-Z0-9-]+$/;
const NAME_MAX = 60;

/**
 * The 400 answer for a pull zone name that is missing or not one the platform allows (letters,
 * digits and dashes, at most 60), naming `field` (`Name`, or the member that carries the name).
 */
export function pullZoneNameProblem(name: unknown, field = 'Name'): SimResponse | undefined {
  if (typeof name !== 'string' || name.length < 1) {
    return apiError(400, 'validation.required', field, `${field} is required`);
  }
  if (!NAME_PATTERN.test(name) || name.length > NAME_MAX) {
    return apiError(
      400,
      'pullzone.invalid_name',
      field,
      `${field} "${name}" may only contain letters, digits and dashes (at most ${NAME_MAX})`,
    );
  }
  return undefined;
}

/** `base`, or `base-2`, `base-3`, ... : the first no pull zone has (names are global). */
export function freePullZoneName(state: SimState, base: string): string {
  let name = base;
  for (let n = 2; state.findPullZoneByName(name); n++) name = `${base}-${n}`;
  return name;
}

/**
 * Deletes a pull zone, and the shield zone that belongs to it with that zone's rules, lists
 * and settings.
 */
export function removePullZone(state: SimState, id: number): void {
  state.pullZones.delete(id);
  for (const [shieldId, shield] of state.shieldZones) {
    if (shield.pullZoneId !== id) continue;
    state.shieldZones.delete(shieldId);
    state.collections.dropShieldZone(shieldId);
  }
  state.touch();
}

/** Creates and stores a pull zone with its system hostname. */
export function createPullZone(
  state: SimState,
  name: string,
  settings: JsonObject,
): StoredPullZone {
  const id = state.allocateId('pullZone');
  const record = newPullZoneRecord(id, name, 'sim-user');
  const hostId = state.allocateId('hostname');
  record.Hostnames = [newHostname(hostId, `${name}${SYSTEM_HOSTNAME_SUFFIX}`, true)];
  const zone: StoredPullZone = { record, hidden: {} };
  applySettings(zone, settings);
  state.pullZones.set(id, zone);
  state.touch();
  return zone;
}

/** Applies validated settings; `null` leaves a field unchanged. */
export function applySettings(zone: StoredPullZone, settings: JsonObject): void {
  for (const [name, value] of Object.entries(settings)) {
    if (value === null || name === 'Name') continue;
    const recordName = RECORD_NAME[name] ?? name;
    const kept = structuredClone(keptValue(name, value));
    if (recordName in zone.record) zone.record[recordName] = kept;
    else zone.hidden[name] = kept;
  }
}

/** OriginType of a DNS-accelerated zone (PullZoneOriginType DnsAccelerate). */
const DNS_ACCELERATE = 1;

function parseUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function originScheme(zone: StoredPullZone, written: URL | undefined): string {
  const raw = zone.hidden.DnsOriginScheme;
  const scheme = typeof raw === 'string' ? raw.toLowerCase().replace(/:\/*$/, '') : '';
  return scheme || written?.protocol.slice(0, -1) || 'https';
}

function originPort(zone: StoredPullZone, written: URL | undefined, scheme: string): number {
  const raw = zone.hidden.DnsOriginPort;
  if (typeof raw === 'number' && raw > 0) return raw;
  if (written?.port) return Number(written.port);
  return scheme === 'http' ? 80 : 443;
}

/**
 * The origin URL of a DnsAccelerate zone as live clients read it (they take scheme and port
 * from it): `scheme://host:port`, the port always spelled out. Scheme and port come from
 * DnsOriginScheme and DnsOriginPort (kept with the settings the record does not show), else from
 * the OriginUrl the caller wrote, else https and the scheme's port. The host is the accelerated
 * DNS record's value when the zone has one, else the host the caller wrote, else the zone's
 * system hostname (cdn-sim simulates no DNS records).
 */
export function dnsAccelerateOriginUrl(zone: StoredPullZone): string {
  const written = parseUrl(zone.record.OriginUrl);
  const scheme = originScheme(zone, written);
  const recordValue = zone.record.DnsRecordValue;
  const host =
    (typeof recordValue === 'string' && recordValue !== '' ? recordValue : undefined) ??
    written?.hostname ??
    String(zone.record.CnameDomain);
  const bracketed = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `${scheme}://${bracketed}:${originPort(zone, written, scheme)}`;
}

/**
 * The record as the API returns it; certificate material only when asked for; a DnsAccelerate
 * zone's OriginUrl derived from its DNS origin settings, which the record shows too. A shallow copy: responses are
 * serialized at once, and hostnames are copied because they are rewritten here.
 */
export function renderPullZone(zone: StoredPullZone, includeCertificate = false): JsonObject {
  const hosts = (zone.record.Hostnames as JsonObject[]).map((h) =>
    includeCertificate ? { ...h } : { ...h, Certificate: null, CertificateKey: null },
  );
  const out: JsonObject = { ...zone.record, Hostnames: hosts, ...dnsOriginOf(zone) };
  if (zone.record.OriginType === DNS_ACCELERATE) out.OriginUrl = dnsAccelerateOriginUrl(zone);
  return out;
}

/**
 * `DnsOriginPort` and `DnsOriginScheme` as a read shows them (live clients read them, the
 * document's read model lacks them: live-exceptions.ts): a DnsAccelerate zone's effective scheme
 * and port (those of its OriginUrl), any other zone's written values, else null.
 */
function dnsOriginOf(zone: StoredPullZone): JsonObject {
  if (zone.record.OriginType === DNS_ACCELERATE) {
    const written = parseUrl(zone.record.OriginUrl);
    const scheme = originScheme(zone, written);
    return { DnsOriginPort: originPort(zone, written, scheme), DnsOriginScheme: scheme };
  }
  return {
    DnsOriginPort: zone.hidden.DnsOriginPort ?? null,
    DnsOriginScheme: zone.hidden.DnsOriginScheme ?? null,
  };
}

/** Hostname entries of a zone. */
export function hostnamesOf(zone: StoredPullZone): JsonObject[] {
  return zone.record.Hostnames as JsonObject[];
}

/** Finds a hostname (case-insensitive) across all zones. */
export function findHostname(
  state: SimState,
  value: string,
): { zone: StoredPullZone; host: JsonObject } | undefined {
  const wanted = value.toLowerCase();
  for (const zone of state.pullZones.values()) {
    const host = hostnamesOf(zone).find((h) => String(h.Value).toLowerCase() === wanted);
    if (host) return { zone, host };
  }
  return undefined;
}
