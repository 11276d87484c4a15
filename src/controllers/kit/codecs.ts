/**
 * How one spec value is written in the CRD, sent on the wire and read back from a platform
 * record: the value types of the kit's field tables (fields.ts). Each codec carries its
 * TypeScript type, so a table's spec type is inferred from the table (`SpecOf`).
 */
import type { Schema } from '../shared/crd-schema.js';
import { renderValue } from '../shared/plan.js';
import { sameMembers, specOfRecord, wireOf, type AnyField, type SpecOf } from './fields.js';

/** One value's CRD schema (without description), wire form and reading back. */
export interface Codec<V> {
  /** The CRD type part (`{type: 'string'}`, `{type: 'string', enum: [...]}`, ...). */
  readonly schema: Schema;
  /** The wire form of a spec value. */
  toWire(value: V): unknown;
  /** The spec value of a wire value; undefined when absent or not understood. */
  fromWire(wire: unknown): V | undefined;
  /** Equality of two spec values (default: strict). */
  same?(a: V, b: V): boolean;
  /**
   * How a difference shows in a plan entry, when the wire values do not say it well (an enum's
   * names, a long list summarized); `live` is undefined when the record has no value. Default:
   * both wire values rendered.
   */
  describe?(live: V | undefined, want: V): { live: string; desired: string };
  /**
   * How one wire value shows in a plan entry, when {@link describe} is not given (an enum: its
   * name; a number the enum lacks as it is). Default: its JSON.
   */
  render?(wire: unknown): string;
}

/** The spec type a codec carries. */
export type ValueOf<C> = C extends Codec<infer V> ? V : never;

/** A string. */
export function text(schema: Schema = {}): Codec<string> {
  return {
    schema: { type: 'string', ...schema },
    toWire: (v) => v,
    fromWire: (w) => (typeof w === 'string' ? w : undefined),
  };
}

/** An integer. */
export function integer(schema: Schema = {}): Codec<number> {
  return {
    schema: { type: 'integer', ...schema },
    toWire: (v) => v,
    fromWire: (w) => (typeof w === 'number' && Number.isInteger(w) ? w : undefined),
  };
}

/** A number (not only integers: coordinates). */
export function decimal(schema: Schema = {}): Codec<number> {
  return {
    schema: { type: 'number', ...schema },
    toWire: (v) => v,
    fromWire: (w) => (typeof w === 'number' && Number.isFinite(w) ? w : undefined),
  };
}

/**
 * A nested spec object whose members are fields of their own, with dotted names
 * (`logging.enabled`): it gives the object's CRD schema a description; no wire value.
 */
export function group(): Codec<Record<never, never>> {
  return { schema: { type: 'object' }, toWire: () => undefined, fromWire: () => undefined };
}

/** A boolean. */
export function flag(): Codec<boolean> {
  return {
    schema: { type: 'boolean' },
    toWire: (v) => v,
    fromWire: (w) => (typeof w === 'boolean' ? w : undefined),
  };
}

/**
 * A name of `names`, sent as its index plus `first` (the platform's integer enums; `first` 1
 * when 0 means "none", which is no name and reads as unset).
 */
export function enumByIndex<const N extends readonly string[]>(
  names: N,
  first = 0,
): Codec<N[number]> {
  return {
    schema: { type: 'string', enum: [...names] },
    toWire: (v) => names.indexOf(v) + first,
    fromWire: (w) => (typeof w === 'number' && w >= first ? names[w - first] : undefined),
  };
}

/** A name of `names`, sent as the name itself (the platform's string enums). */
export function enumByName<const N extends readonly string[]>(names: N): Codec<N[number]> {
  return {
    schema: { type: 'string', enum: [...names] },
    toWire: (v) => v,
    fromWire: (w) => (typeof w === 'string' && names.includes(w) ? w : undefined),
  };
}

/** A list of strings (a set: order does not count). */
export function textSet(item: Schema = {}): Codec<string[]> {
  return {
    schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', ...item } },
    toWire: (v) => [...v],
    fromWire: (w) =>
      Array.isArray(w) ? w.filter((x): x is string => typeof x === 'string') : undefined,
    same: (a, b) => a.length === b.length && a.every((x) => b.includes(x)),
  };
}

/** `read` of a wire value, with `empty` for a record's null or missing member. */
function orEmpty<V>(empty: V, read: (w: unknown) => V | undefined): (w: unknown) => V | undefined {
  return (w) => (w === null || w === undefined ? empty : read(w));
}

/** A platform enum's names and the numbers it sends for them (not always 0..n). */
export interface NumberedNames<N extends string = string> {
  readonly names: readonly N[];
  readonly numbers: readonly number[];
}

/**
 * The table of `names` (in the document's order) numbered `numbers`, or one by one from
 * `numbers` when it is a number.
 */
export function numberedNames<const N extends string>(
  names: readonly N[],
  numbers: number | readonly number[],
): NumberedNames<N> {
  const nums = typeof numbers === 'number' ? names.map((_, i) => numbers + i) : numbers;
  return { names, numbers: nums };
}

