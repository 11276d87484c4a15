/**
 * Field-by-field comparison of desired and live shield zone values, and the PATCH settings
 * object that carries only the differing fields.
 */
import type { FieldDiff } from '../../runtime/types.js';
import { jsonEqual, renderValue } from '../shared/plan.js';
import { FIELDS, fieldByWire, type CompareMode, type FieldDef } from './fields.js';
import type { WireZone } from './mapping.js';

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function sortedStrings(v: unknown): string[] {
  return asArray(v)
    .map((x) => String(x))
    .sort();
}

function sortedEngineConfig(v: unknown): unknown[] {
  return asArray(v)
    .map((e) => {
      const r = (e ?? {}) as Record<string, unknown>;
      return { name: textOf(r.name), valueEncoded: textOf(r.valueEncoded) };
    })
    .sort((a, b) => (a.name ?? '').localeCompare(b.name ?? ''));
}

function textOf(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}

function sameInstant(d: unknown, l: unknown): boolean {
  const ds = textOf(d);
  const ls = textOf(l);
  if (ds === null || ls === null) return ds === ls && (d ?? null) === (l ?? null);
  const a = Date.parse(ds);
  const b = Date.parse(ls);
  return Number.isNaN(a) || Number.isNaN(b) ? ds === ls : a === b;
}

/**
 * True when a desired value equals the live one under the field's rules: lists marked as sets
 * ignore order and duplicates' position, absent lists equal empty lists, times compare as
 * instants and engine variables compare by name.
 */
export function valuesEqual(mode: CompareMode, desired: unknown, live: unknown): boolean {
  switch (mode) {
    case 'set':
      return jsonEqual([...new Set(sortedStrings(desired))], [...new Set(sortedStrings(live))]);
    case 'list':
      return jsonEqual(asArray(desired), asArray(live));
    case 'instant':
      return sameInstant(desired, live);
    case 'engineConfig':
      return jsonEqual(sortedEngineConfig(desired), sortedEngineConfig(live));
    default:
      return jsonEqual(desired ?? null, live ?? null);
  }
}

/** Renders a value for a plan entry; enums by name (`Block`), unknown numbers as they are. */
export function renderFieldValue(field: FieldDef | undefined, value: unknown): string {
  if (field?.enumTable && typeof value === 'number') {
    return field.enumTable.fromWire(value) ?? String(value);
  }
  return renderValue(value);
}

/** The fields of `desired` whose live value differs, as plan entries (API field names). */
export function diffZone(desired: WireZone, live: WireZone): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const f of FIELDS) {
    if (!(f.wire in desired)) continue;
    const want = desired[f.wire];
    const have = live[f.wire];
    if (valuesEqual(f.compare, want, have)) continue;
    diffs.push({
      field: f.wire,
      live: renderFieldValue(f, have),
      desired: renderFieldValue(f, want),
    });
  }
  return diffs;
}

/** The settings object of a PATCH: the desired value of each differing field, nothing else. */
export function buildPatchSettings(desired: WireZone, diff: readonly FieldDiff[]): WireZone {
  const settings: WireZone = {};
  for (const d of diff) {
    if (fieldByWire(d.field) && d.field in desired) settings[d.field] = desired[d.field];
  }
  return settings;
}
