/**
 * Runs the edge rule calls of a plan against one zone and works out the resulting status:
 * deletes, updates and toggles first, then creates; when anything was created the zone is
 * read back once to learn the new rules' GUIDs (the create answer has no body).
 */
import type { CdnClient } from '../../cdn/client.js';
import type { EdgeRule } from '../../cdn/types.js';
import { isCdnApiError } from '../../cdn/errors.js';
import {
  statusAfterCreates,
  type EdgeRuleAction,
  type EdgeRulePlan,
  type EdgeRuleStatus,
} from './edge-rules.js';

async function runAction(
  client: CdnClient,
  id: number,
  a: EdgeRuleAction,
  signal: AbortSignal,
): Promise<void> {
  const opts = { signal };
  switch (a.op) {
    case 'create':
    case 'update':
      return client.addOrUpdateEdgeRule(id, a.rule, opts);
    case 'setEnabled':
      return client.setEdgeRuleEnabled(id, a.guid, a.enabled, opts);
    case 'delete':
      try {
        return await client.deleteEdgeRule(id, a.guid, opts);
      } catch (err) {
        // Already gone is the wanted end state.
        if (isCdnApiError(err) && err.kind === 'notFound') return undefined;
        throw err;
      }
  }
}

/** Applies the plan; returns `status.edgeRules` for the spec rules named in `order`. */
export async function applyEdgeRules(
  client: CdnClient,
  id: number,
  plan: EdgeRulePlan,
  live: readonly EdgeRule[],
  order: readonly string[],
  signal: AbortSignal,
): Promise<EdgeRuleStatus[]> {
  const creates = plan.actions.filter((a) => a.op === 'create');
  for (const a of plan.actions) if (a.op !== 'create') await runAction(client, id, a, signal);
  for (const a of creates) await runAction(client, id, a, signal);
  const after =
    creates.length > 0 ? ((await client.getPullZone(id, { signal })).EdgeRules ?? []) : live;
  return statusAfterCreates(plan, live, after, order);
}