/** A name of `table`, sent as its number (integer enums whose numbers skip or are seconds). */
export function enumByNumber<N extends string>(table: NumberedNames<N>): Codec<N> {
  const fromWire = (w: unknown): N | undefined =>
    typeof w === 'number' ? table.names[table.numbers.indexOf(w)] : undefined;
  return {
    schema: { type: 'string', enum: [...table.names] },
    toWire: (v) => table.numbers[table.names.indexOf(v)],
    fromWire,
    render: (w) => renderValue(fromWire(w) ?? w),
  };
}

/**
 * An ordered list of `item` values. A record without the list (null) reads as `[]`; a list
 * with an item `item` does not understand reads as not understood (it never equals a wish).
 */
export function listOf<V>(item: Codec<V>): Codec<V[]> {
  const same = (a: V, b: V): boolean => (item.same ? item.same(a, b) : a === b);
  return {
    schema: { type: 'array', items: item.schema },
    toWire: (v) => v.map((x) => item.toWire(x)),
    fromWire: orEmpty([], (w) => {
      const out = Array.isArray(w) ? w.map((x) => item.fromWire(x)) : [undefined];
      return out.includes(undefined) ? undefined : (out as V[]);
    }),
    same: (a, b) => a.length === b.length && a.every((x, i) => same(x, b[i]!)),
    render: (w) => renderValue(Array.isArray(w) ? w.map((x: unknown) => item.fromWire(x) ?? x) : w),
  };
}

/** An object of strings (a map: key order does not count); a record's null reads as `{}`. */
export function stringMap(schema: Schema = {}): Codec<Record<string, string>> {
  const sorted = (m: Record<string, string>): string =>
    JSON.stringify(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return {
    schema: { type: 'object', additionalProperties: { type: 'string' }, ...schema },
    toWire: (v) => ({ ...v }),
    fromWire: orEmpty({}, (w) =>
      typeof w === 'object' && !Array.isArray(w)
        ? Object.fromEntries(Object.entries(w as object).filter(([, x]) => typeof x === 'string'))
        : undefined,
    ),
    same: (a, b) => sorted(a) === sorted(b),
  };
}

/**
 * A list of objects whose members are the fields of `fields` (spec name, codec, wire member
 * `api`): sent and read member by member, compared item by item in order, a missing member
 * equal to its field's `unset`. A record's null reads as `[]`. The CRD items come from
 * `schemaOf(fields, docs)` in the field's `bounds` (they may need the documents).
 */
export function tableList<const F extends readonly AnyField[]>(fields: F): Codec<SpecOf<F>[]> {
  type Item = Record<string, unknown>;
  const read = (x: unknown): Item =>
    specOfRecord(fields, typeof x === 'object' && x !== null ? (x as Item) : {});
  return {
    // Compared item by item in order: one value to server-side apply.
    schema: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'object' } },
    toWire: (v) => v.map((x) => wireOf(fields, x as Item)),
    fromWire: orEmpty([], (w) => (Array.isArray(w) ? (w.map(read) as SpecOf<F>[]) : undefined)),
    same: (a, b) =>
      a.length === b.length && a.every((x, i) => sameMembers(fields, x as Item, b[i] as Item)),
  };
}

/**
 * `codec`, where a record without the member (or null) reads as `wire`: the platform binds a
 * left-out member as `0` (an enum's first name, a count).
 */
export function absentAs<V>(codec: Codec<V>, wire: unknown): Codec<V> {
  return { ...codec, fromWire: (w) => codec.fromWire(w ?? wire) };
}

/**
 * `codec`, where the platform's blank value (`""`, `false`) reads as absent, like null: an
 * export leaves it out. Give the field `unset: blank` so that a spec asking for it is in sync.
 */
export function blankAsAbsent<V>(codec: Codec<V>, blank: V): Codec<V> {
  return { ...codec, fromWire: (w) => (w === blank ? undefined : codec.fromWire(w)) };
}

/** `codec` of a list whose plan entries count `noun` instead of showing items (secrets, long lists). */
export function counted<V extends readonly unknown[]>(codec: Codec<V>, noun: string): Codec<V> {
  const count = (v: V | undefined): string => `${v?.length ?? 0} ${noun}`;
  return { ...codec, describe: (live, want) => ({ live: count(live), desired: count(want) }) };
}

/** A member of a list item as text (absent: empty). */
function textOf(v: unknown): string {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

/**
 * A list of objects, in order, whose members the platform names otherwise: `members` maps each
 * spec member to its wire member (`{name: 'Name'}`); every member is text. `item`: the CRD
 * schema of one object.
 */
export function objectList<const K extends string>(
  members: Record<K, string>,
  item: Schema,
  schema: Schema = {},
): Codec<Record<K, string>[]> {
  const keys = Object.keys(members) as K[];
  const convert = (
    x: unknown,
    from: (k: K) => string,
    to: (k: K) => string,
  ): Record<string, string> =>
    Object.fromEntries(keys.map((k) => [to(k), textOf((x as Record<string, unknown>)[from(k)])]));
  return {
    schema: { type: 'array', items: { type: 'object', ...item }, ...schema },
    toWire: (v) =>
      v.map((x) =>
        convert(
          x,
          (k) => k,
          (k) => members[k],
        ),
      ),
    fromWire: (w) =>
      Array.isArray(w)
        ? w.map(
            (x) =>
              convert(
                x,
                (k) => members[k],
                (k) => k,
              ) as Record<K, string>,
          )
        : undefined,
    same: (a, b) => JSON.stringify(a) === JSON.stringify(b),
  };
}
