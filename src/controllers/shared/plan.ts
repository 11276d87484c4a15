/**
 * Field-by-field comparison shared by the three kinds, producing the `plannedChanges`
 * entries shown in status. Values of fields listed as secret are never rendered.
 */
import type { FieldDiff } from '../../runtime/types.js';

/** Placeholder shown instead of a secret value. */
export const REDACTED = '<redacted>';
/** Rendering of an absent value. */
export const UNSET = '<unset>';
const MAX_RENDERED = 200;

/** Renders a value for a plan entry: JSON, truncated, or a placeholder. */
export function renderValue(value: unknown, secret = false): string {
  if (value === undefined || value === null) return UNSET;
  if (secret) return REDACTED;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > MAX_RENDERED ? `${text.slice(0, MAX_RENDERED - 1)}…` : text;
}

/** Deep equality for JSON values; arrays compare in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) return arraysEqual(a, b);
  return objectsEqual(a as Record<string, unknown>, b as Record<string, unknown>);
}

function arraysEqual(a: object, b: object): boolean {
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  return a.every((item, i) => jsonEqual(item, b[i]));
}

function objectsEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) if (!jsonEqual(a[key], b[key])) return false;
  return true;
}

/**
 * Compares every field present in `desired` (only managed fields are there) with `live`.
 * Fields absent from `desired` are unmanaged and never reported.
 */
export function diffFields(
  desired: Record<string, unknown>,
  live: Record<string, unknown>,
  options: {
    secretFields?: ReadonlySet<string>;
    equal?: (field: string, d: unknown, l: unknown) => boolean;
  } = {},
): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const [field, want] of Object.entries(desired)) {
    if (want === undefined) continue;
    const have = live[field];
    const same = options.equal ? options.equal(field, want, have) : jsonEqual(want, have);
    if (same) continue;
    const secret = options.secretFields?.has(field) ?? false;
    diffs.push({ field, live: renderValue(have, secret), desired: renderValue(want, secret) });
  }
  return diffs;
}
