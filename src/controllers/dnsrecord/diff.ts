/**
 * Pure comparison of a DnsRecord spec with the live record: the plan entries, the one update
 * body (`POST /dnszone/{zoneId}/records/{id}`, which changes only the members it carries) that
 * fixes them, and the differences no update may fix (the type of an adopted record).
 *
 * A member is compared only when the spec sets it (an unset member is the platform's to keep);
 * the name is compared case-insensitively with `@` read as the apex `""`; the link of a PullZone
 * or Script record (read back as `LinkName`) is compared with the resolved id.
 */
import type { DnsRecord as DnsRecordModel, DnsRecordUpdate } from '../../cdn/dns-types.js';
import type { FieldDiff } from '../../runtime/types.js';
import { isProvisionalName } from '../kit/identity.js';
import { renderValue } from '../shared/plan.js';
import { RECORD_FIELDS } from './fields.js';
import { nameOf, normalizeName, wireValue } from './mapping.js';
import { RECORD_TYPES, type DnsRecordSpec } from './types.js';

/** Result of {@link diffRecord}. */
export interface RecordDiff {
  diffs: FieldDiff[];
  /** The update body; empty when nothing differs. */
  update: DnsRecordUpdate;
  /** Differences no update may fix (each a sentence naming the spec field). */
  immutable: string[];
}

/** What the spec resolves to beyond itself (the link of a PullZone record). */
export interface ResolvedLinks {
  pullZoneId?: number;
}

function add(out: RecordDiff, api: string, live: unknown, desired: unknown, wire: unknown): void {
  (out.update as Record<string, unknown>)[api] = wire;
  out.diffs.push({ field: api, live: renderValue(live), desired: renderValue(desired) });
}

function diffMembers(spec: DnsRecordSpec, record: DnsRecordModel, out: RecordDiff): void {
  const live = record as Record<string, unknown>;
  for (const field of RECORD_FIELDS) {
    const want = spec[field.spec];
    if (want === undefined) continue;
    const have = live[field.api] ?? field.unset;
    const wire = wireValue(field, want);
    if (have === wire) continue;
    const shown = field.kind === 'enum' ? nameOf(field.names ?? [], have) : have;
    add(out, field.api, shown, want, wire);
  }
}

function diffLinks(
  spec: DnsRecordSpec,
  record: DnsRecordModel,
  links: ResolvedLinks,
  out: RecordDiff,
): void {
  const linked = Number(record.LinkName ?? 0);
  const pullZoneId = spec.type === 'PullZone' ? links.pullZoneId : undefined;
  if (pullZoneId !== undefined && linked !== pullZoneId)
    add(out, 'PullZoneId', record.LinkName, pullZoneId, pullZoneId);
  if (spec.scriptId !== undefined && linked !== spec.scriptId)
    add(out, 'ScriptId', record.LinkName, spec.scriptId, spec.scriptId);
  const vars = spec.environmentVariables;
  if (vars === undefined) return;
  const want = vars.map((v) => ({ Name: v.name, Value: v.value }));
  const have = (record.EnviromentalVariables ?? []).map((v) => ({ Name: v.Name, Value: v.Value }));
  if (JSON.stringify(want) !== JSON.stringify(have))
    add(out, 'EnviromentalVariables', `${have.length} variables`, `${want.length} variables`, want);
}

/** Compares the spec with the live record (see the module comment). */
export function diffRecord(
  spec: DnsRecordSpec,
  record: DnsRecordModel,
  links: ResolvedLinks = {},
): RecordDiff {
  const out: RecordDiff = { diffs: [], update: {}, immutable: [] };
  const liveType = nameOf(RECORD_TYPES, record.Type);
  if (liveType !== spec.type)
    out.immutable.push(`spec.type is ${spec.type} but record ${record.Id} is a ${liveType} record`);
  const name = normalizeName(spec.name);
  const liveName = record.Name ?? '';
  if (name.toLowerCase() !== liveName.toLowerCase()) add(out, 'Name', liveName, name, name);
  diffMembers(spec, record, out);
  // A create carries the provisional name in the comment (kit/identity.ts): cleared when the
  // spec sets no comment of its own.
  if (spec.comment === undefined && isProvisionalName(record.Comment))
    add(out, 'Comment', record.Comment, '', '');
  diffLinks(spec, record, links, out);
  return out;
}
