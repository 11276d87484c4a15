/**
 * One table's field as a member of another table (kit/fields.ts): a DNS record's member as a
 * member of an entry of a zone's record list. Sent, read, compared and named in errors the same
 * way (the same wire member, codec, comparison, `unset` and `appliesTo`), described in the other
 * table's own words with its own CRD type and bounds.
 */
import type { Schema } from '../shared/crd-schema.js';
import { fieldOf, type AnyField } from './fields.js';

/** What only the field's own table means: when it is written, its status, CRD and words. */
const OWN = ['write', 'status', 'required', 'bounds', 'schema', 'description'] as const;

/** A field restated: its own table's options left behind, its words new. */
export type Restated<F> = Omit<F, (typeof OWN)[number]> & { readonly description: string };

/** The field `spec` of `fields` restated with the CRD type `schema` and `description`. */
export function restated<const T extends readonly AnyField[], S extends T[number]['spec']>(
  fields: T,
  spec: S,
  schema: Schema,
  description: string,
): Restated<Extract<T[number], { spec: S }>> {
  const f: AnyField = fieldOf(fields, spec);
  const kept = Object.entries(f).filter(([k]) => !(OWN as readonly string[]).includes(k));
  const codec = { ...f.codec, schema };
  return { ...Object.fromEntries(kept), codec, description } as Restated<
    Extract<T[number], { spec: S }>
  >;
}
