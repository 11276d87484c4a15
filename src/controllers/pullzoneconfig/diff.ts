/**
 * Pure comparison of desired (wire-form) settings with the live pull zone record. Only the
 * settings present in the desired object are managed; values of secret settings are never
 * rendered; write-only settings are compared through the hash recorded when last written.
 */
import { createHash } from 'node:crypto';
import type { FieldDiff } from '../../runtime/types.js';
import { jsonEqual, renderValue } from '../shared/plan.js';
import type { SettingField } from './field-types.js';
import { FIELDS_BY_API } from './fields.js';
import { fromWireValue, liveValue } from './mapping.js';

/** Rendering of a write-only setting's live value (the platform does not return it). */
export const NOT_RETURNED = '<not returned by the platform>';

/** The settings that differ: plan entries and the update body carrying only those fields. */
export interface SettingsDiff {
  diffs: FieldDiff[];
  /** Update-model body with exactly the differing managed fields. */
  changed: Record<string, unknown>;
}

/** Short, stable sha256 of a JSON value (used for write-only settings). */
export function hashValue(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
}

function isEmpty(v: unknown): boolean {
  return v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);
}

function sortedStrings(v: unknown): string[] {
  return Array.isArray(v) ? v.map(String).sort() : [];
}

function normalizeClasses(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  return v.map((c: { Name?: unknown; Properties?: unknown }) => ({
    Name: c.Name ?? null,
    Properties: c.Properties ?? {},
  }));
}

/**
 * Equality of one setting: an absent or null live value equals an empty string or list;
 * string lists compare as sets (the platform may reorder them); numbers compare by value.
 */
export function settingEqual(f: SettingField, desired: unknown, live: unknown): boolean {
  switch (f.kind) {
    case 'stringList':
      return jsonEqual(sortedStrings(desired), sortedStrings(live));
    case 'classList':
    case 'optimizerClassList':
      return jsonEqual(normalizeClasses(desired), normalizeClasses(live));
    case 'string':
      return (isEmpty(desired) && isEmpty(live)) || desired === live;
    default:
      return jsonEqual(desired, live);
  }
}

function render(f: SettingField, wire: unknown): string {
  return renderValue(fromWireValue(f, wire), f.secret === true);
}

/**
 * Compares every desired setting with the record. `writeOnlyHashes` holds, by API name, the
 * hash of the value last written for settings the record does not return.
 */
export function diffSettings(
  desired: Record<string, unknown>,
  record: Record<string, unknown>,
  writeOnlyHashes: Record<string, string> = {},
): SettingsDiff {
  const diffs: FieldDiff[] = [];
  const changed: Record<string, unknown> = {};
  for (const [api, want] of Object.entries(desired)) {
    const f = FIELDS_BY_API.get(api);
    if (!f || want === undefined) continue;
    if (f.writeOnly) {
      if (writeOnlyHashes[api] === hashValue(want)) continue;
      diffs.push({ field: api, live: NOT_RETURNED, desired: render(f, want) });
      changed[api] = want;
      continue;
    }
    const have = liveValue(f, record);
    if (settingEqual(f, want, have)) continue;
    diffs.push({ field: api, live: render(f, have), desired: render(f, want) });
    changed[api] = want;
  }
  return { diffs, changed };
}

/** Hashes of the write-only settings in `sent`, merged over `previous`. */
export function writeOnlyHashesAfter(
  sent: Record<string, unknown>,
  previous: Record<string, string> = {},
): Record<string, string> {
  const out = { ...previous };
  for (const [api, value] of Object.entries(sent)) {
    if (FIELDS_BY_API.get(api)?.writeOnly) out[api] = hashValue(value);
  }
  return out;
}
