/**
 * Zone-wide shield features with routes of their own, one object per zone: bot detection
 * (`/shield/shield-zone/{id}/bot-detection`) and upload scanning (`.../upload-scanning`). Pure:
 * the field table, the desired and reset values a spec asks for, the comparison with the live
 * object and the PATCH body carrying only what differs. A spec block left out is not managed;
 * inside a block, a member left out is not managed either.
 *
 * The platform binds these bodies like typed models: a top-level member left out keeps its
 * value, but a nested object given replaces the whole object (an enum member left out of it
 * becomes 0). So a nested object is sent complete: the live object with the desired members
 * laid over it.
 */
import type { FieldDiff } from '../../runtime/types.js';
import { jsonEqual, renderValue } from '../shared/plan.js';
import {
  BotExecutionMode,
  BotSensitivity,
  FingerprintAggression,
  ScannerMode,
  type EnumTable,
} from './enums.js';
import type { ShieldPolicySpec } from './types.js';

/** A spec block that maps to one feature route. */
export type FeatureKey = 'botDetection' | 'uploadScanning';

/** One managed member of a feature object. */
export interface FeatureField {
  /** Path inside the spec block (`enabled`, `browserFingerprint.aggression`). */
  spec: string;
  /** Path inside the platform's object (`isEnabled`, `browserFingerprint.aggression`). */
  wire: string;
  /** Integer enum shown by name. */
  enumTable?: EnumTable<string>;
  /** Value on a zone whose feature was never changed (what `deletionPolicy: Reset` restores). */
  reset: unknown;
}

/** One feature: its spec block and its members. */
export interface FeatureDef {
  key: FeatureKey;
  fields: readonly FeatureField[];
}

/** Platform values of the managed members of one feature, by wire path. */
export type FeatureValues = Map<string, unknown>;

/** A feature object as the platform returns it. */
export type WireObject = Record<string, unknown>;

function sensitivity(group: string): FeatureField {
  const path = `${group}.sensitivity`;
  return { spec: path, wire: path, enumTable: BotSensitivity, reset: 1 };
}

/** Every feature and member a ShieldPolicy can manage, in the order plans are shown. */
export const FEATURES: readonly FeatureDef[] = [
  {
    key: 'botDetection',
    fields: [
      { spec: 'executionMode', wire: 'executionMode', enumTable: BotExecutionMode, reset: 0 },
      sensitivity('requestIntegrity'),
      sensitivity('ipAddress'),
      sensitivity('browserFingerprint'),
      {
        spec: 'browserFingerprint.aggression',
        wire: 'browserFingerprint.aggression',
        enumTable: FingerprintAggression,
        reset: 1,
      },
      {
        spec: 'browserFingerprint.complexEnabled',
        wire: 'browserFingerprint.complexEnabled',
        reset: false,
      },
    ],
  },
  {
    key: 'uploadScanning',
    fields: [
      { spec: 'enabled', wire: 'isEnabled', reset: false },
      { spec: 'csamScanningMode', wire: 'csamScanningMode', enumTable: ScannerMode, reset: 0 },
      {
        spec: 'antivirusScanningMode',
        wire: 'antivirusScanningMode',
        enumTable: ScannerMode,
        reset: 0,
      },
    ],
  },
];

function isObject(v: unknown): v is WireObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value at a dotted path, or undefined. */
export function valueAt(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const part of path.split('.')) {
    if (!isObject(cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

function blockOf(def: FeatureDef, spec: ShieldPolicySpec): WireObject | undefined {
  const block: unknown = spec[def.key];
  return isObject(block) ? block : undefined;
}

/** The desired values of a feature; undefined when the spec does not manage it (no block). */
export function desiredFeature(def: FeatureDef, spec: ShieldPolicySpec): FeatureValues | undefined {
  const block = blockOf(def, spec);
  if (!block) return undefined;
  const out: FeatureValues = new Map();
  for (const f of def.fields) {
    const v = valueAt(block, f.spec);
    if (v === undefined || v === null) continue;
    out.set(f.wire, f.enumTable && typeof v === 'string' ? f.enumTable.toWire(v) : v);
  }
  return out;
}

/** The reset values of the members the spec manages; undefined when it manages none. */
export function resetFeature(def: FeatureDef, spec: ShieldPolicySpec): FeatureValues | undefined {
  const desired = desiredFeature(def, spec);
  if (!desired) return undefined;
  const out: FeatureValues = new Map();
  for (const f of def.fields) if (desired.has(f.wire)) out.set(f.wire, f.reset);
  return out;
}

/** The plan-entry name of a member (`botDetection.browserFingerprint.aggression`). */
export function featureFieldName(def: FeatureDef, f: FeatureField): string {
  return `${def.key}.${f.wire}`;
}

function render(f: FeatureField, value: unknown): string {
  if (f.enumTable && typeof value === 'number') return f.enumTable.fromWire(value) ?? String(value);
  return renderValue(value);
}

/** The managed members whose live value differs, as plan entries. */
export function diffFeature(def: FeatureDef, target: FeatureValues, live: WireObject): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const f of def.fields) {
    if (!target.has(f.wire)) continue;
    const want = target.get(f.wire);
    const have = valueAt(live, f.wire);
    if (jsonEqual(want, have ?? null)) continue;
    diffs.push({
      field: featureFieldName(def, f),
      live: render(f, have),
      desired: render(f, want),
    });
  }
  return diffs;
}

/** A nested object complete: the live one with the target members laid over it. */
function completeNested(
  def: FeatureDef,
  head: string,
  target: FeatureValues,
  live: WireObject,
): WireObject {
  const current = live[head];
  const out: WireObject = isObject(current) ? { ...current } : {};
  for (const f of def.fields) {
    if (f.wire.startsWith(`${head}.`) && target.has(f.wire)) {
      out[f.wire.slice(head.length + 1)] = target.get(f.wire);
    }
  }
  return out;
}

/**
 * The PATCH body of a feature: each differing top-level member, and each nested object with a
 * differing member sent complete (see the module comment). Empty when nothing differs.
 */
export function buildFeaturePatch(
  def: FeatureDef,
  target: FeatureValues,
  live: WireObject,
  diff: readonly FieldDiff[],
): WireObject {
  const differing = new Set(diff.map((d) => d.field));
  const patch: WireObject = {};
  for (const f of def.fields) {
    if (!differing.has(featureFieldName(def, f))) continue;
    const [head = '', ...rest] = f.wire.split('.');
    if (rest.length === 0) patch[head] = target.get(f.wire);
    else patch[head] ??= completeNested(def, head, target, live);
  }
  return patch;
}

/** True when a plan entry belongs to a feature (not to the shield zone object). */
export function isFeatureField(field: string): boolean {
  return FEATURES.some((d) => field.startsWith(`${d.key}.`));
}

function setPath(target: WireObject, path: string, value: unknown): void {
  const [head = '', ...rest] = path.split('.');
  if (rest.length === 0) {
    target[head] = value;
    return;
  }
  const child = isObject(target[head]) ? target[head] : {};
  target[head] = child;
  setPath(child, rest.join('.'), value);
}

/** The spec block of a live feature object (`cdnctl export`); unknown enum numbers left out. */
export function specFromFeature(def: FeatureDef, live: WireObject): WireObject {
  const block: WireObject = {};
  for (const f of def.fields) {
    const v = valueAt(live, f.wire);
    if (v === undefined || v === null) continue;
    const value = f.enumTable ? f.enumTable.fromWire(v) : v;
    if (value !== undefined) setPath(block, f.spec, value);
  }
  return block;
}
