/**
 * A kind's fields as data: one table from which its CRD properties, its TypeScript spec type
 * (`SpecOf`), the create body, the diff and the update body, the observed status, the exported
 * spec and the spec path of a platform field named in an error all derive. A field is written
 * once: name, type, description, bounds, wire member, how it is compared and when it is written.
 *
 * What a table does not say is the kind's own (a hook): how a secret reaches the body, a list
 * that needs a call of its own, a rule spanning two fields.
 */
import type { FieldDiff, ManagedObject } from '../../runtime/types.js';
import { immutable, type DocumentBounds, type Schema } from '../shared/crd-schema.js';
import { renderValue } from '../shared/plan.js';
import type { Codec, ValueOf } from './codecs.js';

/** What a field says besides its spec name and codec. */
export interface FieldOptions<V> {
  /** `kubectl explain` text, our own words. */
  readonly description: string;
  /** Bounds and enums read from the official documents at generation time. */
  bounds?(docs: DocumentBounds): Schema;
  /**
   * Member of the create and update bodies (dotted for a nested member:
   * `passwordCredentials.userName`); absent: the field is not sent as is (a hook's).
   */
  readonly api?: string;
  /** Member of the update body, when the platform names it otherwise (`ReplicationZones`). */
  readonly updateApi?: string;
  /** Member of the platform's record, when it differs from `api`; `false`: never returned. */
  readonly record?: string | false;
  /**
   * `create`: sent only by the create; the platform fixes it then, so a difference is a
   * problem the object reports, never a write (the CRD makes it immutable). `update`: sent only
   * by updates (the add model lacks it). Default: both.
   */
  readonly write?: 'create' | 'update';
  /**
   * `false`: never compared. For a member the create sends and no call can change, where a later
   * spec change is accepted but not applied (a description): no diff, no problem, and no
   * immutability rule in the CRD. Default: compared.
   */
  readonly compare?: false;
  /** Required by the CRD (the spec type then has it always). */
  readonly required?: true;
  /**
   * The desired value when the spec leaves it out, for the create and the comparison;
   * undefined: none for this object (not managed, e.g. a name of a resource adopted by id).
   */
  defaultOf?(obj: ManagedObject): V | undefined;
  /** What the record reads when the member was never set (compared as such). */
  readonly unset?: V;
  /** The platform's comparison, when not plain equality (name rules, case). */
  same?(live: V, wanted: V): boolean;
  /** A list the platform only ever adds to: the update sends the live items and the missing. */
  readonly addOnly?: true;
  /** Status member that shows the live value. */
  readonly status?: string;
  /** Extra CRD keys (CEL rules, list types). */
  readonly schema?: Schema;
}

/** One field of a kind. */
export interface Field<S extends string = string, V = unknown> extends FieldOptions<V> {
  readonly spec: S;
  readonly codec: Codec<V>;
}

/** A field with the spec name `spec`, the value type of `codec`, and `options`. */
export function field<const S extends string, V, const O extends FieldOptions<V>>(
  spec: S,
  codec: Codec<V>,
  options: O,
): Field<S, V> & O {
  return { spec, codec, ...options };
}

/** A field of any value type. */
export type AnyField = Field<string, unknown>;

/** The spec type a table describes: required fields always present, the others optional. */
export type SpecOf<T extends readonly AnyField[]> = {
  -readonly [F in T[number] as F extends { required: true } ? F['spec'] : never]: ValueOf<
    F['codec']
  >;
} & {
  -readonly [F in T[number] as F extends { required: true } ? never : F['spec']]?: ValueOf<
    F['codec']
  >;
};

/** The CRD properties of a table, and the names it requires. */
export function schemaOf(
  fields: readonly AnyField[],
  docs: DocumentBounds,
): { properties: Record<string, Schema>; required: string[] } {
  const properties: Record<string, Schema> = {};
  for (const f of fields) {
    const rules = f.write === 'create' && f.compare !== false ? immutable(f.spec) : [];
    const own = (f.schema?.['x-kubernetes-validations'] as Schema[] | undefined) ?? [];
    properties[f.spec] = {
      type: f.codec.schema.type,
      description: f.description,
      ...f.codec.schema,
      ...f.bounds?.(docs),
      ...f.schema,
      ...(rules.length + own.length > 0 ? { 'x-kubernetes-validations': [...rules, ...own] } : {}),
    };
  }
  return { properties, required: fields.filter((f) => f.required).map((f) => f.spec) };
}

/** The spec value of `f`, or its default for the object. */
function desiredOf(f: AnyField, obj: ManagedObject): unknown {
  const v = obj.spec?.[f.spec];
  if (v !== undefined && v !== null) return v;
  return f.defaultOf?.(obj);
}

/** Sets a dotted member of `body`. */
function put(body: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = body;
  for (const p of parts.slice(0, -1)) {
    const next = at[p];
    at = (typeof next === 'object' && next !== null ? next : (at[p] = {})) as Record<
      string,
      unknown
    >;
  }
  at[parts[parts.length - 1]!] = value;
}

/** The dotted member `path` of `record`. */
function valueAt(record: Record<string, unknown>, path: string): unknown {
  let at: unknown = record;
  for (const p of path.split('.'))
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[p] : undefined;
  return at;
}

