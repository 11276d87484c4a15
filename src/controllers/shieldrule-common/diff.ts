/**
 * Pure comparison of a shield rule's desired state with the live rule: the plan entries and the
 * one `PATCH` body that fixes them, carrying only the members that differ (`ruleName`,
 * `ruleDescription`, and `ruleConfiguration` complete when any of its members differs, because
 * the platform binds a given configuration whole).
 */
import type { FieldDiff } from '../../runtime/types.js';
import { renderValue } from '../shared/plan.js';
import { completeConfiguration, desiredConfiguration, sameValue } from './configuration.js';
import { fromWire } from './enums.js';
import type { ConfigMember, RulePatchBody } from './family.js';
import type { RuleRecord, ShieldRuleSpecBase } from './types.js';

/** What the object wants of its rule. */
export interface DesiredRule {
  /** Undefined: the name is not managed (a rule adopted by id without spec.name). */
  name?: string;
  /** Undefined: not managed. */
  description?: string;
  /** The managed configuration members (wire values). */
  config: Record<string, unknown>;
}

/** Result of {@link diffRule}. */
export interface RuleDiff {
  diffs: FieldDiff[];
  /** Empty when nothing differs. */
  patch: RulePatchBody;
}

/**
 * The rule's desired state. The name defaults to metadata.name, except for a rule adopted by
 * id (`spec.ruleId`) without `spec.name`, whose name stays as it is.
 */
export function desiredRule(
  members: readonly ConfigMember[],
  spec: ShieldRuleSpecBase,
  metadataName: string,
): DesiredRule {
  const name = spec.name ?? (spec.ruleId === undefined ? metadataName : undefined);
  return {
    ...(name !== undefined ? { name } : {}),
    ...(spec.description !== undefined ? { description: spec.description } : {}),
    config: desiredConfiguration(members, spec as unknown as Record<string, unknown>),
  };
}

function rendered(member: ConfigMember, v: unknown): string {
  const table = member.table;
  if (member.type === 'enum' && table) return fromWire(table, v) ?? renderValue(v);
  if (member.type === 'enumList' && table && Array.isArray(v))
    return renderValue(v.map((n: unknown) => fromWire(table, n) ?? n));
  return renderValue(v);
}

/** Name and description: each sent only when managed and different. */
function diffNameAndDescription(want: DesiredRule, record: RuleRecord, out: RuleDiff): void {
  if (want.name !== undefined && want.name !== record.ruleName) {
    out.patch.ruleName = want.name;
    out.diffs.push({ field: 'ruleName', live: renderValue(record.ruleName), desired: want.name });
  }
  if (want.description !== undefined && want.description !== (record.ruleDescription ?? '')) {
    out.patch.ruleDescription = want.description;
    out.diffs.push({
      field: 'ruleDescription',
      live: renderValue(record.ruleDescription),
      desired: want.description,
    });
  }
}

/** Compares `want` with the live `record` (see the module comment). */
export function diffRule(
  members: readonly ConfigMember[],
  want: DesiredRule,
  record: RuleRecord,
): RuleDiff {
  const out: RuleDiff = { diffs: [], patch: {} };
  diffNameAndDescription(want, record, out);
  const live = record.ruleConfiguration ?? {};
  for (const m of members) {
    if (!(m.api in want.config) || sameValue(m, want.config[m.api], live[m.api])) continue;
    out.diffs.push({
      field: `ruleConfiguration.${m.api}`,
      live: rendered(m, live[m.api]),
      desired: rendered(m, want.config[m.api]),
    });
  }
  if (out.diffs.some((d) => d.field.startsWith('ruleConfiguration.')))
    out.patch.ruleConfiguration = completeConfiguration(members, live, want.config);
  return out;
}
