/**
 * What cdn-sim accepts in a DNS record (add or update, after the update is merged onto the
 * stored record). The official document types every field but states no rule per record type;
 * the rules here are DNS's own (RFC 1035/2181/6844/6698 value syntax, the CNAME exclusivity of
 * RFC 1034) plus what the live API is known to answer (the vendor's Terraform provider:
 * weights of A/AAAA 0..100 and SRV 0..65535, no trailing dot on host names, "The pull zone ID
 * is not valid.", "The script ID is not valid."). Each rule is listed in docs/simulator.md.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import type { SimState } from '../state.js';
import type { JsonObject } from '../types.js';
import type { SettingsProblem } from './pullzone-settings.js';

/** Wire values of the record types the rules below single out. */
export const RECORD_TYPE = {
  A: 0,
  AAAA: 1,
  CNAME: 2,
  TXT: 3,
  MX: 4,
  Flatten: 6,
  PullZone: 7,
  SRV: 8,
  CAA: 9,
  Script: 11,
} as const;

/** Largest TTL (RFC 2181 section 8: a 31-bit value). */
export const MAX_TTL = 2147483647;

/** Types whose Weight the platform keeps (others discard it) and the upper bound. */
export const WEIGHT_LIMITS: Readonly<Record<number, number>> = {
  [RECORD_TYPE.A]: 100,
  [RECORD_TYPE.AAAA]: 100,
  [RECORD_TYPE.SRV]: 65535,
};

/** Types that can be accelerated (the platform creates a pull zone in front of them). */
export const ACCELERATABLE = new Set<number>([RECORD_TYPE.A, RECORD_TYPE.AAAA, RECORD_TYPE.CNAME]);

/** Types that cannot share their name with another record (RFC 1034 section 3.6.2). */
const EXCLUSIVE = new Set<number>([RECORD_TYPE.CNAME, RECORD_TYPE.PullZone]);

const LABEL = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$/;

function problem(errorKey: string, field: string, message: string): SettingsProblem {
  return { errorKey, field, message };
}

/** Why `value` is not a host name (labels of letters, digits, `-`, `_`; no trailing dot). */
export function hostnameProblem(value: string): string | undefined {
  if (value.endsWith('.')) return 'must not end with a dot';
  if (value.length === 0 || value.length > 253) return 'must be a host name of 1 to 253 characters';
  return value.split('.').every((l) => LABEL.test(l))
    ? undefined
    : 'must be a host name (labels of letters, digits, hyphens and underscores)';
}

/** Why a record name is not valid: `''`/`@` is the apex, `*` only as the first label. */
export function recordNameProblem(name: string): string | undefined {
  if (name === '' || name === '@') return undefined;
  if (name.endsWith('.')) return 'must be relative to the zone, without a trailing dot';
  const labels = name.split('.');
  const rest = labels[0] === '*' ? labels.slice(1) : labels;
  if (name.length > 253 || !rest.every((l) => LABEL.test(l))) {
    return 'must be labels of letters, digits, hyphens and underscores (a leading * is a wildcard)';
  }
  return undefined;
}

function urlProblem(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:'
      ? undefined
      : 'must be an http or https URL';
  } catch {
    return 'must be an http or https URL';
  }
}

const notEmpty = (value: string): string | undefined =>
  value.trim() === '' ? 'must not be empty' : undefined;

/** Value syntax per type (PullZone and Script take their value from the linked id). */
const VALUE_RULES: Readonly<Record<number, (value: string) => string | undefined>> = {
  0: (v) => (isIPv4(v) ? undefined : 'must be an IPv4 address'),
  1: (v) => (isIPv6(v) ? undefined : 'must be an IPv6 address'),
  2: hostnameProblem,
  3: notEmpty,
  // "." is the null MX of RFC 7505.
  4: (v) => (v === '.' ? undefined : hostnameProblem(v)),
  5: urlProblem,
  6: hostnameProblem,
  8: hostnameProblem,
  9: notEmpty,
  10: hostnameProblem,
  12: hostnameProblem,
  13: notEmpty,
  14: notEmpty,
  15: (v) =>
    /^\d{1,3} \d{1,3} \d{1,3} [0-9A-Fa-f]+$/.test(v.trim())
      ? undefined
      : 'must be "usage selector matching-type hex-data" (RFC 6698)',
};

function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function rangeProblem(
  record: JsonObject,
  field: string,
  min: number,
  max: number,
): SettingsProblem | undefined {
  const value = record[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && value >= min && value <= max) return undefined;
  return problem(
    'validation.out_of_range',
    field,
    `${field} must be between ${min} and ${max}, got ${JSON.stringify(value)}`,
  );
}

function typeProblem(record: JsonObject): SettingsProblem | undefined {
  const type = record.Type;
  if (type === undefined || type === null)
    return problem('validation.required', 'Type', 'Type is required');
  return isInt(type) && type >= 0 && type < DNS_RECORD_TYPE_NAMES.length
    ? undefined
    : problem(
        'validation.invalid_value',
        'Type',
        `Type ${JSON.stringify(type)} is not a record type`,
      );
}

function nameProblem(record: JsonObject): SettingsProblem | undefined {
  if (typeof record.Name !== 'string')
    return problem('validation.required', 'Name', 'Name is required ("" or "@" for the apex)');
  const why = recordNameProblem(record.Name);
  return why ? problem('validation.invalid_value', 'Name', `Name ${why}`) : undefined;
}

