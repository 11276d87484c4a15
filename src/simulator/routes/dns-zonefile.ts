/**
 * Zone files (RFC 1035 master file format) for `GET /dnszone/{id}/export` and
 * `POST /dnszone/{zoneId}/import`: rendering a zone's records, and reading a file into record
 * candidates. Record types of the platform that a zone file cannot express (Redirect, Flatten,
 * PullZone, Script) and disabled records are exported as comments; an import skips the zone's
 * own SOA and apex NS records and types the platform does not have.
 */
import type { StoredDnsZone } from '../dns-state.js';
import { normalizeHost, textOf } from '../dns-state.js';
import type { JsonObject } from '../types.js';
import { DEFAULT_SOA_EMAIL, DEFAULT_TTL } from './dns-model.js';
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';

/** Types written as comments: they exist only on the platform. */
const PLATFORM_TYPES = new Set(['Redirect', 'Flatten', 'PullZone', 'Script']);

function quoteText(value: string): string {
  const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const chunks = escaped.match(/[\s\S]{1,255}/g) ?? [''];
  return chunks.map((c) => `"${c}"`).join(' ');
}

function absolute(host: string): string {
  return host === '.' ? '.' : `${host}.`;
}

/** The RDATA of a record in master file form. */
function rdataOf(r: JsonObject): string {
  const value = textOf(r.Value);
  switch (DNS_RECORD_TYPE_NAMES[r.Type as number]) {
    case 'CNAME':
    case 'NS':
    case 'PTR':
      return absolute(value);
    case 'TXT':
      return quoteText(value);
    case 'MX':
      return `${String(r.Priority)} ${absolute(value)}`;
    case 'SRV':
      return `${String(r.Priority)} ${String(r.Weight)} ${String(r.Port)} ${absolute(value)}`;
    case 'CAA':
      return `${String(r.Flags)} ${String(r.Tag)} ${quoteText(value)}`;
    default:
      return value;
  }
}

function ownerOf(r: JsonObject): string {
  return r.Name === '' ? '@' : String(r.Name);
}

function recordLine(r: JsonObject): string {
  const type = DNS_RECORD_TYPE_NAMES[r.Type as number] ?? String(r.Type);
  const line = `${ownerOf(r)} ${String(r.Ttl)} IN ${type.toUpperCase()} ${rdataOf(r)}`;
  if (PLATFORM_TYPES.has(type))
    return `; ${type} record (platform only): ${ownerOf(r)} -> ${String(r.Value)}`;
  return r.Disabled === true ? `; disabled: ${line}` : line;
}

/** The SOA record the platform keeps for a zone (its zone file and cdn-sim's DNS answers). */
export interface ZoneSoa {
  mname: string;
  /** The SOA contact in DNS form (`hostmaster.bunny.net`). */
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

/** The zone's SOA: its first nameserver, its contact, its last change as the serial. */
export function zoneSoa(zone: StoredDnsZone): ZoneSoa {
  return {
    mname: String(zone.zone.Nameserver1),
    rname: (textOf(zone.zone.SoaEmail) || DEFAULT_SOA_EMAIL).replace('@', '.'),
    serial: Math.floor(Date.parse(String(zone.zone.DateModified)) / 1000) || 1,
    refresh: 7200,
    retry: 900,
    expire: 1209600,
    minimum: 86400,
  };
}

/** The zone as a master file. */
export function renderZoneFile(zone: StoredDnsZone): string {
  const domain = normalizeHost(String(zone.zone.Domain));
  const soa = zoneSoa(zone);
  const ns = [zone.zone.Nameserver1, zone.zone.Nameserver2].map((n) => String(n));
  return [
    `; Zone ${domain} exported by cdn-sim`,
    `$ORIGIN ${domain}.`,
    `$TTL ${DEFAULT_TTL}`,
    `@ 3600 IN SOA ${soa.mname}. ${soa.rname}. ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minimum}`,
    ...ns.map((n) => `@ 3600 IN NS ${n}.`),
    ...zone.records.map(recordLine),
    '',
  ].join('\n');
}

// ---- reading ----

/** One record line of an imported file, already split. */
export type ParsedLine =
  | { kind: 'record'; candidate: JsonObject }
  | { kind: 'skip' }
  | { kind: 'directive' }
  | { kind: 'fail'; reason: string };

interface ParseState {
  origin: string;
  ttl: number;
  owner: string | undefined;
  /** The zone's domain: names must fall inside it. */
  domain: string;
}

/** Splits a line into tokens; quoted strings stay one token (with their quotes). */
function tokenize(line: string): string[] {
  const tokens: string[] = [];
  const re = /"(?:[^"\\]|\\.)*"|[^\s"]+/g;
  for (let m = re.exec(line); m; m = re.exec(line)) tokens.push(m[0]);
  return tokens;
}

/** Removes a comment (a `;` outside quotes). */
function stripComment(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ';' && !quoted) return line.slice(0, i);
  }
  return line;
}

/** Logical lines: comments removed, parenthesised continuations joined. */
export function logicalLines(text: string): string[] {
  const out: string[] = [];
  let pending = '';
  let depth = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = stripComment(raw);
    depth += (line.match(/\(/g) ?? []).length - (line.match(/\)/g) ?? []).length;
    pending = pending === '' ? line : `${pending} ${line.trim()}`;
    if (depth > 0) continue;
    depth = 0;
    if (pending.trim() !== '') out.push(pending.replace(/[()]/g, ' '));
    pending = '';
  }
  if (pending.trim() !== '') out.push(pending.replace(/[()]/g, ' '));
  return out;
}

function fqdn(name: string, origin: string): string {
  if (name === '@') return origin;
  if (name.endsWith('.')) return normalizeHost(name);
  return normalizeHost(`${name}.${origin}`);
}

