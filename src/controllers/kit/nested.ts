/**
 * A nested wire object of a table (`ruleConfiguration`): its fields' `api` members under one
 * prefix, and the update of a platform that binds such an object whole.
 */
import { wireOf, type AnyField, type FieldsDiff } from './fields.js';

type Json = Record<string, unknown>;

/**
 * The same fields as members of the nested wire object `prefix`: one table serves both a
 * nested member of the body and the items of a list (codecs.ts tableList).
 */
export function nestedIn<const T extends readonly AnyField[]>(prefix: string, fields: T): T {
  return fields.map((f) =>
    f.api === undefined ? f : { ...f, api: `${prefix}.${f.api}` },
  ) as unknown as T;
}

/**
 * `diff` with the nested object `prefix` in its update whole, for a platform that binds a given
 * object whole (a member left out becomes 0 or null): when one of its members differs, every
 * member of the table is sent, the spec's over the live ones, those the platform holds as null
 * left out.
 */
export function wholeNested(
  fields: readonly AnyField[],
  prefix: string,
  spec: Json,
  record: Json,
  diff: FieldsDiff,
): FieldsDiff {
  if (diff.update[prefix] === undefined) return diff;
  const want = (wireOf(fields, spec)[prefix] ?? {}) as Json;
  const live = (record[prefix] ?? {}) as Json;
  const whole: Json = {};
  for (const f of fields) {
    if (!f.api?.startsWith(`${prefix}.`)) continue;
    const member = f.api.slice(prefix.length + 1);
    const v = member in want ? want[member] : live[member];
    if (v !== undefined && v !== null) whole[member] = v;
  }
  return { ...diff, update: { ...diff.update, [prefix]: whole } };
}
