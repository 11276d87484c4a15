/**
 * `cdnctl export` of a shield rule kind: every rule of every shield zone of the account, as an
 * object adopting it by id, on the exported ShieldPolicy (`shieldPolicyRef`) when policies are
 * exported too, else on its `shieldZoneId`; every table member it holds is written (fields.ts).
 */
import type { CdnClient } from '../../cdn/client.js';
import { specOfRecord } from '../kit/fields.js';
import { typeMetaOf } from '../kind-names.js';
import { NameAllocator } from '../shared/export-names.js';
import {
  metadataOf,
  type ExportContext,
  type ExportOptions,
  type ExportedObject,
  type KindExporter,
} from '../shared/manifest-export.js';
import { adoptionById } from '../shared/ownership-schema.js';
import { SHIELD_POLICY_NAMES } from '../shieldpolicy/types.js';
import type { RuleFamily } from './family.js';
import type { RuleRecord } from './types.js';

/** One live rule as an object named `name`; `policy` names the exported ShieldPolicy, if any. */
export function exportRule(
  family: RuleFamily,
  rule: RuleRecord,
  name: string,
  policy: string | undefined,
  opts: ExportOptions,
): ExportedObject {
  const spec = {
    ...adoptionById(rule.id),
    ...(policy ? { shieldPolicyRef: { name: policy } } : { shieldZoneId: rule.shieldZoneId }),
    ...opts.account,
    deletionPolicy: opts.deletionPolicy,
    ...specOfRecord(family.members, rule as Record<string, unknown>),
  };
  return {
    kind: family.names.kind,
    name,
    manifest: { ...typeMetaOf(family.names), metadata: metadataOf(name, opts.namespace), spec },
  };
}

/** Ids of every shield zone of the account, ascending. */
export async function zoneIds(client: CdnClient): Promise<number[]> {
  return (await client.listAllShieldZones())
    .map((z) => Number(z.shieldZoneId))
    .filter((id) => Number.isSafeInteger(id) && id > 0)
    .sort((a, b) => a - b);
}

/** The exporter of `family` (see the module comment). */
export function ruleExporter(family: RuleFamily): KindExporter {
  return async (c: ExportContext): Promise<void> => {
    const api = family.api(c.client);
    const names = new NameAllocator();
    const policies = c.wants(SHIELD_POLICY_NAMES.kind)
      ? c.names(SHIELD_POLICY_NAMES.kind)
      : new Map<string, string>();
    for (const zoneId of await zoneIds(c.client)) {
      const rules = (await api.list(zoneId)).sort((a, b) => Number(a.id) - Number(b.id));
      for (const listed of rules) {
        // Read by id, the way the operator reads it.
        const rule = await api.get(Number(listed.id));
        const name = names.allocate(String(rule.ruleName ?? ''), Number(rule.id), 'rule');
        const policy = policies.get(String(zoneId));
        c.result.objects.push(exportRule(family, rule, name, policy, c.opts));
      }
    }
  };
}
