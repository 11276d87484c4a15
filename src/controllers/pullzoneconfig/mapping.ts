/**
 * Pure spec <-> API mapping of pull zone settings, driven by the field table: lowerCamelCase
 * spec names to the API's PascalCase, enum names to integers, optimizer classes (typed
 * members, optimizer-classes.ts) and image blueprints to `{Name, Properties}`, and secret
 * references to the values resolved from Secrets.
 */
import type { FieldKind, SettingField } from './field-types.js';
import {
  FIELDS_BY_API,
  FIELDS_BY_SPEC,
  SECRET_FIELDS_BY_REF,
  SETTING_FIELDS,
  secretRefName,
} from './fields.js';
import {
  optimizerClassFromWire,
  optimizerClassToWire,
  type SpecOptimizerClass,
  type WireOptimizerClass,
} from './optimizer-classes.js';
import type { SecretKeyRef } from './types.js';

/** Wire form of one image blueprint. */
interface WireClass {
  Name?: string | null;
  Properties?: Record<string, string> | null;
}

/** Spec form of one image blueprint. */
interface SpecClass {
  name?: string;
  properties?: Record<string, string>;
}

/** Spec -> wire of the list kinds whose items change shape. */
const LIST_TO_WIRE: Partial<Record<FieldKind, (items: unknown[]) => unknown[]>> = {
  classList: (items) =>
    (items as SpecClass[]).map((c) => ({ Name: c.name ?? null, Properties: c.properties ?? {} })),
  optimizerClassList: (items) => (items as SpecOptimizerClass[]).map(optimizerClassToWire),
};

/** Wire -> spec of the same list kinds. */
const LIST_FROM_WIRE: Partial<Record<FieldKind, (items: unknown[]) => unknown[]>> = {
  classList: (items) =>
    (items as WireClass[]).map((c) => ({
      name: c.Name ?? undefined,
      properties: c.Properties ?? {},
    })),
  optimizerClassList: (items) => (items as WireOptimizerClass[]).map(optimizerClassFromWire),
};

/** The tier the platform keeps for `value`: the first tier at or above it (0 stays 0). */
export function roundUpToTier(tiers: readonly number[], value: number): number {
  if (value <= 0) return value;
  return tiers.find((tier) => tier >= value) ?? value;
}

/**
 * Converts one spec value to its wire value (enum name -> integer, classes -> PascalCase, a
 * tiered number -> its tier).
 */
export function toWireValue(f: SettingField, value: unknown): unknown {
  if (f.roundUpTo && typeof value === 'number') return roundUpToTier(f.roundUpTo, value);
  if (f.kind === 'enum') {
    const index = f.enumNames?.indexOf(String(value)) ?? -1;
    if (index < 0) {
      throw new Error(
        `cannot map settings.${f.spec}: ${JSON.stringify(value)} is not one of ${f.enumNames?.join(', ')}`,
      );
    }
    return index;
  }
  const toList = LIST_TO_WIRE[f.kind];
  return toList && Array.isArray(value) ? toList(value) : value;
}

/** Converts one wire value to its spec form (integer -> enum name, classes -> camelCase). */
export function fromWireValue(f: SettingField, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  if (f.kind === 'enum' && typeof value === 'number') return f.enumNames?.[value] ?? value;
  const fromList = LIST_FROM_WIRE[f.kind];
  return fromList && Array.isArray(value) ? fromList(value) : value;
}

/** The Secret key references of the secret settings present in the spec, by API name. */
export function secretSettingRefs(
  settings: Record<string, unknown> | undefined,
): Map<string, SecretKeyRef> {
  const refs = new Map<string, SecretKeyRef>();
  if (!settings) return refs;
  for (const f of SETTING_FIELDS) {
    if (!f.secret) continue;
    const ref = settings[secretRefName(f)] as SecretKeyRef | undefined;
    if (ref) refs.set(f.api, ref);
  }
  return refs;
}

/**
 * Maps spec settings to the API's update model: only fields present in the spec appear.
 * `secretValues` holds the resolved values of secret settings by API name.
 * Throws on a spec name that is not in the table (the CRD schema prevents that).
 */
export function toApiSettings(
  settings: Record<string, unknown> | undefined,
  secretValues: ReadonlyMap<string, string> = new Map(),
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!settings) return out;
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined || value === null) continue;
    const f = FIELDS_BY_SPEC.get(name) ?? SECRET_FIELDS_BY_REF.get(name);
    if (!f) throw new Error(`cannot map settings.${name}: unknown setting`);
    if (f.secret) {
      const resolved = secretValues.get(f.api);
      if (resolved !== undefined) out[f.api] = resolved;
      continue;
    }
    out[f.api] = toWireValue(f, value);
  }
  return out;
}

/** Maps an update-model object (PascalCase) back to spec form; secret values are left out. */
export function fromApiSettings(api: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(api)) {
    const f = FIELDS_BY_API.get(name);
    if (!f || f.secret) continue;
    const mapped = fromWireValue(f, value);
    if (mapped !== undefined) out[f.spec] = mapped;
  }
  return out;
}

/** The live value of a setting in the pull zone record (some names differ there). */
export function liveValue(f: SettingField, record: Record<string, unknown>): unknown {
  return record[f.recordName ?? f.api];
}