/** The record's member for `f` (the record member, else the api member), raw. */
function liveWire(f: AnyField, record: Record<string, unknown>): unknown {
  const name = f.record === false ? undefined : (f.record ?? f.api);
  return name === undefined ? undefined : valueAt(record, name);
}

/** The wire object of spec values (member -> value), each at its field's api member. */
export function wireOf(
  fields: readonly AnyField[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.spec];
    if (f.api !== undefined && v !== undefined && v !== null) put(out, f.api, f.codec.toWire(v));
  }
  return out;
}

/** The create body of the table's fields (the hooks add the rest). */
export function createBody(
  fields: readonly AnyField[],
  obj: ManagedObject,
): Record<string, unknown> {
  const sent = fields.filter((f) => f.write !== 'update');
  return wireOf(sent, Object.fromEntries(sent.map((f) => [f.spec, desiredOf(f, obj)])));
}

/** What {@link compareFields} found. */
export interface FieldsDiff {
  /** Plan entries (platform member names). */
  diffs: FieldDiff[];
  /** The update body that fixes them (empty when none can be fixed by an update). */
  update: Record<string, unknown>;
  /** Differences the platform fixed at creation, each a sentence naming the spec field. */
  problems: string[];
}

/** Compares each field the spec (or its default) sets with the live record. */
export function compareFields(
  fields: readonly AnyField[],
  obj: ManagedObject,
  record: Record<string, unknown>,
  what: string,
): FieldsDiff {
  const out: FieldsDiff = { diffs: [], update: {}, problems: [] };
  for (const f of fields) compareOne(f, obj, record, what, out);
  return out;
}

function compareOne(
  f: AnyField,
  obj: ManagedObject,
  record: Record<string, unknown>,
  what: string,
  out: FieldsDiff,
): void {
  if (f.record === false || f.api === undefined || f.compare === false) return;
  const want = desiredOf(f, obj) as never;
  if (want === undefined) return;
  const wire = liveWire(f, record);
  const live = (f.codec.fromWire(wire) ?? f.unset) as never;
  if (live !== undefined && isSame(f, live, want)) return;
  if (f.write === 'create') {
    if (live !== undefined)
      out.problems.push(`spec.${f.spec} is ${String(want)} but the ${what} has ${String(live)}`);
    return;
  }
  writeDifference(f, wire, live, want, out);
}

/** Puts the update of one differing field in `out` (an add-only list: live and missing). */
function writeDifference(
  f: AnyField,
  wire: unknown,
  live: never,
  want: never,
  out: FieldsDiff,
): void {
  const sent = f.addOnly ? addMissing(live, want) : want;
  if (f.addOnly && live !== undefined && isSame(f, live, sent)) return;
  const value = f.codec.toWire(sent);
  put(out.update, f.updateApi ?? f.api!, value);
  const show = (w: unknown): string => f.codec.render?.(w) ?? renderValue(w);
  const shown = f.codec.describe?.(live, sent) ?? { live: show(wire), desired: show(value) };
  out.diffs.push({ field: f.api!, ...shown });
}

function isSame(f: AnyField, live: never, want: never): boolean {
  if (f.same) return f.same(live, want);
  if (f.codec.same) return f.codec.same(live, want);
  return live === want;
}

/**
 * True when two objects of spec values agree on every field of the table, a missing member
 * read as the field's `unset` (the items of a list of objects, codecs.ts tableList).
 */
export function sameMembers(
  fields: readonly AnyField[],
  a: Record<string, unknown>,
  b: Record<string, unknown>,
): boolean {
  return fields.every((f) => {
    const x = (a[f.spec] ?? f.unset) as never;
    const y = (b[f.spec] ?? f.unset) as never;
    return x === undefined || y === undefined ? x === y : isSame(f, x, y);
  });
}

/** The live list with the wanted items it lacks (an add-only list). */
function addMissing(live: unknown, want: unknown): never {
  const have = Array.isArray(live) ? (live as unknown[]) : [];
  const wanted = Array.isArray(want) ? (want as unknown[]) : [];
  return [
    ...have,
    ...wanted.filter((x, i) => !have.includes(x) && wanted.indexOf(x) === i),
  ] as never;
}

/** The status members the table's fields show, read from a record. */
export function statusOf(
  fields: readonly AnyField[],
  record: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.status === undefined) continue;
    const v = f.codec.fromWire(liveWire(f, record)) ?? f.unset;
    if (v !== undefined) out[f.status] = v;
  }
  return out;
}

/** The spec of a record (cdnctl export): every readable field with a value. */
export function specOfRecord(
  fields: readonly AnyField[],
  record: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v: unknown = f.codec.fromWire(liveWire(f, record));
    if (v !== undefined && !(Array.isArray(v) && v.length === 0)) out[f.spec] = v;
  }
  return out;
}

/**
 * The spec path a user edits for a platform member named in an error (`spec.region (Region)`);
 * `extra` names the spec paths of members no field sends (a hook's: a password from a Secret).
 */
export function specPathOf(
  fields: readonly AnyField[],
  apiField: string,
  extra: Readonly<Record<string, string>> = {},
): string {
  const f = fields.find((x) => x.api === apiField || x.updateApi === apiField);
  const path = f ? `spec.${f.spec}` : extra[apiField];
  return path ? `${path} (${apiField})` : apiField;
}
