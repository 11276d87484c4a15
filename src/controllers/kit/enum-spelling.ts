/**
 * Enum values spelt our way (UpperCamel, acronyms in capitals: `TCP`, `ECDSA`, docs/api.md)
 * where the platform or its documents spell them otherwise. Two shapes, one idea:
 * - {@link WireNames} (spec name -> wire value) for enums sent as strings: the platform still
 *   receives exactly its own value, and what it answers reads back in the spec's spelling;
 * - {@link Spelling} (the document's name -> ours) for enums sent by number, whose CRD lists the
 *   document's names.
 * v1alpha1 spelled these values as the platform does, so each is also what `cdnctl migrate`
 * respells ({@link respelledAt}). Types only are imported: a kind's kind.ts may use it.
 */
import type { LegacyFieldMove } from '../kind-module.js';
import type { Schema } from '../shared/crd-schema.js';
import type { Codec } from './codecs.js';

/** Spec name -> wire value of one enum. */
export type WireNames<S extends string = string, W extends string = string> = Readonly<
  Record<S, W>
>;

/** The wire value of the spec name `name`. */
export function toWireName<S extends string, W extends string>(names: WireNames<S, W>, name: S): W {
  return names[name];
}

/** The spec name of the wire value `wire`; undefined when the enum lacks it. */
export function fromWireName<S extends string>(names: WireNames<S>, wire: unknown): S | undefined {
  return (Object.keys(names) as S[]).find((s) => names[s] === wire);
}

/** The spec name of `wire`, or `wire` itself when the enum lacks it (status shows it as read). */
export function shownName(names: WireNames, wire: string): string {
  return fromWireName(names, wire) ?? wire;
}

/**
 * The document's enum bounds (`{enum: [wire values]}`) in spec names. Throws at generation when
 * the document has a value without a spec name, or none of the enum at all.
 */
export function specEnumOf(names: WireNames, docBounds: Schema): Schema {
  const wire = docBounds.enum;
  if (!Array.isArray(wire)) throw new Error('cannot translate an enum: the document gives none');
  return {
    ...docBounds,
    enum: wire.map((w) => {
      const name = fromWireName(names, w);
      if (name === undefined)
        throw new Error(`cannot translate enum value ${JSON.stringify(w)}: no spec name for it`);
      return name;
    }),
  };
}

/** The kit codec (kit/codecs.ts) of a field of such an enum: spec names, sent as wire values. */
export function enumByWireName<S extends string>(names: WireNames<S>): Codec<S> {
  return {
    schema: { type: 'string', enum: Object.keys(names) },
    toWire: (v) => toWireName(names, v),
    fromWire: (w) => fromWireName(names, w),
  };
}

/** The document's (or v1alpha1's) name of a value -> ours, for the values we spell otherwise. */
export type Spelling = Readonly<Record<string, string>>;

/** The spelling of the enum `names` maps: each wire value (v1alpha1's name) -> its spec name. */
export function legacyValuesOf(names: WireNames): Spelling {
  return Object.fromEntries(Object.entries(names).map(([spec, wire]) => [wire, spec]));
}

/** `names` of an official document enum, each in our spelling when `spelling` has one. */
export function spelledOurWay(names: readonly string[], spelling: Spelling): string[] {
  return names.map((n) => spelling[n] ?? n);
}

/**
 * The `cdnctl migrate` move respelling the values at `path` (kind-module.ts LegacyFieldMove):
 * the path stays, each value `spelling` changes is rewritten, the others are kept.
 */
export function respelledAt(path: string, spelling: Spelling): LegacyFieldMove {
  const changed = Object.entries(spelling).filter(([from, to]) => from !== to);
  return { from: path, to: path, values: Object.fromEntries(changed) };
}