function linkedValueProblem(record: JsonObject, state: SimState): SettingsProblem | undefined {
  if (record.Type === RECORD_TYPE.PullZone) {
    const id = record.PullZoneId;
    return isInt(id) && state.pullZones.has(id)
      ? undefined
      : problem('dnsrecord.invalid_pullzone', 'PullZoneId', 'The pull zone ID is not valid.');
  }
  return isInt(record.ScriptId) && record.ScriptId > 0
    ? undefined
    : problem('dnsrecord.invalid_script', 'ScriptId', 'The script ID is not valid.');
}

function valueProblem(record: JsonObject, state: SimState): SettingsProblem | undefined {
  const type = record.Type as number;
  if (type === RECORD_TYPE.PullZone || type === RECORD_TYPE.Script)
    return linkedValueProblem(record, state);
  const value = record.Value;
  if (typeof value !== 'string' || value === '')
    return problem('validation.required', 'Value', 'Value is required');
  const why = VALUE_RULES[type]?.(value);
  return why
    ? problem(
        'validation.invalid_value',
        'Value',
        `Value of a ${DNS_RECORD_TYPE_NAMES[type]} record ${why}`,
      )
    : undefined;
}

function numberProblems(record: JsonObject): SettingsProblem | undefined {
  const weightMax = WEIGHT_LIMITS[record.Type as number];
  return (
    rangeProblem(record, 'Ttl', 0, MAX_TTL) ??
    (weightMax === undefined ? undefined : rangeProblem(record, 'Weight', 0, weightMax)) ??
    rangeProblem(record, 'Priority', 0, 65535) ??
    rangeProblem(record, 'Port', 0, 65535) ??
    rangeProblem(record, 'Flags', 0, 255) ??
    rangeProblem(record, 'GeolocationLatitude', -90, 90) ??
    rangeProblem(record, 'GeolocationLongitude', -180, 180)
  );
}

function caaProblem(record: JsonObject): SettingsProblem | undefined {
  if (record.Type !== RECORD_TYPE.CAA) return undefined;
  const tag = record.Tag;
  return typeof tag === 'string' && /^[A-Za-z0-9]{1,15}$/.test(tag)
    ? undefined
    : problem(
        'validation.invalid_value',
        'Tag',
        'A CAA record needs a Tag of 1 to 15 letters or digits (issue, issuewild, iodef, ...)',
      );
}

function routingProblem(record: JsonObject): SettingsProblem | undefined {
  if (record.SmartRoutingType === 2) {
    const missing = ['GeolocationLatitude', 'GeolocationLongitude'].find(
      (f) => typeof record[f] !== 'number',
    );
    if (missing)
      return problem('validation.required', missing, `Geolocation routing needs ${missing}`);
  }
  if (
    record.SmartRoutingType === 1 &&
    !(typeof record.LatencyZone === 'string' && record.LatencyZone)
  )
    return problem('validation.required', 'LatencyZone', 'Latency routing needs a LatencyZone');
  return undefined;
}

function accelerationProblem(record: JsonObject): SettingsProblem | undefined {
  if (record.Accelerated !== true || ACCELERATABLE.has(record.Type as number)) return undefined;
  return problem(
    'dnsrecord.acceleration_unsupported',
    'Accelerated',
    'Only A, AAAA and CNAME records can be accelerated',
  );
}

function variablesProblem(record: JsonObject): SettingsProblem | undefined {
  const vars = record.EnviromentalVariables;
  if (!Array.isArray(vars) || vars.length === 0) return undefined;
  if (record.Type !== RECORD_TYPE.Script) {
    return problem(
      'validation.invalid_value',
      'EnviromentalVariables',
      'Only Script records take EnviromentalVariables',
    );
  }
  const bad = (vars as JsonObject[]).findIndex((v) => typeof v.Name !== 'string' || v.Name === '');
  return bad < 0
    ? undefined
    : problem('validation.required', `EnviromentalVariables[${bad}].Name`, 'Name is required');
}

/**
 * The first problem of a candidate record (every field it will have, `PullZoneId`/`ScriptId`
 * included), or undefined. Only the record itself is checked; see {@link conflictProblem}.
 */
export function recordProblem(record: JsonObject, state: SimState): SettingsProblem | undefined {
  return (
    typeProblem(record) ??
    nameProblem(record) ??
    valueProblem(record, state) ??
    numberProblems(record) ??
    caaProblem(record) ??
    routingProblem(record) ??
    accelerationProblem(record) ??
    variablesProblem(record)
  );
}

/**
 * A CNAME (or PullZone) record shares its name with no other record below the apex (at the
 * apex the platform flattens it). `others` are the zone's records without the one written.
 */
export function conflictProblem(
  record: JsonObject,
  others: readonly JsonObject[],
): SettingsProblem | undefined {
  const name = String(record.Name).toLowerCase();
  if (name === '') return undefined;
  const clash = others.find(
    (o) =>
      String(o.Name).toLowerCase() === name &&
      (EXCLUSIVE.has(record.Type as number) || EXCLUSIVE.has(o.Type as number)),
  );
  if (!clash) return undefined;
  const types = `${DNS_RECORD_TYPE_NAMES[record.Type as number]} and ${DNS_RECORD_TYPE_NAMES[clash.Type as number]}`;
  return problem(
    'dnsrecord.name_conflict',
    'Name',
    `${name} cannot hold both a ${types} record (record ${String(clash.Id)}): a CNAME or PullZone record stands alone`,
  );
}
