/**
 * Pure planning of a zone's inline records (`spec.records`, `spec.recordPolicy`): which live
 * record each listed record is, and the fewest record calls that make the zone match.
 *
 * - A listed record is the live record of the same type, name (case-insensitive, `@` = apex)
 *   and value: a record created earlier, one whose create answer was lost, or one that was
 *   already there are all adopted by content, never duplicated. Its TTL, priority, weight,
 *   port, flags and tag are compared when listed, and updated in place.
 * - A listed record that is not live is created, unless the previous `status.records` shows
 *   this object adopted it (an entry without `created`: it was on the platform before this
 *   object listed it). An adopted record that is gone is never created again: the plan names
 *   it in `gone` (reported NotFound). Whether a record was created here is read from
 *   `status.records[].created` only, so that field must survive every pass that created one.
 * - A listed record whose content another object manages (a DnsRecord object's claim) is a
 *   conflict: it is neither created nor changed, and the zone reports it.
 * - `Additive` (default): records not listed are left alone, except records this object
 *   created that were dropped from the list (status.records says which), which are deleted.
 * - `Exact`: every record neither listed nor managed by another object is deleted.
 * - A record another object manages (record-sweep.ts: claimed by id, or declared by a DnsRecord
 *   of the zone's namespace that may be creating it) is never deleted. Under `Exact` the claim
 *   lookup is required: without it every record would look unmanaged, so nothing is guessed.
 */
import type { DnsRecord, DnsRecordAddRequest, DnsRecordUpdate } from '../../cdn/dns-types.js';
import type { ClaimHolder, FieldDiff } from '../../runtime/types.js';
import { normalizeName, typeNameOf } from '../shared/dns-record-fields.js';
import { addBodyOf, compareEntry } from './record-fields.js';
import {
  DNS_RECORD_CLAIM,
  DNS_RECORD_CONTENT_CLAIM,
  dnsRecordContentKey,
} from '../shared/dns-record-claims.js';
import { managedRecordIds } from './record-sweep.js';
import type { DnsZoneRecordSpec, DnsZoneSpec, ZoneRecordStatus } from './types.js';

/**
 * One record call. `label` is the record's short text (`A www "192.0.2.1"`); `entry` the index
 * in `spec.records` of the entry a create or update applies, so that a refusal names it.
 */
export type RecordAction =
  | { op: 'create'; type: string; record: DnsRecordAddRequest; entry: number; label: string }
  | { op: 'update'; id: number; record: DnsRecordUpdate; entry: number; label: string }
  | { op: 'delete'; label: string; id: number };

/** Inputs of {@link planRecords}. */
export interface RecordPlanInput {
  zoneId: number;
  records: readonly DnsZoneRecordSpec[] | undefined;
  policy: DnsZoneSpec['recordPolicy'];
  live: readonly DnsRecord[];
  /** `status.records` of the previous pass. */
  previous: readonly ZoneRecordStatus[] | undefined;
  /**
   * The runtime's claim check of listed records (`ExternalContext.claimedByOther`; absent:
   * nothing is claimed by another object).
   */
  claimedByOther?: (type: string, id: string) => boolean;
  /** The DnsZone object planning (its namespace decides which spec-only claims count). */
  zone: { namespace: string; name: string };
  /**
   * Who claims what (`ExternalContext.claimantsOf`): what keeps a record from being deleted
   * (record-sweep.ts). Required under `Exact`; absent otherwise: nothing is claimed.
   */
  claimantsOf?: (type: string, id: string) => readonly ClaimHolder[];
}

/** The error of an `Exact` plan without the claim index (every record would look unmanaged). */
export const NO_CLAIM_INDEX =
  'cannot apply spec.recordPolicy Exact: the claim index is not available, so records other objects manage cannot be told apart; nothing is deleted';

/** Result of {@link planRecords}. */
export interface RecordPlan {
  diffs: FieldDiff[];
  actions: RecordAction[];
  /** `status.records`: the listed records found live (and created ones not yet deleted). */
  observed: ZoneRecordStatus[];
  /** Listed records another object manages (each a sentence naming the entry). */
  conflicts: string[];
  /**
   * Listed records this object adopted that are no longer live (each a sentence naming the
   * entry): never created again.
   */
  gone: string[];
}

interface Content {
  type: string;
  name: string;
  value: string;
}

const contentOfSpec = (s: DnsZoneRecordSpec): Content => ({
  type: s.type,
  name: normalizeName(s.name),
  value: s.value,
});

const contentOfLive = (r: DnsRecord): Content => ({
  type: typeNameOf(r),
  name: r.Name ?? '',
  value: r.Value ?? '',
});

/** Short text of a record for plannedChanges and messages. */
export function renderRecord(c: Content): string {
  return `${c.type} ${c.name === '' ? '@' : c.name} ${JSON.stringify(c.value)}`;
}

function claimedElsewhere(input: RecordPlanInput, key: string, id?: number): boolean {
  const claimed = input.claimedByOther;
  if (!claimed) return false;
  if (id !== undefined && claimed(DNS_RECORD_CLAIM, String(id))) return true;
  return claimed(DNS_RECORD_CONTENT_CLAIM, key);
}

