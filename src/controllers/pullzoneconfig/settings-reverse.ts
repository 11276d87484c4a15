/**
 * The reverse of mapping.ts for `cdnctl export`: the spec-form settings of a live pull zone
 * record, built from the same field table, so `toApiSettings(settingsFromRecord(r))` compares
 * equal to `r` in diff.ts on every exported setting (tested in settings-reverse.test.ts).
 *
 * Left out: write-only settings (the record does not return them), unset values (null, empty
 * strings and lists: those stay unmanaged), values the CRD schema would refuse (reported), and
 * secret settings, whose values are never copied; their names are returned so the caller can
 * write a `<name>Ref` and ask the user for the Secret.
 */
import type { SettingField } from './field-types.js';
import { SETTING_FIELDS } from './fields.js';
import { fromWireValue, liveValue } from './mapping.js';
import { settingSchema, type Schema } from './settings-schema.js';

/** What {@link settingsFromRecord} found. */
export interface RecordSettings {
  /** Spec-form settings (lowerCamelCase names, enum names); never a secret value. */
  settings: Record<string, unknown>;
  /** Secret settings that hold a value on the platform (the value itself is not kept). */
  secrets: SettingField[];
  /** Settings left out because the CRD schema refuses their live value. */
  skipped: { setting: string; reason: string }[];
}

function isUnset(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

function checkNumber(v: unknown, s: Schema): string | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'not a number';
  if (s.type === 'integer' && !Number.isInteger(v)) return 'not an integer';
  if (typeof s.minimum === 'number' && v < s.minimum) return `below the minimum ${s.minimum}`;
  if (typeof s.maximum === 'number' && v > s.maximum) return `above the maximum ${s.maximum}`;
  return undefined;
}

function checkString(v: unknown, s: Schema): string | undefined {
  if (typeof v !== 'string') return 'not a string';
  if (typeof s.maxLength === 'number' && v.length > s.maxLength)
    return `longer than ${s.maxLength} characters`;
  if (typeof s.minLength === 'number' && v.length < s.minLength) return 'too short';
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(v))
    return `does not match ${s.pattern}`;
  return undefined;
}

function checkArray(v: unknown, s: Schema): string | undefined {
  if (!Array.isArray(v)) return 'not a list';
  if (typeof s.maxItems === 'number' && v.length > s.maxItems)
    return `more than ${s.maxItems} items`;
  const items = s.items as Schema | undefined;
  for (const item of v) {
    const problem = items ? checkValue(item, items) : undefined;
    if (problem) return `item ${JSON.stringify(item)}: ${problem}`;
  }
  return undefined;
}

function checkRequired(o: Record<string, unknown>, s: Schema): string | undefined {
  const missing = ((s.required as string[] | undefined) ?? []).find((r) => o[r] === undefined);
  return missing === undefined ? undefined : `${missing} is missing`;
}

function checkProperties(o: Record<string, unknown>, s: Schema): string | undefined {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const extra = s.additionalProperties as Schema | undefined;
  for (const [k, item] of Object.entries(o)) {
    const sub = props[k] ?? extra;
    const problem = sub && item !== undefined ? checkValue(item, sub) : undefined;
    if (problem) return `${k}: ${problem}`;
  }
  return undefined;
}

function checkObject(v: unknown, s: Schema): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not an object';
  const o = v as Record<string, unknown>;
  return checkRequired(o, s) ?? checkProperties(o, s);
}

/**
 * Why `v` would be refused by the CRD schema node `s` (the subset our schemas use: type, enum,
 * bounds, lengths, patterns, items, properties), or undefined when it is accepted.
 */
export function checkValue(v: unknown, s: Schema): string | undefined {
  if (Array.isArray(s.enum) && !s.enum.includes(v)) return `not one of ${s.enum.join(', ')}`;
  switch (s.type) {
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'not a boolean';
    case 'integer':
    case 'number':
      return checkNumber(v, s);
    case 'string':
      return checkString(v, s);
    case 'array':
      return checkArray(v, s);
    case 'object':
      return checkObject(v, s);
    default:
      return undefined;
  }
}

/** See the module comment. */
export function settingsFromRecord(record: Record<string, unknown>): RecordSettings {
  const out: RecordSettings = { settings: {}, secrets: [], skipped: [] };
  for (const f of SETTING_FIELDS) {
    if (f.writeOnly) continue;
    const live = liveValue(f, record);
    if (isUnset(live)) continue;
    if (f.secret) {
      out.secrets.push(f);
      continue;
    }
    const value = fromWireValue(f, live);
    const problem = checkValue(value, settingSchema(f)[1]);
    if (problem) out.skipped.push({ setting: f.spec, reason: problem });
    else out.settings[f.spec] = value;
  }
  return out;
}
