/**
 * What cdn-sim's DNS listener answers (issue 52): the simulated zones' records as an
 * authoritative server would serve them, so that real resolvers and ACME servers read what the
 * API wrote. Pure: a question and the state in, the sections of the answer out.
 *
 * - A name in no simulated zone: REFUSED (this server is authoritative for its zones only).
 * - A, AAAA, CNAME, TXT, MX, SRV, CAA, NS records from the zone (enabled ones), the zone's SOA
 *   and apex NS synthesized like the zone file export (routes/dns-zonefile.ts).
 * - A name holding a CNAME answers it for any other type, followed within the simulated zones
 *   (at most {@link MAX_CHASE} links).
 * - A name with records but none of the type: NOERROR with the SOA in authority (NODATA); a name
 *   with no records at all: NXDOMAIN with the SOA — unless a wildcard (`*`) of an enclosing
 *   name matches (RFC 4592, simplified: the nearest `*.<ancestor>` inside the zone).
 * Platform-only types (PullZone, Flatten, Redirect, Script) are not served.
 */
import type { Answer, Question } from 'dns-packet';
import { DNS_RECORD_TYPE_NAMES } from '../../cdn/dns-record-types.js';
import { dnsZoneForHostname, normalizeHost, textOf, type StoredDnsZone } from '../dns-state.js';
import { zoneSoa } from '../routes/dns-zonefile.js';
import type { SimState } from '../state.js';
import type { JsonObject } from '../types.js';

/** DNS response codes this server gives. */
export const RCODE = { NOERROR: 0, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

/** CNAME links followed within the simulated zones. */
const MAX_CHASE = 8;

/** TTL of the synthesized SOA and NS records. */
const ZONE_TTL = 3600;

/** The sections of one answer. */
export interface DnsAnswer {
  rcode: number;
  /** Authoritative (the name is in a simulated zone). */
  authoritative: boolean;
  answers: Answer[];
  authorities: Answer[];
}

type Build = (record: JsonObject, name: string, ttl: number, value: string) => Answer;

const num = (v: unknown): number => Number(v) || 0;

/** How each served type is built from a platform record. */
const BUILDERS: Record<string, Build> = {
  A: (_r, name, ttl, data) => ({ type: 'A', name, ttl, data }),
  AAAA: (_r, name, ttl, data) => ({ type: 'AAAA', name, ttl, data }),
  CNAME: (_r, name, ttl, data) => ({ type: 'CNAME', name, ttl, data }),
  NS: (_r, name, ttl, data) => ({ type: 'NS', name, ttl, data }),
  TXT: (_r, name, ttl, value) => ({
    type: 'TXT',
    name,
    ttl,
    data: value.match(/[\s\S]{1,255}/g) ?? [''],
  }),
  MX: (r, name, ttl, exchange) => ({
    type: 'MX',
    name,
    ttl,
    data: { preference: num(r.Priority), exchange },
  }),
  SRV: (r, name, ttl, target) => ({
    type: 'SRV',
    name,
    ttl,
    data: { priority: num(r.Priority), weight: num(r.Weight), port: num(r.Port), target },
  }),
  CAA: (r, name, ttl, value) => ({
    type: 'CAA',
    name,
    ttl,
    data: { flags: num(r.Flags), tag: r.Tag as 'issue', value },
  }),
};

/** The answer record of one platform record under `name`, or undefined when not served. */
function answerOf(record: JsonObject, name: string): Answer | undefined {
  const build = BUILDERS[DNS_RECORD_TYPE_NAMES[record.Type as number] ?? ''];
  if (!build || record.Disabled === true) return undefined;
  return build(record, name, Number(record.Ttl) || 300, textOf(record.Value));
}

function domainOf(zone: StoredDnsZone): string {
  return normalizeHost(String(zone.zone.Domain));
}

/** The zone's SOA, as the zone file export writes it. */
function soaOf(zone: StoredDnsZone): Answer {
  return { type: 'SOA', name: domainOf(zone), ttl: ZONE_TTL, data: zoneSoa(zone) };
}

/** The apex records the platform keeps itself (SOA, NS). */
function apexAnswers(zone: StoredDnsZone, type: string): Answer[] {
  const name = domainOf(zone);
  if (type === 'SOA') return [soaOf(zone)];
  if (type !== 'NS') return [];
  return [zone.zone.Nameserver1, zone.zone.Nameserver2]
    .filter((n) => typeof n === 'string' && n !== '')
    .map((n) => ({ type: 'NS', name, ttl: ZONE_TTL, data: String(n) }));
}

/** The records of `relative` in the zone, or of the nearest matching wildcard. */
function recordsAt(zone: StoredDnsZone, relative: string): JsonObject[] {
  const at = (n: string): JsonObject[] =>
    zone.records.filter((r) => textOf(r.Name).toLowerCase() === n && r.Disabled !== true);
  const exact = at(relative);
  if (exact.length > 0 || relative === '') return exact;
  const labels = relative.split('.');
  for (let i = 1; i <= labels.length; i++) {
    const rest = labels.slice(i).join('.');
    if (i < labels.length && at(rest).length > 0) return [];
    const wild = at(rest === '' ? '*' : `*.${rest}`);
    if (wild.length > 0) return wild;
  }
  return [];
}

/** A step of answering: the final answer, or the name a CNAME points to. */
type Step = { done: DnsAnswer } | { next: Answer };

/** Answers `type` at `name` inside its zone (`found`), given the CNAMEs followed so far. */
function answerInZone(
  found: { zone: StoredDnsZone; relativeName: string },
  name: string,
  type: string,
  chain: Answer[],
): Step {
  const { zone, relativeName } = found;
  const served = recordsAt(zone, relativeName.toLowerCase()).flatMap(
    (r) => answerOf(r, name) ?? [],
  );
  const apex = relativeName === '' ? apexAnswers(zone, type) : [];
  const ofType = [...apex, ...served.filter((a) => a.type === type)];
  if (ofType.length > 0) return { done: authoritative(RCODE.NOERROR, [...chain, ...ofType], []) };
  const cname = served.find((a) => a.type === 'CNAME');
  if (cname && type !== 'CNAME') return { next: cname };
  const exists = served.length > 0 || relativeName === '' || chain.length > 0;
  return { done: authoritative(exists ? RCODE.NOERROR : RCODE.NXDOMAIN, chain, [soaOf(zone)]) };
}

function authoritative(rcode: number, answers: Answer[], authorities: Answer[]): DnsAnswer {
  return { rcode, authoritative: true, answers, authorities };
}

/** Answers `question` from the simulated zones (see the module comment). */
export function answerQuestion(state: SimState, question: Question): DnsAnswer {
  const chain: Answer[] = [];
  let name = normalizeHost(question.name);
  for (let hop = 0; hop <= MAX_CHASE; hop++) {
    const found = dnsZoneForHostname(state, name);
    // Outside the simulated zones: refused, or where a followed CNAME leaves them, the chain.
    if (!found) {
      if (hop === 0)
        return { rcode: RCODE.REFUSED, authoritative: false, answers: [], authorities: [] };
      return authoritative(RCODE.NOERROR, chain, []);
    }
    const step = answerInZone(found, name, question.type, chain);
    if ('done' in step) return step.done;
    chain.push(step.next);
    name = normalizeHost(String((step.next as { data: unknown }).data));
  }
  return authoritative(RCODE.NOERROR, chain, []);
}