function relativeTo(host: string, domain: string): string | undefined {
  if (host === domain) return '';
  return host.endsWith(`.${domain}`) ? host.slice(0, -(domain.length + 1)) : undefined;
}

function unquote(tokens: string[]): string {
  return tokens
    .map((t) => (t.startsWith('"') ? t.slice(1, -1).replace(/\\(.)/g, '$1') : t))
    .join('');
}

/** A host name in RDATA: absolute names lose the dot, relative ones get the origin. */
function hostValue(token: string | undefined, origin: string): string | undefined {
  if (token === undefined) return undefined;
  if (token === '.') return '.';
  return token.endsWith('.') ? token.slice(0, -1) : `${token}.${origin}`;
}

function intOf(token: string | undefined): number | undefined {
  return token !== undefined && /^\d+$/.test(token) ? Number(token) : undefined;
}

type FieldReader = (rdata: string[], origin: string) => JsonObject | undefined;

const hostRecord: FieldReader = ([a, ...rest], origin) =>
  rest.length === 0 && a !== undefined ? { Value: hostValue(a, origin) } : undefined;

/** RDATA readers per type; the other types take their RDATA as the Value. */
const FIELD_READERS: Readonly<Record<string, FieldReader>> = {
  CNAME: hostRecord,
  NS: hostRecord,
  PTR: hostRecord,
  TXT: (rdata) => (rdata.length > 0 ? { Value: unquote(rdata) } : undefined),
  MX: ([a, b, ...rest], origin) =>
    rest.length === 0 && b !== undefined && intOf(a) !== undefined
      ? { Priority: intOf(a), Value: hostValue(b, origin) }
      : undefined,
  SRV: ([a, b, c, d, ...rest], origin) =>
    rest.length === 0 && d !== undefined && [a, b, c].every((n) => intOf(n) !== undefined)
      ? { Priority: intOf(a), Weight: intOf(b), Port: intOf(c), Value: hostValue(d, origin) }
      : undefined,
  CAA: ([a, b, ...value]) =>
    value.length > 0 && intOf(a) !== undefined
      ? { Flags: intOf(a), Tag: b, Value: unquote(value) }
      : undefined,
};

/** Record fields from the RDATA tokens of one type, or undefined when they do not parse. */
function fieldsOf(type: string, rdata: string[], origin: string): JsonObject | undefined {
  const reader = FIELD_READERS[type];
  if (reader) return reader(rdata, origin);
  return rdata.length > 0 ? { Value: rdata.join(' ') } : undefined;
}

function isClass(token: string | undefined): boolean {
  return token !== undefined && /^(IN|CH|HS)$/i.test(token);
}

/** Owner, TTL and type at the head of a record line (owner blank: the previous one). */
function headOf(
  tokens: string[],
  startsBlank: boolean,
  st: ParseState,
): { owner: string | undefined; ttl: number; rest: string[] } {
  const rest = [...tokens];
  const owner = startsBlank ? st.owner : rest.shift();
  let ttl = st.ttl;
  for (let i = 0; i < 2; i++) {
    const ttlValue = intOf(rest[0]);
    if (ttlValue !== undefined) ttl = ttlValue;
    if (ttlValue !== undefined || isClass(rest[0])) rest.shift();
  }
  return { owner, ttl, rest };
}

function directive(tokens: string[], st: ParseState): ParsedLine | undefined {
  const [name, value] = tokens;
  if (name?.toUpperCase() === '$ORIGIN' && value) {
    st.origin = fqdn(value, st.origin);
    return { kind: 'directive' };
  }
  if (name?.toUpperCase() === '$TTL' && intOf(value) !== undefined) {
    st.ttl = intOf(value)!;
    return { kind: 'directive' };
  }
  return name?.startsWith('$')
    ? { kind: 'fail', reason: `unsupported directive ${name}` }
    : undefined;
}

/** The record type of a line: its wire value, or what to do with a line of another type. */
function typeOf(typeName: string, name: string): number | ParsedLine {
  if (typeName === 'SOA' || (typeName === 'NS' && name === '')) return { kind: 'skip' };
  const type = DNS_RECORD_TYPE_NAMES.findIndex((t) => t.toUpperCase() === typeName);
  return type < 0 || PLATFORM_TYPES.has(DNS_RECORD_TYPE_NAMES[type]!) ? { kind: 'skip' } : type;
}

function recordOf(line: string, st: ParseState): ParsedLine {
  const head = headOf(tokenize(line), /^\s/.test(line), st);
  const typeName = head.rest.shift()?.toUpperCase();
  if (!head.owner || !typeName) return { kind: 'fail', reason: `cannot read "${line.trim()}"` };
  st.owner = head.owner;
  const host = fqdn(head.owner, st.origin);
  const name = relativeTo(host, st.domain);
  if (name === undefined) return { kind: 'fail', reason: `${host} is outside ${st.domain}` };
  const type = typeOf(typeName, name);
  if (typeof type !== 'number') return type;
  const fields = fieldsOf(DNS_RECORD_TYPE_NAMES[type]!, head.rest, st.origin);
  if (!fields) return { kind: 'fail', reason: `cannot read the ${typeName} data of ${host}` };
  return { kind: 'record', candidate: { Type: type, Name: name, Ttl: head.ttl, ...fields } };
}

/** Reads a master file for `domain` into one result per record line. */
export function parseZoneFile(text: string, domain: string): ParsedLine[] {
  const st: ParseState = {
    origin: normalizeHost(domain),
    ttl: DEFAULT_TTL,
    owner: undefined,
    domain: normalizeHost(domain),
  };
  return logicalLines(text).map((line) => directive(tokenize(line), st) ?? recordOf(line, st));
}
