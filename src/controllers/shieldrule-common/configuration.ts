/**
 * A rule's `ruleConfiguration`. The platform binds a given configuration whole (a member left
 * out of it becomes 0 or null), so an update that changes one of its members sends it complete:
 * the spec's members over the live ones, members the platform holds as null left out.
 */
import type { ManagedObject } from '../../runtime/types.js';
import { wireOf, type AnyField, type FieldsDiff } from '../kit/fields.js';
import { CONFIGURATION } from './fields.js';
import type { RuleRecord } from './types.js';

type Json = Record<string, unknown>;

/** The configuration members `spec` sets, as wire values (what a create sends). */
export function desiredConfiguration(fields: readonly AnyField[], spec: Json): Json {
  return (wireOf(fields, spec)[CONFIGURATION] as Json | undefined) ?? {};
}

/** `diff` (the table's, kit/fields.ts compareFields) with the configuration in its update whole. */
export function wholeConfiguration(
  fields: readonly AnyField[],
  obj: ManagedObject,
  record: RuleRecord,
  diff: FieldsDiff,
): FieldsDiff {
  if (diff.update[CONFIGURATION] === undefined) return diff;
  const want = desiredConfiguration(fields, obj.spec ?? {});
  const live = record.ruleConfiguration ?? {};
  const whole: Json = {};
  for (const f of fields) {
    const [parent, member] = f.api?.split('.') ?? [];
    if (parent !== CONFIGURATION || member === undefined) continue;
    const v = member in want ? want[member] : live[member];
    if (v !== undefined && v !== null) whole[member] = v;
  }
  return { ...diff, update: { ...diff.update, [CONFIGURATION]: whole } };
}