/** `DnsRecord ns/name, ...` of the objects claiming the record, or a generic phrase. */
function claimantNames(input: RecordPlanInput, key: string, id?: number): string {
  const lookup = input.claimantsOf;
  const holders = lookup
    ? [
        ...(id !== undefined ? lookup(DNS_RECORD_CLAIM, String(id)) : []),
        ...lookup(DNS_RECORD_CONTENT_CLAIM, key),
      ]
    : [];
  const names = [...new Set(holders.map((h) => `${h.kind} ${h.namespace}/${h.name}`))];
  return names.length > 0 ? names.join(', ') : 'another object (a DnsRecord)';
}

/** The spec path of entry `index` of spec.records (`spec.records[2]`). */
export function entryPath(index: number): string {
  return `spec.records[${index}]`;
}

interface ListedContext {
  input: RecordPlanInput;
  keyOf: (c: Content) => string;
  byKey: Map<string, DnsRecord>;
  createdBefore: Set<string>;
  /** `status.records` entries of records this object adopted (not created), by content key. */
  adoptedBefore: Map<string, ZoneRecordStatus>;
  out: RecordPlan;
}

/** Plans a listed record that is not live: created, unless this object adopted it. */
function planMissing(c: ListedContext, spec: DnsZoneRecordSpec, index: number, key: string): void {
  const content = contentOfSpec(spec);
  const adopted = c.adoptedBefore.get(key);
  if (adopted) {
    // Kept in status: the next pass must still know it was adopted, not created.
    c.out.observed.push(adopted);
    c.out.gone.push(
      `${entryPath(index)} (${renderRecord(content)}) was adopted (it was on the platform before this object listed it) and record ${adopted.id} is gone`,
    );
    return;
  }
  const label = renderRecord(content);
  const record = addBodyOf(spec);
  c.out.actions.push({ op: 'create', type: spec.type, record, entry: index, label });
  const field = `records[${label}]`;
  c.out.diffs.push({ field, live: '<absent>', desired: 'present' });
}

/** Plans one listed record; answers the id of the live record it is, if any. */
function planOne(c: ListedContext, spec: DnsZoneRecordSpec, index: number): number | undefined {
  const content = contentOfSpec(spec);
  const key = c.keyOf(content);
  const live = c.byKey.get(key);
  if (claimedElsewhere(c.input, key, live?.Id)) {
    const who = claimantNames(c.input, key, live?.Id);
    c.out.conflicts.push(`${entryPath(index)} (${renderRecord(content)}) is managed by ${who}`);
    return undefined;
  }
  if (live?.Id === undefined) {
    planMissing(c, spec, index, key);
    return undefined;
  }
  const created = c.createdBefore.has(key) ? { created: true } : {};
  c.out.observed.push({ ...content, id: live.Id, ...created });
  const { update, diffs } = compareEntry(spec, live);
  if (diffs.length === 0) return live.Id;
  const label = renderRecord(content);
  c.out.actions.push({ op: 'update', id: live.Id, record: update, entry: index, label });
  for (const d of diffs) c.out.diffs.push({ ...d, field: `records[${label}].${d.field}` });
  return live.Id;
}

function planListed(c: ListedContext): Set<number> {
  const used = new Set<number>();
  const listed = new Set<string>();
  for (const [index, spec] of (c.input.records ?? []).entries()) {
    const key = c.keyOf(contentOfSpec(spec));
    // The same record listed twice is one record (the first entry's extras count).
    if (listed.has(key)) continue;
    listed.add(key);
    const id = planOne(c, spec, index);
    if (id !== undefined) used.add(id);
  }
  return used;
}

/** Ids of the live records another object manages (none without a claim lookup). */
function managedElsewhere(input: RecordPlanInput): Set<number> {
  if (input.policy === 'Exact' && !input.claimantsOf) throw new Error(NO_CLAIM_INDEX);
  if (!input.claimantsOf) return new Set();
  const { zoneId, zone, claimantsOf } = input;
  return managedRecordIds({ zoneId, zone, claimantsOf }, input.live);
}

/** Whether an unlisted live record is to be deleted under the policy. */
function isUnwanted(input: RecordPlanInput, key: string, createdBefore: Set<string>): boolean {
  return input.policy === 'Exact' || createdBefore.has(key);
}

/** See the module comment. */
export function planRecords(input: RecordPlanInput): RecordPlan {
  const keyOf = (c: Content): string => dnsRecordContentKey(input.zoneId, c.type, c.name, c.value);
  const out: RecordPlan = { diffs: [], actions: [], observed: [], conflicts: [], gone: [] };
  const byKey = new Map<string, DnsRecord>();
  for (const r of input.live) {
    const k = keyOf(contentOfLive(r));
    if (!byKey.has(k)) byKey.set(k, r);
  }
  const previous = input.previous ?? [];
  const createdBefore = new Set(previous.filter((p) => p.created).map((p) => keyOf(p)));
  const adoptedBefore = new Map(previous.filter((p) => !p.created).map((p) => [keyOf(p), p]));
  const managed = managedElsewhere(input);
  const used = planListed({ input, keyOf, byKey, createdBefore, adoptedBefore, out });
  for (const record of input.live) {
    if (record.Id === undefined || used.has(record.Id) || managed.has(record.Id)) continue;
    const content = contentOfLive(record);
    const key = keyOf(content);
    if (!isUnwanted(input, key, createdBefore)) continue;
    const label = renderRecord(content);
    // Kept in status until it is gone, so a failed delete is retried by the next pass.
    if (createdBefore.has(key)) out.observed.push({ ...content, id: record.Id, created: true });
    out.actions.push({ op: 'delete', label, id: record.Id });
    out.diffs.push({ field: `records[${label}]`, live: 'present', desired: '<absent>' });
  }
  return out;
}
